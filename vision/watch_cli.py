"""`rummi watch VIDEO`: follow a game on video (or a camera) and judge every turn as the table settles."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from assistant.arguments import help_text_for
from assistant.errors import shorten_long_runs
from assistant.game_record import RecordError
from assistant.referee import Referee, RefereeError
from vision.detector import ModelLoadError
from vision.motion import SIDES
from vision.profile import ProfileError
from vision.read import reader_with_profile
from vision.reader import TileReader
from vision.watch import GameWatcher, VideoError, video_frames
from vision.watch_record import WatchRecorder, add_record_option

EXIT_OK = 0
EXIT_UNREADABLE = 2


WATCH_HELP = help_text_for(
    {"--json": "print one JSON object per line, one for each turn judged, as it is judged"}
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = WATCH_HELP
    parser.add_argument(
        "video", metavar="VIDEO", help="a video file, or a camera's number (0 the first camera)"
    )
    parser.add_argument("--players", type=int, default=2, metavar="N", help="seats at the table (default 2)")
    parser.add_argument(
        "--first", type=int, default=1, metavar="SEAT", help="the seat that plays first (default 1)"
    )
    parser.add_argument(
        "--settle", type=float, default=1.5, metavar="SECONDS",
        help="how long the table must stay still to end a turn (default 1.5)",
    )
    parser.add_argument(
        "--profile", metavar="PROFILE", help="read with what `rummi calibrate` learned of the table and tiles"
    )
    parser.add_argument(
        "--sides", metavar="SIDES",
        help="each seat's side of the picture, seat 1 first, comma-separated (bottom, left, top, right; e.g. "
             "bottom,top): a turn goes to the seat whose hand made it; without it the sides are learned in "
             "the first round",
    )
    add_record_option(parser)


def _error(message: object) -> None:
    print(f"rummi watch: error: {shorten_long_runs(str(message))}", file=sys.stderr)


def seat_sides(text: str | None, players: int) -> dict[int, str] | None:
    """`--sides bottom,top` as {1: "bottom", 2: "top"}; None when not given.

    Raises:
        ValueError: not one known side for each seat, or a side named twice.
    """
    if text is None:
        return None
    sides = [side.strip().lower() for side in text.split(",")]
    unknown = [side for side in sides if side not in SIDES]
    if unknown:
        raise ValueError(f"--sides: {unknown[0]!r} is no side of the picture (bottom, left, top or right)")
    if len(sides) != players:
        raise ValueError(f"--sides names {len(sides)} sides for {players} seats: one a seat, seat 1 first")
    if len(set(sides)) != len(sides):
        raise ValueError("--sides names a side twice: each seat's hand comes in over its own side")
    return {seat: side for seat, side in enumerate(sides, start=1)}


def _source(text: str) -> str | int:
    return int(text) if text.isdigit() else text


def run(args: argparse.Namespace, rules: Any, reader: TileReader | None = None) -> int:
    """Judge every turn of the video; one line (or JSON object) per turn, as it is judged."""
    if not math.isfinite(args.settle) or args.settle <= 0:
        _error(f"--settle must be a number of seconds more than 0, got {args.settle}")
        return EXIT_UNREADABLE
    if not rules.min_players <= args.players <= rules.max_players:
        _error(
            f"--players: the {rules.label} rules are for {rules.min_players} to {rules.max_players} players, "
            f"not {args.players}"
        )
        return EXIT_UNREADABLE
    try:
        referee = Referee(rules, players=args.players, first_seat=args.first)
    except RefereeError as error:
        _error(error)
        return EXIT_UNREADABLE
    try:
        sides = seat_sides(getattr(args, "sides", None), args.players)
    except ValueError as error:
        _error(error)
        return EXIT_UNREADABLE
    try:
        reader = reader_with_profile(reader, args.profile)
    except (ModelLoadError, ProfileError) as error:
        _error(error)
        return EXIT_UNREADABLE
    watcher = GameWatcher(reader, referee, settle_s=args.settle, seat_sides=sides)
    recorder = WatchRecorder.for_args(args, rules, referee)
    try:
        for frame, time_s, index in video_frames(_source(args.video)):
            event = watcher.update(frame, time_s, index)
            recorder.after(event)
            if event.call is None:
                continue
            if args.json:
                print(json.dumps(event.call.to_json()), flush=True)
            else:
                print(f"{event.call.time_s:7.1f} s  {event.call.describe(rules)}", flush=True)
    except (VideoError, RecordError) as error:
        _error(error)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:  # a camera is watched until stopped
        pass
    finally:
        recorder.close()
    return EXIT_OK
