"""Run a script with `rummi watch`'s file reads at another rate (twenty-third session; not kept):

    python docs/experiments/scripts-s23/watch_fps.py FPS benchmarks/measure_referee_set.py SET OUT FOLDER...
"""

import runpy
import sys

import vision.evaluation.game_videos as gv
import vision.watch as watch

fps = float(sys.argv[1])
watch.WATCH_FPS = fps
for f in (watch.video_frames, gv.watch_game, gv.evaluate):
    f.__defaults__ = (*f.__defaults__[:-1], fps)
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
