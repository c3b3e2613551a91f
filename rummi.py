"""`rummi`, the command a player runs: the domain's commands and the reader's, composed here.

`assistant.cli` holds the domain's commands (table, meld, turn, score, solve, tournament, replay) and knows
nothing of pixels; this module adds the reader's (`read`, `calibrate`, `watch`, from `vision`). Each plug-in
is imported only when its command is named, so `rummi table` loads no OpenCV, numpy or ONNX Runtime. The
console script `rummi` and `python -m rummi` both run `main`. It sits outside both packages because it is the
one place that knows both: the domain stays free of `vision`, and `vision` stays a library.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import ModuleType

from assistant import cli
from assistant.cli import Plugin


def _read_plugin() -> ModuleType:
    from vision import read

    return read


def _calibrate_plugin() -> ModuleType:
    from vision import calibrate_cli

    return calibrate_cli


def _watch_plugin() -> ModuleType:
    from vision import watch_cli

    return watch_cli


PLUGINS: dict[str, Plugin] = {
    **cli.PLUGINS,
    "read": Plugin(_read_plugin, "read the tiles in photos of a table"),
    "calibrate": Plugin(
        _calibrate_plugin, "learn your table and your tiles from photos (a profile for read)"
    ),
    "watch": Plugin(_watch_plugin, "follow a game on video and judge every turn as the table settles"),
}
"""Every sub-command beyond table, meld, turn and score: the domain's plug-ins, then the reader's."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run `rummi`: `assistant.cli.main` with every plug-in; the exit code (0 ok, 1 breach, 2 unreadable)."""
    return cli.main(argv, PLUGINS)


if __name__ == "__main__":
    sys.exit(main())
