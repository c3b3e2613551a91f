"""The watcher on a game video whose picture changes size as Chromium's WebRTC stream does (500x375, then
750x561, then as it is), at given switch times: are the calls as the file's, and on time?

    python size_switch.py VIDEO S1 S2 [--blur] [--base]

`--blur`: the smaller pictures blurred too (5x5 Gaussian), as a small stream is softer; `--base`: the video
as it is first, for comparison. Run with PYTHONPATH=CHECKOUT to measure another checkout's watcher.
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


def calls_with_switches(video: Path, truth: dict, reader, switches: list[float], blur: bool) -> list[dict]:
    referee = Referee(STANDARD, players=int(truth["players"]), first_seat=int(truth.get("first_seat", 1)))
    watcher = watch.GameWatcher(reader, referee, settle_s=1.5)
    calls = []
    for frame, time_s, index in watch.video_frames(str(video), 5.0):
        step = sum(time_s >= s for s in switches)
        if switches and step < len(SIZES):
            frame = cv2.resize(frame, SIZES[step], interpolation=cv2.INTER_AREA)
            if blur:
                frame = cv2.GaussianBlur(frame, (5, 5), 1.5)
        event = watcher.update(frame, time_s, index)
        if event.call is not None:
            calls.append(event.call.to_json())
    return calls


def main() -> None:
    video = Path(sys.argv[1])
    switches = [float(s) for s in sys.argv[2:] if not s.startswith("--")]
    truth = json.loads(video.with_suffix(".json").read_text())
    reader = load_reader()
    print("code", watch.__file__)
    for switch in ([], switches) if "--base" in sys.argv else (switches,):
        calls = calls_with_switches(video, truth, reader, switch, "--blur" in sys.argv)
        score = score_calls(truth["turns"], calls)
        times = [round(c["time_s"], 1) for c in calls]
        print(f"switch {switch}: {score.right}/{score.turns} right, missed {score.missed}, "
              f"invented {score.invented}; calls at {times}")
    print("settled", [round(t["time_s"], 1) for t in truth["turns"]])


if __name__ == "__main__":
    main()
