"""The frames the live Referee screen's watcher looked at (`bench_referee_live.py --record FRAMES`), given
again to a fresh `GameWatcher` at the times they had live: do the calls come out as live, or as
`rummi watch` on the file? Tells a difference in the frames themselves (size, sharpness, colour) from one in
the live path (threads, skipped frames, timing).

    python benchmarks/replay_live.py FRAMES GAME.json [--settle S] [--sizes] [--at T ...]

GAME.json: the game's truth (players, first seat, turns); the calls are scored as
`vision.evaluation.game_videos` scores them, 2 s either side, on the live clock: the first recorded frame
is taken as the camera's start, the game `--lead` seconds (the bench's, 5) after it. `--sizes`: print each
picture size change; `--at T`: save the frame nearest T seconds after the first as PNG beside FRAMES.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.referee import Referee  # noqa: E402
from assistant.rules import STANDARD  # noqa: E402
from vision.evaluation.game_videos import score_calls  # noqa: E402
from vision.reader import load_reader  # noqa: E402
from vision.watch import GameWatcher  # noqa: E402

DEFAULT_SETTLE_S = 1.5
"""The Referee screen's settle time (`ui.referee.DEFAULT_SETTLE_S`)."""

HEADER = struct.Struct("<dqii")


def recorded_frames(path: Path) -> Iterator[tuple[np.ndarray, float, int]]:
    """(frame BGR, live time s, index) for each recorded frame, in order."""
    with path.open("rb") as stream:
        while head := stream.read(HEADER.size):
            if len(head) < HEADER.size:
                return
            time_s, index, height, width = HEADER.unpack(head)
            data = stream.read(height * width * 3)
            if len(data) < height * width * 3:
                return
            yield np.frombuffer(data, np.uint8).reshape(height, width, 3), time_s, index


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("frames", type=Path)
    parser.add_argument("truth", type=Path)
    parser.add_argument("--settle", type=float, default=DEFAULT_SETTLE_S)
    parser.add_argument("--lead", type=float, default=5.0)
    parser.add_argument("--sizes", action="store_true")
    parser.add_argument("--at", type=float, nargs="*", default=[])
    args = parser.parse_args(argv)
    truth = json.loads(args.truth.read_text())
    referee = Referee(STANDARD, players=int(truth["players"]), first_seat=int(truth.get("first_seat", 1)))
    watcher = GameWatcher(load_reader(), referee, settle_s=args.settle)
    calls, first, size, count = [], None, None, 0
    wanted = sorted(args.at)
    for frame, time_s, index in recorded_frames(args.frames):
        count += 1
        first = time_s if first is None else first
        if args.sizes and frame.shape[:2] != size:
            print(f"{time_s - first:7.2f} s: {frame.shape[1]}x{frame.shape[0]}")
            size = frame.shape[:2]
        while wanted and time_s - first >= wanted[0]:
            out = args.frames.with_name(f"{args.frames.stem}-{wanted.pop(0):.2f}.png")
            cv2.imwrite(str(out), frame)
        event = watcher.update(frame, time_s, index)
        if event.call is not None:
            calls.append(event.call.to_json())
    start = (first or 0.0) + args.lead
    calls = [{**call, "time_s": call["time_s"] - start} for call in calls]
    print(f"{count} frames, {len(calls)} calls at {[round(c['time_s'], 1) for c in calls]} s of the game")
    print("settled at", [round(t["time_s"], 1) for t in truth["turns"]])
    score = score_calls(truth["turns"], calls, tolerance_s=2.0)
    print(f"{score.right}/{score.turns} right, missed {score.missed}, invented {score.invented}")
    for wrong in score.wrong:
        print("  wrong:", json.dumps(wrong)[:400])
    return 0


if __name__ == "__main__":
    sys.exit(main())
