"""Rules engine for Rummikub: tiles and notation, presets, sets, turns, scores, solver, storage. Pure Python.

Imports no other package of the project and no pixels (no OpenCV, no torch); only the CLI (`assistant.cli`)
reaches `vision` (`rummi read`, `rummi calibrate`).
"""
