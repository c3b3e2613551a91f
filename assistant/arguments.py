"""Numbers and seeds as the command line takes them: ASCII digits 0-9 only, nothing guessed.

`int()` and `str.isdigit()` also read full-width (`５`) and Arabic-Indic (`٥`) digits; these do not.
The `*_argument` functions are argparse `type=` callables: a bad value is a usage error (exit 2).
"""

from __future__ import annotations

import argparse
import re

from assistant.errors import quote

_WHOLE = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def whole_number(text: str) -> int | None:
    """The whole number `text` spells in ASCII digits (a leading '-' allowed, spaces around), else None.

    >>> whole_number(" 12 "), whole_number("-5"), whole_number("５"), whole_number("1.5")
    (12, -5, None, None)
    """
    stripped = text.strip()
    return int(stripped) if _WHOLE.fullmatch(stripped) else None


def threshold_argument(text: str) -> int:
    """`--threshold N`: opening points, 0 or more."""
    number = whole_number(text)
    if number is None:
        raise argparse.ArgumentTypeError(
            f"the opening threshold is a whole number of points (digits 0-9), got {quote(text)}"
        )
    if number < 0:
        raise argparse.ArgumentTypeError(f"the opening threshold cannot be negative, got {quote(text)}")
    return number


def positive_argument(text: str) -> int:
    """A count or number that starts at 1 (`--table N`, `--table-size N`, `--round N`)."""
    number = whole_number(text)
    if number is None:
        raise argparse.ArgumentTypeError(f"a whole number from 1 (digits 0-9), got {quote(text)}")
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {quote(text)}")
    return number


def seconds_argument(text: str) -> float:
    """`--time-limit S`: seconds, more than 0 (`10`, `0.5`)."""
    stripped = text.strip()
    if not _DECIMAL.fullmatch(stripped):
        raise argparse.ArgumentTypeError(f"not a number of seconds (digits 0-9, e.g. 2.5): {quote(text)}")
    seconds = float(stripped)
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"the time limit must be more than 0 seconds, got {quote(text)}")
    return seconds


def seed_argument(text: str) -> str:
    """`--seed S`: printable ASCII text (`7`, `club 2024`, `1f3ebab0`); a seed `７` would silently draw
    other tables than `7`."""
    if not text.strip() or not text.isascii() or not text.isprintable():
        raise argparse.ArgumentTypeError(
            f"a seed is written with ASCII characters (digits 0-9, letters, signs), got {quote(text)}"
        )
    return text


def help_text_for(overrides: dict[str, str]) -> type[argparse.HelpFormatter]:
    """A help formatter that says `overrides[option]` for the options every command gets from
    `assistant.cli` (`--json`, `--rules`) where a command prints or reads them its own way."""

    class OwnHelp(argparse.HelpFormatter):
        def _expand_help(self, action: argparse.Action) -> str:
            for option in action.option_strings:
                if option in overrides:
                    return overrides[option]
            return super()._expand_help(action)

    return OwnHelp
