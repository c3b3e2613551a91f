"""The watcher on a game whose picture size follows a schedule (as one live run's stream did), the smaller
pictures blurred; run with PYTHONPATH=CHECKOUT to measure another checkout's watcher:

    python docs/experiments/scripts-s24/switch_schedule.py VIDEO 0:500x375 24.21:750x561 28.16:500x375 ...
"""
import json
import sys
from pathlib import Path

import cv2

import vision.watch as watch
from assistant.referee import Referee
from assistant.rules import STANDARD
from vision.evaluation.game_videos import score_calls
from vision.reader import load_reader

video = Path(sys.argv[1])
plan = [(float(a.split(":")[0]), tuple(int(v) for v in a.split(":")[1].split("x"))) for a in sys.argv[2:]]
truth = json.loads(video.with_suffix(".json").read_text())
referee = Referee(STANDARD, players=int(truth["players"]), first_seat=int(truth.get("first_seat", 1)))
w = watch.GameWatcher(load_reader(), referee, settle_s=1.5)
calls = []
for frame, t, i in watch.video_frames(str(video), 5.0):
    size = plan[0][1]
    for at, s in plan:
        if t >= at:
            size = s
    if size != (frame.shape[1], frame.shape[0]):
        frame = cv2.GaussianBlur(cv2.resize(frame, size, interpolation=cv2.INTER_AREA), (5, 5), 1.5)
    e = w.update(frame, t, i)
    if e.call is not None:
        calls.append(e.call.to_json())
s = score_calls(truth["turns"], calls)
print(f"{watch.__file__}: {s.right}/{s.turns} missed {s.missed} invented {s.invented}")
for x in s.wrong:
    call = x["call"] and (x["call"]["seat"], x["call"]["added"], x["call"]["removed"])
    print("  ", x["time_s"], x["truth"] and x["truth"]["seat"], call)
