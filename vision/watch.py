"""Following a game on video: when the hands have left and the table is still, read it and let the
referee judge the turn (`assistant.referee`).

The path a frame takes:
1. `MotionWatch` compares each frame with the one before, as a small grey picture with its brightness
   levelled (a lamp turned up is no motion) and its shift undone (a camera that shakes a pixel is no
   motion), cell by cell: a hand anywhere over the table moves some cell.
2. While the picture is still, a few frames are read in full (`vision.reader`) and their tiles voted on
   (`vision.tracking.TileVote`); no frame with a hand in it is ever read, so arms and sleeves are never
   tiles.
3. Still for `settle_s` seconds: the voted tiles become a layout (`vision.layout.rebuild`); a tile that lay
   in the same place with the same look at the last settled table keeps that identity, its readings
   added up over every settled table it lay in (`TileMemory`); where they now make it another tile (by a
   clear margin, with the same ink), the referee is told it was read again, not taken and another laid.
4. The table's sets, each tile with its runner-up readings, go to the referee.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from assistant.referee import Call, Referee, SeenTile
from assistant.tiles import Tile, class_id, tile_from_class_id
from vision.detections import UNKNOWN_CLASS, Detections, box_iou, share_inside
from vision.layout import rebuild
from vision.motion import SIDES, Look, MotionWatch
from vision.placed import Layout, direction_vectors
from vision.reader import video_reader
from vision.tracking import TileVote

DOUBLE_BOX_OVERLAP = 0.5
"""A box sharing more than this of the smaller box's area with a better-scored box is a second box of the
same tile (the detector boxed a tile's lower half again: rendered game seed 502 game 2, a loose b9 made
three turns wrong)."""

MISSED_IOU_BELOW = 0.3
"""A remembered tile is missed when no box of the frame overlaps its place this much."""

SLIDE_REACH_TILES = 2.5
"""A tile slid along its set comes from at most this many tile lengths away (`TileMemory._match`)."""

MISSED_CONFIDENCE = 0.5
"""The detector score given to a tile added back from memory (it was not detected this time)."""

SIGNATURE_SIZE = 24


def tile_signatures(frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """(n, 24*24) grey looks of the boxes, each levelled to mean 0 and unit length: compared by dot product,
    1 the same look, independent of the light."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    looks = np.zeros((len(xyxy), SIGNATURE_SIZE * SIGNATURE_SIZE), np.float32)
    for row, (x1, y1, x2, y2) in enumerate(np.asarray(xyxy, dtype=np.float64)):
        x1, y1 = max(0, int(x1)), max(0, int(y1))
        x2, y2 = min(w, int(math.ceil(x2))), min(h, int(math.ceil(y2)))
        if x2 - x1 < 2 or y2 - y1 < 2:
            continue
        crop = cv2.resize(grey[y1:y2, x1:x2], (SIGNATURE_SIZE, SIGNATURE_SIZE), interpolation=cv2.INTER_AREA)
        vector = crop.astype(np.float32).ravel()
        vector -= vector.mean()
        looks[row] = vector / max(float(np.linalg.norm(vector)), 1e-6)
    return looks


INK_SIZE = 16


