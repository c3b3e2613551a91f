"""Run ../scripts-s22/with_detector.py (and through it an evaluation) with a video frame read at another
detector input than `vision.detector.VIDEO_INPUT_SIZE`'s 320 square: `--video-input own` reads a frame as a
photo is read (the model's own size, 448, in the frame's own shape: 448x336 for a 1000x750 frame, 1.47 times
the 320 square's pixels), `--video-input N` an N square; `--video-small-tiles PX` the window look's threshold
for video (`SMALL_TILES_BELOW`, pixels at the input size); `--no-faint-look` the faint look off;
`--rack-conf S` the score a rack box needs (`DEFAULT_RACK_CONFIDENCE`; a file carrying its own
`rack_confidence`, from the twenty-seventh session, keeps that). Twenty-sixth session, not kept as is.

    python docs/experiments/scripts-s26/with_video_input.py --video-input own [--video-small-tiles 14] \\
        [--no-faint-look] [--detector D.onnx] benchmarks/measure_referee_set.py NAME OUT FOLDER...
"""

import copy
import runpy
import sys
from pathlib import Path

import vision.detector

args = sys.argv[1:]
video_input = None
while args and args[0] in ("--video-input", "--video-small-tiles", "--no-faint-look", "--rack-conf"):
    if args[0] == "--rack-conf":  # the score a rack box needs (photos and video alike)
        vision.detector.DEFAULT_RACK_CONFIDENCE = float(args[1])
        args = args[2:]
        continue
    if args[0] == "--no-faint-look":  # no faint box: no closer look (photos and video alike)
        vision.detector.FAINT_TILE_FROM = 1.01
        args = args[1:]
        continue
    if args[0] == "--video-input":
        video_input = args[1]
    else:
        vision.detector.SMALL_TILES_BELOW = float(args[1])
    args = args[2:]

if video_input == "own":
    def for_video(self):
        view = copy.copy(self)
        view.small_tiles_below = vision.detector.SMALL_TILES_BELOW
        return view

    vision.detector.TileDetector.for_video = for_video
elif video_input is not None:
    vision.detector.VIDEO_INPUT_SIZE = int(video_input)

sys.argv = [str(Path(__file__).parents[1] / "scripts-s22" / "with_detector.py"), *args]
runpy.run_path(sys.argv[0], run_name="__main__")
