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
   added up over every settled table it lay in (`TileMemory`).
4. The table's sets, each tile with its runner-up readings, go to the referee.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from assistant.referee import Call, Referee, SeenTile
from assistant.tiles import Tile, class_id, tile_from_class_id
from vision.detections import UNKNOWN_CLASS, Detections, box_iou, share_inside
from vision.layout import rebuild
from vision.placed import Layout, direction_vectors
from vision.tracking import TileVote

MOTION_SIZE = (160, 120)
"""Size of the grey picture frames are compared at (a 1000x750 frame's tile is about 6 pixels tall)."""


@dataclass
class MotionWatch:
    """Says whether a frame moved against the frame before.

    Args:
        cells: the picture is cut into this many columns and rows; a cell whose mean difference is over
            `change_above` grey levels moved.
        change_above: see `cells`.
    """

    cells: tuple[int, int] = (16, 12)
    change_above: float = 10.0
    _last: np.ndarray | None = field(default=None, repr=False)
    last_change: float = field(default=0.0, repr=False)

    def moved(self, frame: np.ndarray) -> bool:
        grey = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), MOTION_SIZE, interpolation=cv2.INTER_AREA)
        grey = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 2.0)
        # Brightness levelled: a light turned up or a cloud passing changes every cell alike.
        grey *= 128.0 / max(float(grey.mean()), 1.0)
        last, self._last = self._last, grey
        if last is None:
            self.last_change = math.inf
            return True
        (dx, dy), _ = cv2.phaseCorrelate(last, grey)
        margin = 0
        if abs(dx) < 4 and abs(dy) < 4:  # a camera that shakes a little: the shift is undone
            shift = np.float32([[1, 0, -dx], [0, 1, -dy]])
            grey = cv2.warpAffine(grey, shift, MOTION_SIZE, borderMode=cv2.BORDER_REPLICATE)
            margin = int(math.ceil(max(abs(dx), abs(dy))))
        difference = np.abs(grey - last)
        if margin:  # what the shift brought into view at the edge is no motion
            difference[:margin], difference[-margin:] = 0.0, 0.0
            difference[:, :margin], difference[:, -margin:] = 0.0, 0.0
        columns, rows = self.cells
        h, w = difference.shape
        cut = difference[: h - h % rows, : w - w % columns]
        per_cell = cut.reshape(rows, cut.shape[0] // rows, columns, cut.shape[1] // columns).mean(axis=(1, 3))
        self.last_change = float(per_cell.max())
        return self.last_change > self.change_above


DOUBLE_BOX_OVERLAP = 0.5
"""A box sharing more than this of the smaller box's area with a better-scored box is a second box of the
same tile (the detector boxed a tile's lower half again: rendered game seed 502 game 2, a loose b9 made
three turns wrong)."""

MISSED_IOU_BELOW = 0.3
"""A remembered tile is missed when no box of the frame overlaps its place this much."""

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


@dataclass
class _Remembered:
    box: np.ndarray
    look: np.ndarray
    scores: Counter[int]
    angle: float = 0.0


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
    """

    same_place_iou: float = 0.5
    same_look_above: float = 0.8
    still_there_above: float = 0.9
    _tiles: list[_Remembered] = field(default_factory=list, repr=False)

    def follow(self, frame: np.ndarray, detections: Detections) -> Detections:
        """The detections with every tile that lay still since the last settled table read as its
        remembered identity, and every remembered tile the detector missed that still lies there with the
        same look added back; remembers these tiles for the next settled table."""
        previous = self._tiles
        detections = self._with_missed(frame, detections, previous)
        if not len(detections):
            self._tiles = []
            return detections
        looks = tile_signatures(frame, detections.xyxy)
        ids = np.asarray(detections.topk_class_ids).copy()
        scores = np.asarray(detections.topk_scores, dtype=np.float32).copy()
        remembered: list[_Remembered] = []
        overlap = (box_iou(detections.xyxy, np.array([t.box for t in previous]))
                   if previous else np.zeros((len(detections), 0)))
        taken: set[int] = set()
        for row in range(len(detections)):
            now: Counter[int] = Counter({int(c): float(s) for c, s in zip(ids[row], scores[row], strict=True)
                                         if c != UNKNOWN_CLASS})
            if overlap.shape[1]:
                best = int(overlap[row].argmax())
                if (best not in taken and overlap[row, best] >= self.same_place_iou
                        and float(looks[row] @ previous[best].look) >= self.same_look_above):
                    taken.add(best)
                    now = previous[best].scores + now
            angle = float(detections.angle[row])
            remembered.append(_Remembered(detections.xyxy[row], looks[row], now, angle))
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

    def forget(self) -> None:
        self._tiles = []


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


def joinable_sets(layout: Layout, rows: list[list[int]]) -> list[tuple[int, int]]:
    """Pairs of the referee's sets (index in `seen_sets`) lying end to end in one row, the second after the
    first along the row."""
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
                pairs.append((a, b))
    return pairs


@dataclass(frozen=True)
class WatchEvent:
    """What one frame did: `call` is the referee's call when the frame settled a turn."""

    time_s: float
    frame: int
    moving: bool
    settled: bool
    call: Call | None = None
    layout: Layout | None = None


class GameWatcher:
    """Frames in, the referee's calls out (`update`).

    Args:
        reader: a `vision.reader.TileReader` (anything with `read(frame) -> Detections`).
        referee: the game's referee (seats, rules).
        settle_s: how long the table must stay still to end a turn.
        reads_per_settle: frames read, spread over the still time, and voted on.
    """

    def __init__(self, reader: Any, referee: Referee, settle_s: float = 1.5, reads_per_settle: int = 3,
                 motion: MotionWatch | None = None) -> None:
        if settle_s <= 0:
            raise ValueError(f"the settle time must be more than 0 seconds, not {settle_s}")
        self.reader = reader
        self.referee = referee
        self.settle_s = settle_s
        self.reads_per_settle = max(1, reads_per_settle)
        self.motion = motion or MotionWatch()
        self.memory = TileMemory()
        self._still_since: float | None = None
        self._reads = 0
        self._vote = TileVote(window=self.reads_per_settle, min_share=0.5)
        self._settled = False
        self._voted = Detections.empty()
        self.layout: Layout | None = None
        """The last settled table's layout."""

    def update(self, frame: np.ndarray, time_s: float, index: int = 0) -> WatchEvent:
        """One frame (BGR) at `time_s` seconds of the video."""
        if self.motion.moved(frame):
            self._still_since = time_s
            self._reads = 0
            self._vote = TileVote(window=self.reads_per_settle, min_share=0.5)
            self._voted = Detections.empty()
            self._settled = False
            return WatchEvent(time_s, index, True, False)
        assert self._still_since is not None
        still = time_s - self._still_since
        if self._settled:
            return WatchEvent(time_s, index, False, True)
        # Reads spread over the still time: the first after a fifth of it (the hand is well away).
        due = self.settle_s * (0.2 + 0.75 * self._reads / self.reads_per_settle)
        settles = still >= self.settle_s - 1e-6
        if self._reads < self.reads_per_settle and (still >= due or settles):
            self._voted = self._vote.update(self.reader.read(frame))
            self._reads += 1
        if not settles:
            return WatchEvent(time_s, index, False, False)
        self._settled = True
        height, width = frame.shape[:2]
        voted = table_only(self.memory.follow(frame, self._voted))
        layout = rebuild(voted, self.referee.rules, image_size=(width, height))
        self.layout = layout
        seen, rows = seen_sets(layout, voted)
        call = self.referee.observe(seen, time_s=time_s, frame=index, joinable=joinable_sets(layout, rows))
        # What the referee took a doubtful tile to be (from the game: the table before, the supply) is
        # that tile's identity from now on, while it lies still.
        judged = self.referee.reading
        if [len(s) for s in judged] == [len(s) for s in seen]:
            for tiles, where, taken_set in zip(seen, rows, judged, strict=True):
                for tile, row, taken in zip(tiles, where, taken_set, strict=True):
                    if taken != tile.tile:
                        self.memory.confirm(row, taken)
        return WatchEvent(time_s, index, False, True, call, layout)


WATCH_FPS = 5.0
"""Frames a second looked at: enough to see a hand come and go, and a 1000x750 video is followed faster
than it plays on two cores."""


def video_frames(source: str | int, sample_fps: float = WATCH_FPS) -> Iterator[tuple[np.ndarray, float, int]]:
    """(frame, time in seconds, frame index) of a video file or camera, about `sample_fps` frames a second.

    Raises:
        VideoError: the video cannot be opened or holds no frame.
    """
    capture = cv2.VideoCapture(source)
    if not capture.isOpened():
        raise VideoError(f"{source!r} cannot be opened as a video")
    try:
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