def ink_colours(frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """(n, 2) the mean CIE a*b* of each box's ink (the pixels of its middle clearly darker than the tile's
    face); NaN where no ink shows. A blue 8 and a red 8 look alike in grey (`tile_signatures`), not here."""
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
    h, w = lab.shape[:2]
    inks = np.full((len(xyxy), 2), np.nan, np.float32)
    for row, (x1, y1, x2, y2) in enumerate(np.asarray(xyxy, dtype=np.float64)):
        mx, my = 0.2 * (x2 - x1), 0.2 * (y2 - y1)
        x1, y1 = max(0, int(x1 + mx)), max(0, int(y1 + my))
        x2, y2 = min(w, int(math.ceil(x2 - mx))), min(h, int(math.ceil(y2 - my)))
        if x2 - x1 < 2 or y2 - y1 < 2:
            continue
        middle = cv2.resize(lab[y1:y2, x1:x2], (INK_SIZE, INK_SIZE), interpolation=cv2.INTER_AREA)
        light = middle[..., 0].astype(np.float32)
        ink = light < float(np.median(light)) - 20.0
        if ink.sum() >= 3:
            inks[row] = middle[ink][:, 1:].astype(np.float32).mean(axis=0)
    return inks


@dataclass
class _Remembered:
    box: np.ndarray
    look: np.ndarray
    scores: Counter[int]
    angle: float = 0.0
    ink: np.ndarray = field(default_factory=lambda: np.full(2, np.nan, np.float32))

    @property
    def identity(self) -> int | None:
        """The class its readings, added up, give most (None: never read)."""
        return self.scores.most_common(1)[0][0] if self.scores else None


@dataclass
class TileMemory:
    """Tiles of the last settled table: a tile found again in the same place with the same look keeps its
    identity, its readings added up over the settled tables it lay in (a tile read k7 for ten turns does not
    turn r7 on one glance).

    Args:
        same_place_iou: boxes overlapping this much are the same place.
        same_look_above: looks (see `tile_signatures`) this alike are the same tile.
        still_there_above: a remembered tile no box covers is still there when its place looks this much
            as it did.
        same_ink_within: inks (see `ink_colours`) this close in a*b* are one colour: a blue 8 swapped for a
            red 8 in its place is another tile.
    """

    same_place_iou: float = 0.5
    same_look_above: float = 0.8
    still_there_above: float = 0.9
    same_ink_within: float = 12.0
    read_again_margin: float = 2.0
    read_again: dict[int, int] = field(default_factory=dict, repr=False)
    """The tiles of the last `follow` that lay still since the last settled table and now read otherwise,
    their readings added up: row -> the reading they had. Only where the new reading has `read_again_margin`
    times the old one's score (a close call is left to the referee's doubt: tuning game seed 1200 p2 game 0,
    a blue 6 read b6 0.99 / b5 0.92 over two tables and b5 at the third, is a blue 6)."""
    _tiles: list[_Remembered] = field(default_factory=list, repr=False)

    def follow(self, frame: np.ndarray, detections: Detections) -> Detections:
        """The detections with every tile that lay still since the last settled table read as its
        remembered identity, and every remembered tile the detector missed that still lies there with the
        same look added back; remembers these tiles for the next settled table."""
        previous = self._tiles
        detections = self._with_missed(frame, detections, previous)
        self.read_again = {}
        if not len(detections):
            self._tiles = []
            return detections
        looks = tile_signatures(frame, detections.xyxy)
        inks = ink_colours(frame, detections.xyxy)
        ids = np.asarray(detections.topk_class_ids).copy()
        scores = np.asarray(detections.topk_scores, dtype=np.float32).copy()
        remembered: list[_Remembered] = []
        overlap = (box_iou(detections.xyxy, np.array([t.box for t in previous]))
                   if previous else np.zeros((len(detections), 0)))
        readings = [Counter({int(c): float(s) for c, s in zip(ids[row], scores[row], strict=True)
                             if c != UNKNOWN_CLASS}) for row in range(len(detections))]
        matched = self._match(detections.xyxy, looks, inks, readings, previous, overlap)
        for row in range(len(detections)):
            now = readings[row]
            if row in matched:
                place = previous[matched[row]]
                was = place.identity
                now = place.scores + now
                winner, score = now.most_common(1)[0] if now else (None, 0.0)
                if was is not None and winner != was and score >= self.read_again_margin * now[was]:
                    self.read_again[row] = was
            angle = float(detections.angle[row])
            remembered.append(_Remembered(detections.xyxy[row], looks[row], now, angle, inks[row]))
            total = sum(now.values())
            if total > 0:
                # The readings summed over the settled tables, as shares: the best first.
                ranked = now.most_common(ids.shape[1])
                ids[row] = UNKNOWN_CLASS
                scores[row] = 0.0
                for col, (cid, score) in enumerate(ranked):
                    ids[row, col], scores[row, col] = cid, score / total
        self._tiles = remembered
        return detections.with_readings(ids, scores, np.asarray(detections.angle))

    def _match(self, xyxy: np.ndarray, looks: np.ndarray, inks: np.ndarray, readings: list[Counter[int]],
               previous: list[_Remembered], overlap: np.ndarray) -> dict[int, int]:
        """Box row -> the remembered tile it is. A box is the tile that lay in its place (overlapping it
        `same_place_iou`, a like look, the same ink), or a tile of its ink close by whose identity it reads
        best of all: a tile slid along its set (its look is not asked: a tile slid one place on under a
        changed light looked 0.68-0.76 like itself, and o4 laid where o5 lay 0.91 like o5). Where boxes
        claim one tile, the pairs whose readings agree most with the remembered identity are taken first,
        a place overlapped counting a little.

        Rendered tuning game seed 1206 game 2: r4 taken from a set's middle and r5 slid into its place kept
        r4's identity ("r5 taken"). Lights game seed 1971 p3 game 1: o4 laid at the front of o5 o6 o7, the
        three slid one place on; each box kept its place's identity, o5 o5 o6 o7 was called."""
        if not previous:
            return {}
        places = np.array([t.box for t in previous], np.float64)
        centres = (places[:, :2] + places[:, 2:]) / 2
        alike = looks @ np.array([t.look for t in previous]).T >= self.same_look_above
        identities = np.array([UNKNOWN_CLASS if t.identity is None else t.identity for t in previous])
        pairs: list[tuple[float, int, int]] = []
        for row in range(len(xyxy)):
            box = np.asarray(xyxy[row], np.float64)
            reach = SLIDE_REACH_TILES * max(box[2] - box[0], box[3] - box[1])
            near = np.linalg.norm(centres - (box[:2] + box[2:]) / 2, axis=1) <= reach
            best_read = readings[row].most_common(1)[0][0] if readings[row] else UNKNOWN_CLASS
            same_place = alike[row] & (overlap[row] >= self.same_place_iou)
            slid = near & (identities == best_read) & (identities != UNKNOWN_CLASS)
            for place in np.flatnonzero(same_place | slid):
                if not self._same_ink(inks[row], previous[place].ink):
                    continue
                agreement = readings[row][int(identities[place])]  # 0 for a tile never read
                pairs.append((agreement + 0.25 * float(overlap[row, place]), row, int(place)))
        matched: dict[int, int] = {}
        taken: set[int] = set()
        for _, row, place in sorted(pairs, reverse=True):
            if row not in matched and place not in taken:
                matched[row] = place
                taken.add(place)
        return matched

    def _same_ink(self, ink: np.ndarray, other: np.ndarray) -> bool:
        if np.isnan(ink).any() or np.isnan(other).any():
            return True  # no ink to compare: the grey look decides
        return float(np.linalg.norm(ink - other)) <= self.same_ink_within

    def _with_missed(
        self, frame: np.ndarray, detections: Detections, previous: list[_Remembered]
    ) -> Detections:
        """`detections` with the remembered tiles that no box covers now but whose place still looks as
        the tile did (the detector missed a tile that lay still: it has not gone)."""
        if not previous:
            return detections
        boxes = np.array([t.box for t in previous], np.float32)
        covered = (box_iou(boxes, detections.xyxy).max(axis=1) >= MISSED_IOU_BELOW if len(detections)
                   else np.zeros(len(previous), bool))
        looks = tile_signatures(frame, boxes)
        missed = [i for i, tile in enumerate(previous)
                  if not covered[i] and tile.scores and float(looks[i] @ tile.look) >= self.still_there_above]
        if not missed:
            return detections
        k = max(1, np.asarray(detections.topk_class_ids).shape[1] if len(detections) else 3)
        ids = np.full((len(missed), k), UNKNOWN_CLASS, np.int64)
        scores = np.zeros((len(missed), k), np.float32)
        for row, i in enumerate(missed):
            total = sum(previous[i].scores.values())
            for col, (cid, score) in enumerate(previous[i].scores.most_common(k)):
                ids[row, col], scores[row, col] = cid, score / total
        merged = Detections(
            xyxy=np.concatenate([np.asarray(detections.xyxy, np.float32).reshape(-1, 4), boxes[missed]]),
            confidence=np.concatenate([np.asarray(detections.confidence, np.float32),
                                       np.full(len(missed), MISSED_CONFIDENCE, np.float32)]),
            rack_xyxy=detections.rack_xyxy, rack_confidence=detections.rack_confidence,
            rack_quad=detections.rack_quad,
        )
        have_ids = np.asarray(detections.topk_class_ids).reshape(len(detections), -1)
        have_scores = np.asarray(detections.topk_scores, np.float32).reshape(len(detections), -1)
        if have_ids.shape[1] != k:  # readings of another width: the best reading only
            have_ids = np.full((len(detections), k), UNKNOWN_CLASS, np.int64)
            have_scores = np.zeros((len(detections), k), np.float32)
            have_ids[:, 0], have_scores[:, 0] = detections.class_id, detections.class_confidence
        angles = np.array([previous[i].angle for i in missed], np.float32)
        return merged.with_readings(np.concatenate([have_ids, ids]), np.concatenate([have_scores, scores]),
                                    np.concatenate([np.asarray(detections.angle, np.float32), angles]))

    def confirm(self, row: int, tile: Tile) -> None:
        """Tile `row` of the last `follow` is `tile` (the game says so): it leads that tile's readings by
        a settled table's worth of votes, however often it was read otherwise before."""
        if 0 <= row < len(self._tiles):
            scores = self._tiles[row].scores
            scores[class_id(tile)] = max(scores.values(), default=0.0) + 1.0

    def rescale(self, x: float, y: float) -> None:
        """The remembered tiles' boxes for frames `x` times as wide and `y` times as tall (their looks and
        inks do not depend on the size)."""
        factor = np.array([x, y, x, y], np.float32)
        for tile in self._tiles:
            tile.box = np.asarray(tile.box, np.float32) * factor


def table_only(detections: Detections, overlap_above: float = DOUBLE_BOX_OVERLAP) -> Detections:
    """The detections as tiles lying flat on a table: no rack (the referee's camera looks at the table,
    and every tile it sees lies there: tiles laid in a long row were taken for a rack, and their turn
    missed), and no second box over most of a tile (flat tiles do not lie on each other)."""
    detections = dataclasses.replace(
        detections, rack_xyxy=np.zeros((0, 4), np.float32), rack_confidence=np.zeros(0, np.float32),
        rack_quad=None,
    )
    if len(detections) < 2:
        return detections
    inside = share_inside(detections.xyxy, detections.xyxy)
    shared = np.maximum(inside, inside.T)  # of the smaller box's area
    np.fill_diagonal(shared, 0.0)
    keep = np.ones(len(detections), bool)
    for index in np.argsort(-np.asarray(detections.confidence), kind="stable"):
        if keep[index]:
            doubles = (shared[index] > overlap_above) & keep
            doubles[index] = False
            keep &= ~doubles
    return detections[keep] if not keep.all() else detections


def seen_sets(layout: Layout, detections: Detections) -> tuple[list[list[SeenTile]], list[list[int]]]:
    """The layout's table sets as the referee takes them: each tile's reading with its runner-ups, and
    beside them each tile's row in `detections`. Tiles whose face was not read are left out (a face-down
    tile, a tile seen edge-on)."""
    ids = np.asarray(detections.topk_class_ids)
    scores = np.asarray(detections.topk_scores)
    sets: list[list[SeenTile]] = []
    rows: list[list[int]] = []
    for tiles in layout.table:
        seen: list[SeenTile] = []
        where: list[int] = []
        for placed in tiles:
            if placed.tile is None:
                continue
            alternatives: list[tuple[Any, float]] = []
            confidence = float(placed.confidence)
            if ids.ndim == 2 and placed.index < len(ids):
                row_ids, row_scores = ids[placed.index], scores[placed.index]
                for cid, score in zip(row_ids, row_scores, strict=True):
                    if cid == UNKNOWN_CLASS:
                        continue
                    tile = tile_from_class_id(int(cid))
                    if tile == placed.tile:
                        confidence = float(score)
                    elif tile is not None:
                        alternatives.append((tile, float(score)))
            seen.append(SeenTile(placed.tile, confidence, tuple(alternatives)))
            where.append(placed.index)
        if seen:
            sets.append(seen)
            rows.append(where)
    return sets, rows


JOIN_GAP = 2.2
"""Sets lie end to end in one row when the second's first tile is less than this many tile widths along the
row from the first's last (a run laid with a gap; rendered game seed 913 game 1: k3 k4 beside k5 k6 k7)."""
SPLIT_APART = 1.5
"""Two parts lying end to end further apart than this many tile widths, centre to centre (a gap of half a
tile), were moved apart by a hand, not nudged: a nudge moves a tile a few millimetres, and the tiles of one
set lie 0.93-1.13 widths apart (hands hold-out 3, seed 1940-p2 game 0, turn 5: a run split in two lay 1.90
apart; `docs/experiments/scripts-s36/set_gaps.py`). The referee keeps such parts of a set the last table
held whole as two sets (`Referee.observe`'s `apart`)."""


def end_to_end_sets(layout: Layout, rows: list[list[int]]) -> list[tuple[int, int, float]]:
    """Pairs of the referee's sets (index in `seen_sets`) lying end to end in one row, the second after the
    first along the row, with the distance between the first's last tile and the second's first along the
    row, in tile widths."""
    by_index = {p.index: p for tiles in layout.table for p in tiles}
    ends = [(by_index[r[0]], by_index[r[-1]]) for r in rows]
    pairs = []
    for a, (_, last) in enumerate(ends):
        right, up = direction_vectors(last.angle)
        width, height = last.size
        for b, (first, _) in enumerate(ends):
            if a == b:
                continue
            step = np.asarray(first.center) - np.asarray(last.center)
            along, across = float(step @ right), float(step @ up)
            if 0.5 * width < along < JOIN_GAP * width and abs(across) < 0.5 * height:
                pairs.append((a, b, along / width))
    return pairs


def joinable_sets(layout: Layout, rows: list[list[int]]) -> list[tuple[int, int]]:
    """Pairs of the referee's sets (index in `seen_sets`) lying end to end in one row, the second after the
    first along the row."""
    return [(a, b) for a, b, _ in end_to_end_sets(layout, rows)]


@dataclass(frozen=True)
class WatchEvent:
    """What one frame did: `call` is the referee's call when the frame settled a turn."""

    time_s: float
    frame: int
    moving: bool
    settled: bool
    call: Call | None = None
    layout: Layout | None = None


REREAD_S = 4.0
"""A still, judged table is read again this often: a change no motion showed (a hand too like the table, a
tile slid slowly, one tile swapped for a like one) is then seen and judged."""

REREAD_CONFIRM_S = 1.0
"""A re-read that found other tiles is checked again this soon."""

UNSEEN_CHANGE_TILES = 0.5
"""Pixels that differ from the still table, inside the frame, as much as this share of a tile: something
changed though nothing was seen moving; the table is read again."""


class SeatSidesError(ValueError):
    """Sides of the frame that cannot be the seats' (the message names the seat or the side)."""


def given_sides(chosen: Mapping[int, str | None], players: int) -> dict[int, str]:
    """The sides a person chose for the seats, the seats left to learn (None) left out.

    Raises:
        SeatSidesError: no such seat, no such side, or a side chosen for two seats.
    """
    sides: dict[int, str] = {}
    for seat, side in sorted(chosen.items()):
        if side is None:
            continue
        if not 1 <= seat <= players:
            raise SeatSidesError(f"there is no seat {seat}: this game has seats 1 to {players}")
        if side not in SIDES:
            raise SeatSidesError(f"{side!r} is no side of the picture (bottom, left, top or right)")
        twice = [other for other, own in sides.items() if own == side]
        if twice:
            raise SeatSidesError(
                f"seat {twice[0]} and seat {seat} are both given the {side} side: each seat's hand comes in "
                "over its own side"
            )
        sides[seat] = side
    return sides


class SeatSides:
    """Which side of the frame each seat's hand comes in from: learned from the turns judged (the seat the
    referee expected and the side its hand crossed) or given, and asked for the seat of a side. A side
    names a seat only once every seat has a side of its own: players sitting along one edge, or a first
    round the camera followed badly, leave the seats to the order of play.

    Args:
        players: the seats, 1 to `players`.
        given: sides a person gave (`rummi watch --sides`, the Referee screen): `fixed`, never learned over.
        learned: sides learned before (a resumed game); one that a given side contradicts is dropped. The
            seats with no side are learned from their first turns.

    Raises:
        SeatSidesError: a given side for no such seat, no such side, or one side given twice.
    """

    def __init__(
        self, players: int, given: Mapping[int, str] | None = None, learned: Mapping[int, str] | None = None
    ) -> None:
        self.players = players
        self.sides: dict[int, str] = given_sides(given or {}, players)
        self.fixed = frozenset(self.sides)
        """The seats whose side a person gave."""
        for seat, side in sorted((learned or {}).items()):
            self.learn(seat, side)

    @property
    def learned(self) -> dict[int, str]:
        """The sides learned from the turns (not given)."""
        return {seat: side for seat, side in self.sides.items() if seat not in self.fixed}

    @property
    def given(self) -> dict[int, str]:
        return {seat: side for seat, side in self.sides.items() if seat in self.fixed}

    def seat_of(self, side: str | None) -> int | None:
        if side is None or len(set(self.sides.values())) < self.players:
            return None
        seats = [seat for seat, own in self.sides.items() if own == side]
        return seats[0] if len(seats) == 1 else None

    def learn(self, seat: int, side: str | None) -> None:
        """`seat`'s hand came in over `side`: its side, unless it has one or another seat has that side."""
        if side not in SIDES or seat in self.sides or not 1 <= seat <= self.players:
            return
        if side not in self.sides.values():
            self.sides[seat] = side

    def describe(self, names: Mapping[int, str] | None = None) -> str:
        """`Seat 1: bottom (set) · Seat 2: top (learned) · Seat 3: learning`."""
        parts = []
        for seat in range(1, self.players + 1):
            name = (names or {}).get(seat, f"Seat {seat}")
            side = self.sides.get(seat)
            if side is None:
                parts.append(f"{name}: learning")
            else:
                parts.append(f"{name}: {side} ({'set' if seat in self.fixed else 'learned'})")
        return " · ".join(parts)

    def to_json(self) -> dict[str, dict[str, str]]:
        """The sides given and learned, by seat (`SeatSides.from_json`)."""
        return {
            "given": {str(seat): side for seat, side in sorted(self.given.items())},
            "learned": {str(seat): side for seat, side in sorted(self.learned.items())},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None, players: int) -> SeatSides:
        """The sides `to_json` wrote, for `players` seats; None (a game stored before sides were kept): every
        side learned anew.

        Raises:
            SeatSidesError: not what `to_json` writes, or sides that cannot be the seats'.
        """
        if data is None:
            return cls(players)
        try:
            given = {int(seat): str(side) for seat, side in dict(data.get("given") or {}).items()}
            learned = {int(seat): str(side) for seat, side in dict(data.get("learned") or {}).items()}
        except (AttributeError, TypeError, ValueError) as error:
            raise SeatSidesError(f"the seats' sides cannot be read: {error}") from error
        unknown = [side for side in learned.values() if side not in SIDES]
        if unknown:
            raise SeatSidesError(f"{unknown[0]!r} is no side of the picture (bottom, left, top or right)")
        return cls(players, given, learned)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatSides):
            return NotImplemented
        return self.players == other.players and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"SeatSides({self.players}, given={self.given!r}, learned={self.learned!r})"


