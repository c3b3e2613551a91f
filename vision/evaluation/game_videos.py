"""The referee on rendered game videos: turns judged right, missed and invented, time to verdict, speed.

`python -m vision.evaluation.game_videos DIR [--settle S]` reads every `game-*.mp4` in DIR beside its
truth (`game-*.json`, from `python -m datasets.game_video`) and prints the figures; `--json` one object.

A turn is fully right when the call that matches it in time has its seat, action, legality, and the tiles
added and removed. A call matches a true turn when it comes within `tolerance_s` of the moment the turn
should be judged (the table still for the settle time); calls left over are invented turns, true turns
left over are missed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.referee import Referee
from assistant.rules import STANDARD, Rules, find_preset
from vision.evaluation.reading import Counts
from vision.watch import WATCH_FPS, GameWatcher, video_frames

COMPARED = ("seat", "action", "legal", "added", "removed")


@dataclass
class GameScore(Counts):
    """One or more games' figures (`add` counts another's in)."""

    turns: int = 0
    right: int = 0
    missed: int = 0
    invented: int = 0
    wrong: list[dict[str, Any]] = field(default_factory=list)
    delays_s: list[float] = field(default_factory=list)
    verdict_ms: list[float] = field(default_factory=list)
    frames: int = 0
    video_s: float = 0.0
    wall_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "right": self.right,
            "right_share": self.right / self.turns if self.turns else None,
            "missed": self.missed,
            "invented": self.invented,
            "max_delay_s": max(self.delays_s, default=None),
            "max_verdict_ms": max(self.verdict_ms, default=None),
            "frames_per_s": self.frames / self.wall_s if self.wall_s else None,
            "video_s_per_wall_s": self.video_s / self.wall_s if self.wall_s else None,
            "wrong": self.wrong,
        }


def _normal(turn: dict[str, Any]) -> dict[str, Any]:
    return {key: sorted(turn[key]) if key in ("added", "removed") else turn[key] for key in COMPARED}


def score_calls(
    truth: list[dict[str, Any]], calls: list[dict[str, Any]], tolerance_s: float = 1.0
) -> GameScore:
    """Match calls to true turns in time order and count the right, missed and invented ones."""
    score = GameScore(turns=len(truth))
    used: set[int] = set()
    for turn in truth:
        match = None
        for index, call in enumerate(calls):
            if index in used:
                continue
            if abs(call["time_s"] - turn["time_s"]) <= tolerance_s:
                match = index
                break
        if match is None:
            score.missed += 1
            score.wrong.append({"truth": _normal(turn), "call": None, "time_s": turn["time_s"]})
            continue
        used.add(match)
        call = calls[match]
        score.delays_s.append(call["time_s"] - turn["time_s"])
        if _normal(call) == _normal(turn):
            score.right += 1
        else:
            score.wrong.append({"truth": _normal(turn), "call": _normal(call), "time_s": turn["time_s"],
                                "reasons": call.get("reasons", []), "kind": turn.get("kind")})
    for index, call in enumerate(calls):
        if index not in used:
            score.invented += 1
            score.wrong.append({"truth": None, "call": _normal(call), "time_s": call["time_s"]})
    return score


def watch_game(
    video: Path, reader: Any, players: int, first: int, settle_s: float = 1.5, rules: Rules = STANDARD,
    sample_fps: float = WATCH_FPS,
) -> tuple[list[dict[str, Any]], GameScore]:
    """The calls on one video, and its timing (frames looked at, video and wall seconds, each verdict's
    milliseconds) as a `GameScore` with no turns."""
    watcher = GameWatcher(reader, Referee(rules, players=players, first_seat=first), settle_s=settle_s)
    score = GameScore()
    calls: list[dict[str, Any]] = []
    started = time.perf_counter()
    last_time = 0.0
    for frame, time_s, index in video_frames(str(video), sample_fps):
        before = time.perf_counter()
        event = watcher.update(frame, time_s, index)
        score.frames += 1
        last_time = time_s
        if event.call is not None:
            score.verdict_ms.append((time.perf_counter() - before) * 1000)
            calls.append(event.call.to_json())
    score.wall_s = time.perf_counter() - started
    score.video_s = last_time
    return calls, score


def evaluate(folder: Path, reader: Any, settle_s: float = 1.5, rules: Rules = STANDARD,
             sample_fps: float = WATCH_FPS) -> GameScore:
    """Every game of `folder` (each `game-*.json` beside its video), scored and timed together."""
    total = GameScore()
    for truth_path in sorted(folder.glob("game-*.json")):  # the truth is written once the video is
        video = truth_path.with_suffix(".mp4")
        truth = json.loads(truth_path.read_text())
        calls, timing = watch_game(video, reader, int(truth["players"]), int(truth.get("first_seat", 1)),
                                   settle_s, rules, sample_fps)
        score = score_calls(truth["turns"], calls)
        for wrong in score.wrong:
            wrong["video"] = video.name
        total.add(score)
        total.add(timing)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--settle", type=float, default=1.5)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--detector", type=Path, help="another detector (.onnx) with the shipped classifiers")
    args = parser.parse_args(argv)
    from vision.reader import TileReader, load_classifier, load_reader

    if args.detector is not None:
        from vision.detector import TileDetector

        reader = TileReader(detector=TileDetector(args.detector), classifier=load_classifier())
    else:
        reader = load_reader()
    score = evaluate(args.folder, reader, args.settle, find_preset(args.rules))
    figures = score.to_json()
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"turns {score.turns}: fully right {score.right} ({100 * (figures['right_share'] or 0):.1f} %), "
          f"missed {score.missed}, invented {score.invented}")
    print(f"verdict: at most {figures['max_delay_s']} s after the settle time (video), computed in at most "
          f"{figures['max_verdict_ms']} ms")
    print(f"speed: {figures['frames_per_s']:.1f} frames a second looked at, "
          f"{figures['video_s_per_wall_s']:.2f} s of video a second")
    for wrong in score.wrong:
        print("  wrong:", json.dumps(wrong), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
