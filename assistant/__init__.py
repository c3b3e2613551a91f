"""Rules engine for Rummikub: tiles and notation, presets, sets, turns, scores, solver, storage. Pure Python.

Imports no other package of the project and no pixels (no OpenCV, no torch; tests/architecture checks it).
`rummi.py`, outside the package, adds the reader's commands (`rummi read`, `calibrate`, `watch`) to the CLI's.
"""
