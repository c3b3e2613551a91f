"""`rummi watch VIDEO --record FILE`: the game record (assistant.game_record) written as the video is watched.

A hook of `vision.watch_cli`: `add_record_option` adds the option, `WatchRecorder.after` is handed each
`WatchEvent` and writes each call as a line (with the table before it) the moment it is judged, so a watch
stopped with Ctrl-C leaves a record readable up to its last call. The file is made when the first frame is
read (a video that cannot be opened leaves no file); each call's snapshot reference is `VIDEO#frame=N`, the
frame the turn was judged on (none for a camera).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.game_record import RecordHeader, RecordWriter, default_seats, iso_time
from assistant.referee import Referee, Table
from vision.watch import WatchEvent


def add_record_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--record", metavar="FILE",
        help="also write the game record (JSON lines: a header, then each call with the table before it) to "
        "FILE, replaced if it exists; `rummi replay FILE` prints it",
    )  # fmt: skip


class WatchRecorder:
    """Writes the calls of one watched video to a game record; with no file, does nothing.

    Args:
        path: the record's file; None records nothing.
        header: the record's header.
        referee: the watcher's referee (the table before each call is the one it last reported).
        snapshot: the snapshot reference of a call's frame index; None for none.
        clock: wall-clock seconds, for each call's `recorded_at`.
    """

    def __init__(
        self, path: str | None, header: RecordHeader, referee: Referee,
        snapshot: Callable[[int], str | None] = lambda frame: None, clock: Callable[[], float] = time.time,
    ) -> None:  # fmt: skip
        self.path = path
        self.header = header
        self.referee = referee
        self.snapshot = snapshot
        self.clock = clock
        self.writer: RecordWriter | None = None
        self._before: Table = referee.reported_table

    @classmethod
    def for_args(cls, args: argparse.Namespace, rules: Any, referee: Referee) -> WatchRecorder:
        """The recorder `rummi watch`'s options ask for (`--record`, the video, the seats)."""
        video = str(args.video)
        camera = video.isdigit()
        header = RecordHeader(
            game=f"camera {video}" if camera else Path(video).name,
            rules=rules.label,
            players=referee.players,
            first_seat=referee.first_seat,
            seats=default_seats(referee.players),
            created=iso_time(time.time()),
            source=f"rummi watch {video}",
        )
        snapshot: Callable[[int], str | None] = (
            (lambda frame: None) if camera else (lambda frame: f"{video}#frame={frame}")
        )
        return cls(getattr(args, "record", None), header, referee, snapshot)

    def after(self, event: WatchEvent) -> None:
        """One frame was watched: its call, if any, is written with the table before it.

        Raises:
            RecordError: the record cannot be written.
        """
        if self.path is None:
            return
        if self.writer is None:
            self.writer = RecordWriter.create(self.path, self.header)
        if event.call is not None:
            self.writer.add(event.call, self._before, self.clock(), self.snapshot(event.call.frame))
        # After every call the referee's reported table is that call's table; before the first, the start.
        self._before = self.referee.reported_table

    def close(self) -> None:
        """Close the file (every line is already written)."""
        if self.writer is not None:
            try:
                self.writer.close()
            except OSError:  # every line was flushed as it was written
                pass
