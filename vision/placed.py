"""What the layout is made of: tiles placed on the table or a rack, suggestions, the layout itself.

Shared along the run-time path (layout, racks, correction, annotate, read, app) without an import circle:
this module imports nothing of `vision` but `vision.detections`' conventions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from assistant.documents import set_to_json
from assistant.tiles import Tile

DEFAULT_ASPECT = 0.75
"""Tile width over height (about 3:4) when the boxes do not tell."""


@dataclass(frozen=True)
class PlacedTile:
    """One detection placed in the layout.

    Attributes:
        index: position in the `Detections` it came from.
        tile: best reading, None where the face was not read.
        box: axis-aligned `x1, y1, x2, y2` in pixels.
        center: `x, y` in pixels.
        angle: the tile's "up" in degrees counter-clockwise (0 upright), as given or estimated.
        size: the tile's own `width, height` in pixels (along its right and up directions).
        confidence: score of the reading (or of the detection when not read).
        doubtful: the reading is not trusted (low score, or correction found a better one).
        suggestion: a runner-up reading proposed by correction; the raw reading stays in `tile`.
        note: why the tile is doubtful, for a person.
    """

    index: int
    tile: Tile | None
    box: tuple[float, float, float, float]
    center: tuple[float, float]
    angle: float
    size: tuple[float, float]
    confidence: float = 1.0
    doubtful: bool = False
    suggestion: Tile | None = None
    note: str | None = None

    @property
    def token(self) -> str:
        """The contract's token of the raw reading, `?` where the face was not read."""
        return "?" if self.tile is None else str(self.tile)

    @property
    def corrected(self) -> Tile | None:
        """The reading to judge with: the suggestion where there is one, else the raw reading."""
        return self.suggestion if self.suggestion is not None else self.tile

    def corners(self) -> np.ndarray:
        """(4, 2) corners of the tile's own rectangle: top-left, top-right, bottom-right, bottom-left."""
        right, up = direction_vectors(self.angle)
        half_w, half_h = self.size[0] / 2, self.size[1] / 2
        c = np.asarray(self.center)
        return np.array([
            c - right * half_w + up * half_h,
            c + right * half_w + up * half_h,
            c + right * half_w - up * half_h,
            c - right * half_w - up * half_h,
        ])


@dataclass(frozen=True)
class Suggestion:
    """A proposed reading: detection `index`, read as `raw`, is more likely `proposed` (see `reason`)."""

    index: int
    raw: Tile | None
    proposed: Tile
    where: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "raw": None if self.raw is None else str(self.raw),
            "proposed": str(self.proposed),
            "where": self.where,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Layout:
    """Tiles grouped as players see them.

    Attributes:
        table: sets on the table, each in reading order; a loose tile is a set of one.
        racks: tiles standing on racks, each rack in reading order (upper tier first).
        set_axes: per table set, "row" (side by side) or "column" (stacked top to bottom).
        tile_height: median tile height in pixels (the scale of the scene).
        verdicts: per table set, the rules' verdict (filled by `rebuild` when the rules engine is there).
        suggestions: corrections proposed for doubtful tiles (the raw reading is kept in the tiles).
        problems: table-wide problems (e.g. more copies of a tile than the edition has).
        orientation_known: tiles' up directions came from the classifier; without them a set's reading
            direction is only known up to a half turn (see `vision.correction`).
    """

    table: tuple[tuple[PlacedTile, ...], ...] = ()
    racks: tuple[tuple[PlacedTile, ...], ...] = ()
    set_axes: tuple[str, ...] = ()
    tile_height: float = 0.0
    verdicts: tuple[Any, ...] = ()
    suggestions: tuple[Suggestion, ...] = ()
    problems: tuple[str, ...] = ()
    orientation_known: bool = True

    @property
    def loose(self) -> tuple[PlacedTile, ...]:
        """Tiles lying alone on the table (sets of one: always invalid, so they are flagged)."""
        return tuple(s[0] for s in self.table if len(s) == 1)

    def table_tiles(self) -> list[list[Tile | None]]:
        """Raw readings of the table's sets, in reading order."""
        return [[t.tile for t in s] for s in self.table]

    def corrected_table(self) -> list[list[Tile | None]]:
        """Readings with every suggestion applied."""
        return [[t.corrected for t in s] for s in self.table]

    def rack_tiles(self) -> list[list[Tile | None]]:
        return [[t.tile for t in r] for r in self.racks]

    def all_tiles(self) -> list[PlacedTile]:
        return [t for s in self.table for t in s] + [t for r in self.racks for t in r]

    def to_json(self) -> dict[str, Any]:
        """`table` in the contract's `rummi table` set shape (plus suggestions), `racks` as token lists."""
        table = []
        for set_index, tiles in enumerate(self.table):
            verdict = self.verdicts[set_index] if set_index < len(self.verdicts) else None
            entry = _verdict_json(tiles, verdict)
            entry["suggestions"] = [
                s.to_json() for s in self.suggestions if s.index in {t.index for t in tiles}
            ]
            table.append(entry)
        return {
            "table": table,
            "racks": [[t.token for t in rack] for rack in self.racks],
            "problems": list(self.problems),
        }


def _verdict_json(tiles: tuple[PlacedTile, ...], verdict: Any) -> dict[str, Any]:
    """The set in the shape `rummi table --json` gives (`assistant.cli.set_to_json`), raw tokens kept."""
    tokens = [t.token for t in tiles]
    if verdict is None:
        reason = "not judged" if all(t.tile for t in tiles) else "a tile was not read"
        return {"tiles": tokens, "valid": False, "kind": None, "value": None, "jokers": [], "reason": reason}
    entry = set_to_json(verdict)
    entry["tiles"] = tokens
    return entry


def reason_text(reasons: Any) -> str | None:
    """The first reason of a verdict as a sentence (reasons are `Reason(code, text)` or strings)."""
    for reason in reasons or ():
        return str(getattr(reason, "text", reason))
    return None


def direction_vectors(angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """Unit `right` and `up` vectors of a tile in image pixels (y grows downwards), angle CCW from upright."""
    theta = math.radians(angle_deg)
    up = np.array([-math.sin(theta), -math.cos(theta)])
    right = np.array([math.cos(theta), -math.sin(theta)])
    return right, up