class GameWatcher:
    """Frames in, the referee's calls out (`update`).

    Args:
        reader: a `vision.reader.TileReader` (anything with `read(frame) -> Detections`).
        referee: the game's referee (seats, rules).
        settle_s: how long the table must stay still, with no hand in view, to end a turn.
        reads_per_settle: frames read, spread over the still time, and voted on.
        seat_sides: each seat's side of the frame ("bottom", "left", "top", "right"), where known (a
            person's), or a `SeatSides` (a resumed game's); the seats with no side are learned from their
            first turns.
    """

    def __init__(self, reader: Any, referee: Referee, settle_s: float = 1.5, reads_per_settle: int = 3,
                 motion: MotionWatch | None = None,
                 seat_sides: Mapping[int, str] | SeatSides | None = None) -> None:
        if not math.isfinite(settle_s) or settle_s <= 0:
            raise ValueError(f"the settle time must be more than 0 seconds, not {settle_s}")
        self.reader = video_reader(reader)
        self.referee = referee
        self.settle_s = settle_s
        self.reads_per_settle = max(1, reads_per_settle)
        self.motion = motion or MotionWatch()
        self.memory = TileMemory()
        self.seats = (seat_sides if isinstance(seat_sides, SeatSides)
                      else SeatSides(referee.players, seat_sides))
        self._still_since: float | None = None
        self._frame_size: tuple[int, int] | None = None
        self._reads = 0
        self._vote = TileVote(window=self.reads_per_settle, min_share=0.5)
        self._settled = False
        self._voted = Detections.empty()
        self._settled_tiles: Counter[int] = Counter()
        self._checked_at = 0.0
        self._reread_differs = False
        self._sides: Counter[str] = Counter()
        self._arm_still_since: float | None = None
        self._arm_checked_at = -math.inf
        self._last_frame: np.ndarray | None = None
        self.layout: Layout | None = None
        """The last settled table's layout."""

    def update(self, frame: np.ndarray, time_s: float, index: int = 0) -> WatchEvent:
        """One frame (BGR) at `time_s` seconds of the video."""
        size = (frame.shape[1], frame.shape[0])
        switched = self._frame_size is not None and size != self._frame_size
        if switched and not self._settled and self._reads and self._last_frame is not None and (
            self._still_since is not None and self._still_long_enough(time_s - self._still_since)
        ):
            # The table had stayed still for the settle time, read at the size before, when the picture
            # changed its size: it is judged on those reads now, and the switch handled at the next frame.
            # Their reads dropped, the turn waited for reads at the new size, and a hand coming back first
            # (an illegal play put back) made two turns none (`scripts-s24/switch_schedule.py --after-turns
            # 3 8`, tuning game 1204-p2 game 0: 12 -> 10 of 12, 2 missed).
            return self._settle(self._last_frame, time_s, index)
        self._last_frame = frame
        if switched:
            # A camera's stream changes its picture size as the network allows (WebRTC in Chromium: 500x375,
            # then 750x561, then 1000x750 in one game): the tiles lying still keep their identity, their
            # boxes scaled, and the table is read again at the new size (bench_referee_live: an invented
            # call of every tile on the table where the memory lost them all).
            self.memory.rescale(size[0] / self._frame_size[0], size[1] / self._frame_size[1])
            self.motion.new_picture(time_s)
            if self._settled:
                self._unsettle(time_s)
            else:
                # The table stays as still as it was: only the reads at the other size are dropped. With
                # the still time started again, a switch as a hand left (Chromium: 14 s into a game) let
                # the next hand come before the turn settled; two turns read as one, every later call went
                # to the wrong seat (`size_switch.py`, tuning game 1202-0: 13 of 13 -> 1 of 13).
                self._drop_reads()
        self._frame_size = size
        look = self.motion.look(frame, time_s)
        if look.hand_in_view and not self._arm_is_tiles(look, frame, time_s):
            self._sides.update(look.sides)
            self._unsettle(time_s)
            return WatchEvent(time_s, index, True, False)
        assert self._still_since is not None
        if self._settled:
            if self._changed_unseen(look, frame, time_s):
                self._unsettle(time_s)
            return WatchEvent(time_s, index, False, self._settled)
        still = time_s - self._still_since
        if self.motion.new_picture_settling(time_s):  # a stream's first frames at a new size: no read yet
            return WatchEvent(time_s, index, False, False)
        # Reads spread over the still time: the first after a fifth of it (the hand is well away).
        due = self.settle_s * (0.2 + 0.75 * self._reads / self.reads_per_settle)
        settles = self._still_long_enough(still)
        if self._reads < self.reads_per_settle and (still >= due or settles):
            self._voted = self._vote.update(self.reader.read(frame))
            self._reads += 1
        if not settles:
            return WatchEvent(time_s, index, False, False)
        return self._settle(frame, time_s, index)

    def _still_long_enough(self, still_s: float) -> bool:
        """Whether a table still for `still_s` seconds has settled (frame times carry rounding)."""
        return still_s >= self.settle_s - 1e-6

    def _arm_is_tiles(self, look: Look, frame: np.ndarray, time_s: float) -> bool:
        """Whether the arm `look` sees, still for the settle time, is tiles the reader finds (a set laid
        against the frame's edge), read once a second at most: they are the still table from now on."""
        if look.moving or not look.arm:
            self._arm_still_since = None
            return False
        if self._arm_still_since is None:
            self._arm_still_since = time_s
        if time_s - self._arm_still_since < self.settle_s or time_s - self._arm_checked_at < 1.0:
            return False
        self._arm_checked_at = time_s
        found = self.reader.read(frame)
        if not self.motion.tiles_are_no_arm(table_only(found).xyxy, (frame.shape[1], frame.shape[0])):
            return False
        if not self._settled:  # the table has been still since the "arm" was: so is its still time
            self._still_since = self._arm_still_since
            self._voted, self._reads = self._vote.update(found), self._reads + 1
        return True

    def _unsettle(self, time_s: float) -> None:
        self._still_since = time_s
        self._drop_reads()
        self._settled = False

    def _drop_reads(self) -> None:
        """The reads of the table since it was still are forgotten (votes and their count)."""
        self._reads = 0
        self._vote = TileVote(window=self.reads_per_settle, min_share=0.5)
        self._voted = Detections.empty()

    def _changed_unseen(self, look: Look, frame: np.ndarray, time_s: float) -> bool:
        """Whether the still, judged table changed though no hand was seen: pixels inside the frame differ
        from the still table, or a read every REREAD_S finds other tiles."""
        tile_area = self.motion.tile_px ** 2 * 0.75
        if look.changed_px >= UNSEEN_CHANGE_TILES * tile_area:
            return True
        if time_s - self._checked_at < (REREAD_CONFIRM_S if self._reread_differs else REREAD_S):
            return False
        self._checked_at = time_s
        differs = _tile_counts(table_only(self.reader.read(frame))) != self._settled_tiles
        # Two reads in a row must find other tiles: one glance misreads a tile now and then.
        changed, self._reread_differs = differs and self._reread_differs, differs
        return changed

    def _settle(self, frame: np.ndarray, time_s: float, index: int) -> WatchEvent:
        self._settled = True
        self._checked_at = time_s
        self._reread_differs = False
        height, width = frame.shape[:2]
        # Racks and second boxes out before the memory follows the tiles: its rows are the referee's rows.
        voted = self.memory.follow(frame, table_only(self._voted))
        self._settled_tiles = _tile_counts(table_only(self._voted))
        layout = rebuild(voted, self.referee.rules, image_size=(width, height))
        self.layout = layout
        heights = [p.size[1] for tiles in layout.table for p in tiles]
        if heights:
            self.motion.set_tile_height(width, float(np.median(heights)))
        self.motion.settle()
        side = self._sides.most_common(1)[0][0] if self._sides else None
        self._sides = Counter()
        seen, rows = seen_sets(layout, voted)
        expected = self.referee.seat
        end_to_end = end_to_end_sets(layout, rows)
        call = self.referee.observe(seen, time_s=time_s, frame=index,
                                    joinable=[(a, b) for a, b, _ in end_to_end],
                                    apart=[(a, b) for a, b, widths in end_to_end if widths > SPLIT_APART],
                                    seat=self.seats.seat_of(side), read_again=self._read_again(seen, rows))
        if call is not None and call.seat == expected:
            self.seats.learn(call.seat, side)
        # What the referee took a doubtful tile to be (from the game: the table before, the supply) is
        # that tile's identity from now on, while it lies still.
        judged = self.referee.reading
        if [len(s) for s in judged] == [len(s) for s in seen]:
            for tiles, where, taken_set in zip(seen, rows, judged, strict=True):
                for tile, row, taken in zip(tiles, where, taken_set, strict=True):
                    if taken != tile.tile:
                        self.memory.confirm(row, taken)
        return WatchEvent(time_s, index, False, True, call, layout)


    def _read_again(self, seen: list[list[SeenTile]], rows: list[list[int]]) -> list[tuple[Tile, Tile]]:
        """(as read before, as read now) for each tile that lay still, with the same look and ink, since
        the last settled table and now reads otherwise, its readings added up: one tile read again, not
        one tile taken and another laid (tuning game seed 1200 p2 game 2: a red 8 first read blue 8, read
        right a turn later, called "blue 8 was taken off the table" for three turns)."""
        pairs: list[tuple[Tile, Tile]] = []
        for tiles, where in zip(seen, rows, strict=True):
            for tile, row in zip(tiles, where, strict=True):
                was = self.memory.read_again.get(row)
                before = tile_from_class_id(was) if was is not None else None
                if before is not None and before != tile.tile:
                    pairs.append((before, tile.tile))
        return pairs


