"""Names as people type them (players, games, tournaments), made safe to store and to print.

A name goes into the database and back out on terminals (`rummi tournament standings`), in messages and on
the app's pages. Control characters would travel with it: an ESC sequence recolours or clears the
director's terminal, a bidi override (U+202E) shows `Ann` where the stored name reads otherwise. So every
name is cleaned on the way in: terminal escape sequences and the other C0/C1 control characters removed
(a tab or line break becomes a space), the bidi embeddings, overrides, isolates and marks removed, the
ends trimmed. A name with nothing left is refused.
"""

from __future__ import annotations

import re
import unicodedata

from assistant.errors import InputError

# ESC [ ... final (CSI, colours and cursor moves); ESC ] ... BEL or ESC \ (OSC, e.g. a window title);
# ESC and one more character (the short escapes); the 8-bit CSI (U+009B).
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[ -~]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
)
_BIDI_CONTROLS = frozenset(
    "\u061c"  # arabic letter mark
    "\u200e\u200f"  # left-to-right, right-to-left mark
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings, pop, overrides
    "\u2066\u2067\u2068\u2069"  # isolates
)
_AS_SPACE = frozenset("\t\n\v\f\r\x85\u2028\u2029")  # tabs and line breaks


class BadName(InputError):
    """A name with nothing left once its control characters are removed."""


def strip_controls(text: str) -> str:
    """`text` without terminal escape sequences, C0/C1 control characters or bidi controls (line breaks
    and tabs become spaces), its ends trimmed.

    >>> strip_controls("\\x1b[31mAnn\\x1b[0m")
    'Ann'
    >>> strip_controls("Ann\\u202e  Lee\\n")
    'Ann  Lee'
    """
    text = _ESCAPE_SEQUENCE.sub("", text)
    kept = []
    for char in text:
        if char in _AS_SPACE:
            kept.append(" ")
        elif char in _BIDI_CONTROLS or unicodedata.category(char) == "Cc":
            continue
        else:
            kept.append(char)
    return "".join(kept).strip()


def clean_name(name: str, who: str = "it") -> str:
    """`name` as stored: `strip_controls(name)`.

    Raises:
        BadName: nothing is left (a blank name, or one made only of control characters); the message
            says `who` needs a name ("every player", "the tournament").
    """
    cleaned = strip_controls(name)
    if not cleaned:
        if name.strip():
            raise BadName(
                f"the name {name!r} is empty once its control characters (terminal escapes, bidi controls) "
                f"are removed: {who} needs a name with letters or digits"
            )
        raise BadName(f"{who} needs a name")
    return cleaned
