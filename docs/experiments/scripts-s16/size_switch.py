"""The watcher on a game video whose picture changes size as Chromium's WebRTC stream does (500x375, then
750x561, then 1000x750), at a given switch time: are the calls as the file's and on time?

    python size_switch.py VIDEO SWITCH_S [SWITCH2_S]
"""
import json, sys
from pathlib import Path
import cv2
from assistant.referee import Referee
from assistant.rules import STANDARD
from vision.evaluation.game_videos import score_calls
from vision.reader import load_reader
from vision.watch import GameWatcher, video_frames

video = Path(sys.argv[1]); switches = [float(s) for s in sys.argv[2:] if not s.startswith("--")]
truth = json.loads(video.with_suffix(".json").read_text())
reader = load_reader()
BLUR = '--blur' in sys.argv
import vision.watch as vw; print('code', vw.__file__)
sizes = [(500, 375), (750, 561), (1000, 750)]
def run(switch):
    w = GameWatcher(reader, Referee(STANDARD, players=int(truth["players"]), first_seat=int(truth.get("first_seat", 1))), settle_s=1.5)
    calls = []
    for frame, t, i in video_frames(str(video), 5.0):
        if switch:
            k = sum(t >= s for s in switch)
            if frame.shape[1] != sizes[k][0]:
                frame = cv2.resize(frame, sizes[k], interpolation=cv2.INTER_AREA)
                if BLUR:  # the small stream softer too
                    frame = cv2.GaussianBlur(frame, (5, 5), 1.5)
        e = w.update(frame, t, i)
        if e.call is not None:
            calls.append(e.call.to_json())
    return calls
settled = [round(t["time_s"], 1) for t in truth["turns"]]
for switch in ([], switches) if "--base" in sys.argv else (switches,):
    calls = run(switch)
    s = score_calls(truth["turns"], calls)
    late = [round(c["time_s"] - t, 2) for c, t in zip(calls, settled)] if len(calls) == len(settled) else None
    print(f"switch {switch}: {s.right}/{s.turns} right, missed {s.missed}, invented {s.invented}; calls at {[round(c['time_s'],1) for c in calls]}")
print("settled", settled)
