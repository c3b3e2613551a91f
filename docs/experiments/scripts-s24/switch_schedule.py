"""The watcher on game videos whose picture size follows a schedule, as a live Chromium stream's does; run
with PYTHONPATH=CHECKOUT to measure another checkout's watcher. Twenty-fourth session.

    python docs/experiments/scripts-s24/switch_schedule.py VIDEO --plan 0:500x375 24.21:750x561 28.16:500x375
    python docs/experiments/scripts-s24/switch_schedule.py GAME.mp4 ... --after-turns 3 8

`--plan T:WxH ...`: from T seconds on, frames at WxH (before the first T: the first size), the smaller
pictures blurred (one live run's stream, tuning game 1203-p3 game 0). `--after-turns N M`: 500x375 until
0.06 s after turn N settled, 750x561 until 0.06 s after turn M, then as the video is, not blurred (as
bench_referee_live saw once on a loaded machine: a turn judged 4 s late). One line per video: right, missed,
invented and the longest delay after a turn settled; with --plan, the wrong calls too.
"""

import argparse
import json
from pathlib import Path

import cv2

import vision.watch as watch
from assistant.referee import Referee
from assistant.rules import STANDARD
from vision.evaluation.game_videos import score_calls
from vision.reader import load_reader


def parse_size(text: str) -> tuple[float, tuple[int, int]]:
    at, size = text.split(":")
    width, height = size.split("x")
    return float(at), (int(width), int(height))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("videos", nargs="+", type=Path)
    p.add_argument("--plan", nargs="+", type=parse_size)
    p.add_argument("--after-turns", nargs=2, type=int)
    args = p.parse_args()
    reader = load_reader()
    for video in args.videos:
        truth = json.loads(video.with_suffix(".json").read_text())
        turns = truth["turns"]
        if args.after_turns:
            first, second = (turns[min(n, len(turns)) - 1]["time_s"] + 0.06 for n in args.after_turns)
            plan, blur = [(0.0, (500, 375)), (first, (750, 561)), (second, None)], False
        else:
            plan, blur = args.plan, True
        referee = Referee(STANDARD, players=int(truth["players"]), first_seat=int(truth.get("first_seat", 1)))
        watcher = watch.GameWatcher(reader, referee, settle_s=1.5)
        calls = []
        for frame, time_s, index in watch.video_frames(str(video), 5.0):
            size = plan[0][1]
            for at, planned in plan:
                if time_s >= at:
                    size = planned
            if size is not None and size != (frame.shape[1], frame.shape[0]):
                frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
                if blur:
                    frame = cv2.GaussianBlur(frame, (5, 5), 1.5)
            event = watcher.update(frame, time_s, index)
            if event.call is not None:
                calls.append(event.call.to_json())
        score = score_calls(turns, calls)
        print(f"{video.parent.name}/{video.stem} {score.right}/{score.turns} missed {score.missed} invented "
              f"{score.invented} max delay {max(score.delays_s, default=0):.2f}", flush=True)
        if not args.after_turns:
            for wrong in score.wrong:
                called = wrong["call"]
                call = called and (called["seat"], called["added"], called["removed"])
                print("  ", wrong["time_s"], wrong["truth"] and wrong["truth"]["seat"], call)


if __name__ == "__main__":
    main()
