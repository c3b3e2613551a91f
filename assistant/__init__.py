"""Rules engine for Rummikub: tiles, presets, sets, turns, scores. Pure Python."""
