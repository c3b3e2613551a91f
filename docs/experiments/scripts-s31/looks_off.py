"""Run an evaluation module with some of the detector's extra looks off and/or another rack check threshold:

    LOOKS_OFF=sloped_rack_look,rack_look,faint_look RC_T=0.6 \\
        python docs/experiments/scripts-s31/looks_off.py vision.evaluation.scenes FOLDER... [--detector D]
    LOOKS_OFF=small_tiles_look python docs/experiments/scripts-s31/looks_off.py \\
        benchmarks/measure_referee_set.py NAME OUT.json GAME_FOLDER...
"""

import os
import runpy
import sys

import vision.detector
import vision.rack_check

looks_off = [name for name in os.environ.get("LOOKS_OFF", "").split(",") if name]
detector_init = vision.detector.TileDetector.__init__


def detector_with_looks_off(self, *args, **kwargs):
    detector_init(self, *args, **kwargs)
    for name in looks_off:
        if not hasattr(self, name):
            raise SystemExit(f"no look {name}")
        setattr(self, name, False)


vision.detector.TileDetector.__init__ = detector_with_looks_off
if os.environ.get("RC_T"):
    check_init = vision.rack_check.RackCheck.__init__

    def check_with_threshold(self, *args, **kwargs):
        check_init(self, *args, **kwargs)
        self.threshold = float(os.environ["RC_T"])

    vision.rack_check.RackCheck.__init__ = check_with_threshold
module = sys.argv[1]
sys.argv = [module] + sys.argv[2:]
if module.endswith(".py"):  # a script (benchmarks/measure_referee_set.py) rather than a module
    runpy.run_path(module, run_name="__main__")
else:
    runpy.run_module(module, run_name="__main__")
