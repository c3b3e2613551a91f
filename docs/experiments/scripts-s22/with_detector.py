"""Run an evaluation module or script with another detector file in place of the shipped one, and/or with the
detector's window look for small tiles off (`SMALL_TILES_BELOW` 0: the faint look then serves those frames),
without touching `models/`: for the referee's sets, which load the shipped reader. `--close-look-size N`
(twenty-third session): the close look a model of any input size gives small tiles, at N (only with
../scripts-s23/close-look.patch applied; not kept); `--small-tiles-below PX`: the window look's
threshold, for photos and video alike (from the twenty-third session a photo's is
`STILL_SMALL_TILES_BELOW`, a video's `SMALL_TILES_BELOW`; `--no-window-look` sets both to 0).

    python docs/experiments/scripts-s22/with_detector.py [--detector D.onnx] [--no-window-look] \\
        [--close-look-size N] \\
        -m vision.evaluation.reading --images ... --json OUT
    python docs/experiments/scripts-s22/with_detector.py --detector D.onnx \\
        benchmarks/measure_referee_set.py NAME OUT FOLDER...
"""

import runpy
import sys
from pathlib import Path

import vision.detector

args = sys.argv[1:]
while args and args[0] in ("--detector", "--no-window-look", "--close-look-size", "--small-tiles-below"):
    if args[0] == "--small-tiles-below":  # photos and video alike
        vision.detector.SMALL_TILES_BELOW = vision.detector.STILL_SMALL_TILES_BELOW = float(args[1])
        args = args[2:]
    elif args[0] == "--close-look-size":
        vision.detector.CLOSE_LOOK_SIZE = int(args[1])
        args = args[2:]
    elif args[0] == "--detector":
        vision.detector.DETECTOR_MODEL = str(Path(args[1]).resolve())  # joined to models/: absolute wins
        args = args[2:]
    else:
        vision.detector.SMALL_TILES_BELOW = vision.detector.STILL_SMALL_TILES_BELOW = 0.0
        args = args[1:]
if args[:1] == ["-m"]:
    sys.argv = [args[1], *args[2:]]
    runpy.run_module(args[1], run_name="__main__", alter_sys=True)
else:
    sys.argv = args
    runpy.run_path(args[0], run_name="__main__")
