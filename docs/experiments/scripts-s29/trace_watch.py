"""Trace the watcher on one video between two times: motion look, settled state, still time, calls.

python docs/experiments/scripts-s29/trace_watch.py GAME.mp4 FROM_S TO_S
"""

import json
import sys
from pathlib import Path

from assistant.referee import Referee
from assistant.rules import STANDARD
from vision.reader import load_reader
from vision.watch import GameWatcher, video_frames

video, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
truth = json.loads(Path(video).with_suffix(".json").read_text())
w = GameWatcher(load_reader(), Referee(STANDARD, players=truth["players"], first_seat=truth["first_seat"]))
orig = w.motion.look


def look(frame, t):
    w._lastlook = orig(frame, t)
    return w._lastlook


w.motion.look = look
for frame, t, i in video_frames(video, 5.0):
    ev = w.update(frame, t, i)
    if t0 <= t <= t1:
        print(
            f"{t:6.2f} look={getattr(w, '_lastlook', None)} ev_moving={ev.moving} settled={w._settled} "
            f"still_since={w._still_since} reads={w._reads} call={ev.call.seat if ev.call else ''} "
            f"{(ev.call.action, ev.call.added, ev.call.removed) if ev.call else ''}"
        )
    if t > t1:
        break
