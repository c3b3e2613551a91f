"""Errors for input a person can fix. The CLI maps every `InputError` to exit code 2 with its message."""

from __future__ import annotations

import re

# A token longer than this is shown as its first `_SHOWN` characters and an ellipsis in messages.
_LONGEST_SHOWN = 40
_SHOWN = 20
_LONG_RUN = re.compile(rf"\S{{{2 * _LONGEST_SHOWN + 1},}}")


class InputError(ValueError):
    """Input that cannot be used as given: the message names what is wrong."""


def shorten(token: str, limit: int = _LONGEST_SHOWN) -> str:
    """`token` as a message shows it: whole up to `limit` characters, else its start and '…'.

    >>> shorten("r14")
    'r14'
    >>> shorten("x" * 100_000)
    'xxxxxxxxxxxxxxxxxxxx…'
    """
    return token if len(token) <= limit else token[:_SHOWN] + "…"


def quote(token: str) -> str:
    """The token quoted for a message (`'r14'`), shortened when long."""
    return repr(shorten(token))


def shorten_long_runs(message: str) -> str:
    """A message with every run of more than 80 non-space characters cut to its start and '…'
    (a last guard, so no error ever echoes a huge argument back whole)."""
    return _LONG_RUN.sub(lambda match: shorten(match.group()), message)
