"""Run an evaluation module with the detector's window look for small tiles off (`SMALL_TILES_BELOW` 0: the
faint look then serves those frames too), to measure what a detector needs it for.

    python docs/experiments/scripts-s22/no_window_look.py vision.evaluation.reading --images ... --json OUT
"""

import runpy
import sys

import vision.detector

vision.detector.SMALL_TILES_BELOW = 0.0
module = sys.argv[1]
sys.argv = [module, *sys.argv[2:]]
runpy.run_module(module, run_name="__main__", alter_sys=True)