def _tile_counts(detections: Detections) -> Counter[int]:
    """How many of each reading: what a re-read compares (boxes shift; the tiles lying there do not)."""
    return Counter(int(c) for c in np.asarray(detections.class_id) if int(c) != UNKNOWN_CLASS)


WATCH_FPS = 5.0
"""Frames a second looked at: enough to see a hand come and go, and a 1000x750 video is followed faster
than it plays on two cores."""


def video_frames(source: str | int, sample_fps: float = WATCH_FPS) -> Iterator[tuple[np.ndarray, float, int]]:
    """(frame, time in seconds, frame index) of a video file or camera, about `sample_fps` frames a second.

    A file is looked at before it is opened (`assistant.user_files`): only a regular file, not empty and not a
    still image, goes to FFmpeg, whose own complaints are kept off stderr (the VideoError says what is wrong).

    Raises:
        VideoError: no such file, not a regular file (a folder, a named pipe, a device), empty, a photo, or
            it cannot be opened as a video, has frames over 50 megapixels or holds no frame.
    """
    import os

    from assistant.user_files import open_regular
    from vision.frames import MAX_FULL_DECODE_PIXELS, image_format

    def quiet_capture(target: str | int, backend: int) -> cv2.VideoCapture:
        # FFmpeg reads its log level once, when its first capture opens (unless the user set one).
        os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET
        previous = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            return cv2.VideoCapture(target, backend)
        finally:
            cv2.utils.logging.setLogLevel(previous)

    if isinstance(source, int):
        capture = quiet_capture(source, cv2.CAP_ANY)
    else:
        descriptor, status = open_regular(source, "a video file", VideoError)
        try:
            start = os.read(descriptor, 64)
        finally:
            os.close(descriptor)
        if status.st_size == 0 or not start:
            raise VideoError(f"{source}: the file is empty (0 bytes), not a video")
        if (kind := image_format(start)) is not None:
            raise VideoError(f"{source} is {kind}, not a video (`rummi read` reads photos)")
        ffmpeg = cv2.videoio_registry.hasBackend(cv2.CAP_FFMPEG)
        # An absolute path: FFmpeg takes "concat:..." or "pipe:..." for a protocol, "/.../concat:..." not.
        capture = quiet_capture(os.path.abspath(source), cv2.CAP_FFMPEG if ffmpeg else cv2.CAP_ANY)
    if not capture.isOpened():
        capture.release()
        raise VideoError(f"{source!r} cannot be opened as a video")
    try:
        width, height = capture.get(cv2.CAP_PROP_FRAME_WIDTH), capture.get(cv2.CAP_PROP_FRAME_HEIGHT)
        if width * height > MAX_FULL_DECODE_PIXELS:
            raise VideoError(
                f"{source!r}: frames of {width:.0f}x{height:.0f} pixels; videos are read up to "
                f"{MAX_FULL_DECODE_PIXELS // 10**6} megapixels a frame"
            )
        fps = capture.get(cv2.CAP_PROP_FPS) or 0.0
        live = isinstance(source, int)
        step = max(1, round(fps / sample_fps)) if fps > 0 and not live else 1
        index = -1
        yielded = 0
        while True:
            index += 1
            if index % step and not live:
                if not capture.grab():
                    break
                continue
            ok, frame = capture.read()
            if not ok or frame is None:
                break
            time_s = index / fps if fps > 0 and not live else capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
            yielded += 1
            yield frame, time_s, index
        if yielded == 0:
            raise VideoError(f"{source!r} holds no frame that can be read")
    finally:
        capture.release()


class VideoError(ValueError):
    """A video or camera that cannot be read (the message names it)."""
