"""size_switch (scripts-s16) with the two switches 0.06 s after turns 3 and 8 settled (as bench_referee_live
saw once on a loaded machine, turn 4 judged 4 s late): calls, misses and each call's longest delay after its
turn settled; no blur. Twenty-fourth session: HEAD and this build the same on 16 tuning games.

    [PYTHONPATH=CHECKOUT] python docs/experiments/scripts-s24/switch_after_settle.py GAME.mp4 ...
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

SIZES = [(500, 375), (750, 561)]
reader = load_reader()
for v in sys.argv[1:]:
    video = Path(v)
    truth = json.loads(video.with_suffix(".json").read_text())
    turns = truth["turns"]
    switches = [turns[2]["time_s"] + 0.06, turns[min(7, len(turns) - 1)]["time_s"] + 0.06]
    referee = Referee(STANDARD, players=int(truth["players"]), first_seat=int(truth.get("first_seat", 1)))
    w = watch.GameWatcher(reader, referee, settle_s=1.5)
    calls = []
    for frame, t, i in watch.video_frames(str(video), 5.0):
        step = sum(t >= s for s in switches)
        if step < len(SIZES):
            frame = cv2.resize(frame, SIZES[step], interpolation=cv2.INTER_AREA)
        e = w.update(frame, t, i)
        if e.call is not None:
            calls.append(e.call.to_json())
    s = score_calls(turns, calls)
    print(f"{video.parent.name}/{video.stem} {s.right}/{s.turns} missed {s.missed} invented {s.invented} "
          f"max delay {max(s.delays_s, default=0):.2f}", flush=True)
