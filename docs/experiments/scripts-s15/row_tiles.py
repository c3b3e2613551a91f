"""Run an evaluation module with the detector's score for a tile lying in a row between two found tiles
set otherwise (`vision.detector.ROW_TILE_CONFIDENCE`; 1.0: the rule off), as the fifteenth session measured
it (issue 36/37).

    python docs/experiments/scripts-s15/row_tiles.py SCORE vision.evaluation.scenes FOLDER ...
"""

import runpy
import sys

from vision import detector

if __name__ == "__main__":
    detector.ROW_TILE_CONFIDENCE = float(sys.argv[1])
    module = sys.argv[2]
    sys.argv = [module, *sys.argv[3:]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
