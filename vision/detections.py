"""`Detections`: what the recognition model found in one frame, as parallel numpy arrays."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from assistant.tiles import CLASS_NAMES, Tile, tile_from_class_id

UNKNOWN_CLASS = -1
"""`class_id` of a tile that was found but not read (no classifier, or the classifier was not run)."""


def _empty_topk(n: int, k: int, dtype: type) -> np.ndarray:
    return np.zeros((n, k), dtype=dtype)


def _frame_boxes(
    xyxy: np.ndarray, scores: np.ndarray | None, name: str, default: float
) -> tuple[np.ndarray, np.ndarray]:
    """Boxes kept for the whole frame (racks, held-back boxes) as (m, 4) and (m,) float32 arrays; scores
    `default` where not given."""
    boxes = np.asarray(xyxy, dtype=np.float32).reshape(-1, 4)
    m = len(boxes)
    given = np.full(m, default, np.float32) if scores is None else scores
    out = np.asarray(given, dtype=np.float32).reshape(-1)
    if out.shape != (m,):
        raise ValueError(
            f"Detections.{name}_confidence has shape {out.shape}, expected ({m},) to match {name}_xyxy"
        )
    return boxes, out


@dataclass
class Detections:
    """Tiles found in one frame.

    Attributes:
        xyxy: (n, 4) float boxes `x1, y1, x2, y2` in pixels of the frame as given.
        confidence: (n,) detector score that the box holds a tile, 0-1.
        class_id: (n,) index into `CLASS_NAMES` of the best reading, `UNKNOWN_CLASS` where not read.
        class_confidence: (n,) score of the best reading, 0 where not read.
        topk_class_ids: (n, k) readings best first (`k` may be 0).
        topk_scores: (n, k) their scores.
        angle: (n,) direction of the tile's "up" in degrees (0 upright, counter-clockwise), 0 where unknown.
        rack_xyxy: (m, 4) boxes of whole racks (both tiers) found in the frame, or None where the detector
            does not look for racks (a one-class model): then racks are only told by the tiles' geometry.
        rack_confidence: (m,) detector score of each rack box.
        rack_quad: (m, 4, 2) corners of each rack where it slopes across the frame (found in a levelled
            look, `vision.detector.SLOPED_RACK_*`), NaN for a rack that is its box; None: every rack is its
            box. A tile stands on a sloping rack by the share of its box inside the corners, not the box
            around them (which takes in the table beside a rack lying at 45 degrees).
        held_xyxy: (h, 4) boxes the detector held back, or None: scored as tiles but mostly covered by
            better-scored boxes, as a box across two packed tiles is, and as every tile's upright box is in a
            tight grid of tiles turned 45 degrees (`vision.detector.KEEP_COVERED_ABOVE`). The reader keeps
            those its classifier reads surely (`vision.reader.HELD_READ_ABOVE`).
        held_confidence: (h,) detector score of each held box.

    Example:
        >>> d = Detections.empty()
        >>> len(d)
        0
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray = field(default=None)  # type: ignore[assignment]
    class_confidence: np.ndarray = field(default=None)  # type: ignore[assignment]
    topk_class_ids: np.ndarray = field(default=None)  # type: ignore[assignment]
    topk_scores: np.ndarray = field(default=None)  # type: ignore[assignment]
    angle: np.ndarray = field(default=None)  # type: ignore[assignment]
    rack_xyxy: np.ndarray | None = None
    rack_confidence: np.ndarray | None = None
    held_xyxy: np.ndarray | None = None
    held_confidence: np.ndarray | None = None
    rack_quad: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.xyxy = np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4)
        n = len(self.xyxy)
        self.confidence = np.asarray(self.confidence, dtype=np.float32)
        if self.class_id is None:
            self.class_id = np.full(n, UNKNOWN_CLASS, dtype=np.int64)
        if self.class_confidence is None:
            self.class_confidence = np.zeros(n, dtype=np.float32)
        if self.topk_class_ids is None:
            self.topk_class_ids = _empty_topk(n, 0, np.int64)
        if self.topk_scores is None:
            self.topk_scores = _empty_topk(
                n, self.topk_class_ids.shape[1] if self.topk_class_ids.ndim == 2 else 0, np.float32
            )
        if self.angle is None:
            self.angle = np.zeros(n, dtype=np.float32)
        self.class_id = np.asarray(self.class_id, dtype=np.int64)
        self.class_confidence = np.asarray(self.class_confidence, dtype=np.float32)
        self.topk_class_ids = np.asarray(self.topk_class_ids, dtype=np.int64)
        self.topk_scores = np.asarray(self.topk_scores, dtype=np.float32)
        self.angle = np.asarray(self.angle, dtype=np.float32)
        for name in ("confidence", "class_id", "class_confidence", "angle"):
            shape = getattr(self, name).shape
            if shape != (n,):
                raise ValueError(f"Detections.{name} has shape {shape}, expected ({n},) to match xyxy")
        for name in ("topk_class_ids", "topk_scores"):
            shape = getattr(self, name).shape
            if len(shape) != 2 or shape[0] != n:
                raise ValueError(f"Detections.{name} has shape {shape}, expected ({n}, k)")
        if self.topk_class_ids.shape != self.topk_scores.shape:
            raise ValueError(
                f"Detections.topk_scores has shape {self.topk_scores.shape}, "
                f"expected {self.topk_class_ids.shape} like topk_class_ids"
            )
        if self.rack_xyxy is not None:
            self.rack_xyxy, self.rack_confidence = _frame_boxes(
                self.rack_xyxy, self.rack_confidence, "rack", default=1.0
            )
        if self.rack_quad is not None:
            if self.rack_xyxy is None:
                raise ValueError("Detections.rack_quad needs rack_xyxy")
            self.rack_quad = np.asarray(self.rack_quad, dtype=np.float32)
            if self.rack_quad.shape != (len(self.rack_xyxy), 4, 2):
                raise ValueError(f"Detections.rack_quad has shape {self.rack_quad.shape}, "
                                 f"expected ({len(self.rack_xyxy)}, 4, 2) to match rack_xyxy")
        if self.held_xyxy is not None:
            self.held_xyxy, self.held_confidence = _frame_boxes(
                self.held_xyxy, self.held_confidence, "held", default=0.0
            )
        known = self.class_id[self.class_id != UNKNOWN_CLASS]
        if known.size and (known.min() < 0 or known.max() >= len(CLASS_NAMES)):
            raise ValueError(f"Detections.class_id out of range 0-{len(CLASS_NAMES) - 1}: {known.tolist()}")

    @classmethod
    def empty(cls) -> Detections:
        return cls(xyxy=np.zeros((0, 4), np.float32), confidence=np.zeros(0, np.float32))

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: int | slice | np.ndarray | list[int]) -> Detections:
        """Select by slice, integer array or boolean mask; always returns `Detections`."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        return Detections(
            xyxy=self.xyxy[index],
            confidence=self.confidence[index],
            class_id=self.class_id[index],
            class_confidence=self.class_confidence[index],
            topk_class_ids=self.topk_class_ids[index],
            topk_scores=self.topk_scores[index],
            angle=self.angle[index],
            rack_xyxy=self.rack_xyxy,
            rack_confidence=self.rack_confidence,
            held_xyxy=self.held_xyxy,
            held_confidence=self.held_confidence,
            rack_quad=self.rack_quad,
        )

    @classmethod
    def merge(cls, parts: list[Detections]) -> Detections:
        if not parts:
            return cls.empty()
        k = max(p.topk_class_ids.shape[1] for p in parts)

        def padded(arr: np.ndarray, fill: float) -> np.ndarray:
            extra = k - arr.shape[1]
            return np.pad(arr, ((0, 0), (0, extra)), constant_values=fill) if extra else arr

        return cls(
            xyxy=np.concatenate([p.xyxy for p in parts]),
            confidence=np.concatenate([p.confidence for p in parts]),
            class_id=np.concatenate([p.class_id for p in parts]),
            class_confidence=np.concatenate([p.class_confidence for p in parts]),
            topk_class_ids=np.concatenate([padded(p.topk_class_ids, UNKNOWN_CLASS) for p in parts]),
            topk_scores=np.concatenate([padded(p.topk_scores, 0.0) for p in parts]),
            angle=np.concatenate([p.angle for p in parts]),
            rack_xyxy=None if all(p.rack_xyxy is None for p in parts) else np.concatenate(
                [p.rack_xyxy for p in parts if p.rack_xyxy is not None]),
            rack_confidence=None if all(p.rack_xyxy is None for p in parts) else np.concatenate(
                [p.rack_confidence for p in parts if p.rack_confidence is not None]),
            held_xyxy=None if all(p.held_xyxy is None for p in parts) else np.concatenate(
                [p.held_xyxy for p in parts if p.held_xyxy is not None]),
            held_confidence=None if all(p.held_xyxy is None for p in parts) else np.concatenate(
                [p.held_confidence for p in parts if p.held_confidence is not None]),
            rack_quad=None if all(p.rack_quad is None for p in parts) else np.concatenate(
                [p.rack_quads() for p in parts if p.rack_xyxy is not None]),
        )

    def with_tiles(self, xyxy: np.ndarray, confidence: np.ndarray) -> Detections:
        """Other tile boxes (unread) of the same frame: its racks and held-back boxes kept."""
        return Detections(
            xyxy=xyxy,
            confidence=confidence,
            rack_xyxy=self.rack_xyxy,
            rack_confidence=self.rack_confidence,
            held_xyxy=self.held_xyxy,
            held_confidence=self.held_confidence,
            rack_quad=self.rack_quad,
        )

    def rack_quads(self) -> np.ndarray:
        """(m, 4, 2) every rack's sloping corners, NaN for racks that are their boxes (none: (0, 4, 2))."""
        m = 0 if self.rack_xyxy is None else len(self.rack_xyxy)
        if self.rack_quad is None:
            return np.full((m, 4, 2), np.nan, np.float32)
        return self.rack_quad

    @property
    def is_read(self) -> np.ndarray:
        """(n,) bool: the tile's face was read (a classifier ran on it)."""
        return self.class_id != UNKNOWN_CLASS

    def tiles(self) -> list[Tile | None]:
        """The boundary to the domain: each detection's best reading as a `Tile`, None where not read."""
        return [None if cid == UNKNOWN_CLASS else tile_from_class_id(int(cid)) for cid in self.class_id]

    def with_readings(
        self, topk_class_ids: np.ndarray, topk_scores: np.ndarray, angle: np.ndarray | None = None
    ) -> Detections:
        """A copy with the classifier's readings (best first) filled in."""
        topk_class_ids = _rows(np.asarray(topk_class_ids, dtype=np.int64), len(self))
        topk_scores = _rows(np.asarray(topk_scores, dtype=np.float32), len(self))
        has_any = topk_class_ids.shape[1] > 0
        return Detections(
            xyxy=self.xyxy.copy(),
            confidence=self.confidence.copy(),
            class_id=topk_class_ids[:, 0] if has_any else np.full(len(self), UNKNOWN_CLASS),
            class_confidence=topk_scores[:, 0] if has_any else np.zeros(len(self), np.float32),
            topk_class_ids=topk_class_ids,
            topk_scores=topk_scores,
            angle=self.angle.copy() if angle is None else np.asarray(angle, dtype=np.float32).reshape(-1),
            rack_xyxy=self.rack_xyxy,
            rack_confidence=self.rack_confidence,
            held_xyxy=self.held_xyxy,
            held_confidence=self.held_confidence,
            rack_quad=self.rack_quad,
        )


def _rows(values: np.ndarray, n: int) -> np.ndarray:
    """`values` as n rows (numpy cannot infer the width of zero rows: a (0, k) array keeps its k)."""
    if n == 0:
        return values.reshape(0, values.shape[-1] if values.ndim == 2 else 0)
    return values.reshape(n, -1)


def _intersections(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(n, m) areas shared by each of the xyxy boxes `a` with each of `b` (float64, reshaped)."""
    top_left = np.maximum(a[:, None, :2], b[None, :, :2])
    bottom_right = np.minimum(a[:, None, 2:], b[None, :, 2:])
    return np.clip(bottom_right - top_left, 0, None).prod(axis=2)


def cut_by_frame(xyxy: np.ndarray, image_size: tuple[int, int], margin: float = 2.0) -> np.ndarray:
    """Which boxes touch the frame's edge (their tiles may go on beyond it)."""
    width, height = image_size
    return ((xyxy[:, 0] <= margin) | (xyxy[:, 1] <= margin)
            | (xyxy[:, 2] >= width - margin) | (xyxy[:, 3] >= height - margin))


def share_inside(boxes: np.ndarray, containers: np.ndarray) -> np.ndarray:
    """(n, m) share of each xyxy box's area that lies inside each container box."""
    a = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    b = np.asarray(containers, dtype=np.float64).reshape(-1, 4)
    area = np.maximum((a[:, 2:] - a[:, :2]).prod(axis=1), 1e-9)
    return _intersections(a, b) / area[:, None]


QUAD_SAMPLES = 5
"""A box's share inside a sloping rack is counted on a `QUAD_SAMPLES` x `QUAD_SAMPLES` lattice of points."""


def inside_quads(points: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(..., m) whether each point (..., 2) lies inside (or on) each convex quadrilateral (m, 4, 2), its
    corners in order either way round."""
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    p = np.asarray(points, dtype=np.float64)[..., None, :]  # (..., 1, 2)
    edges = np.roll(q, -1, axis=1) - q  # (m, 4, 2)
    to_point = p[..., None, :] - q  # (..., m, 4, 2)
    cross = edges[..., 0] * to_point[..., 1] - edges[..., 1] * to_point[..., 0]  # (..., m, 4)
    return (cross >= 0).all(axis=-1) | (cross <= 0).all(axis=-1)


def share_inside_quads(boxes: np.ndarray, quads: np.ndarray, grid: int = QUAD_SAMPLES) -> np.ndarray:
    """(n, m) share of each xyxy box's area inside each convex quadrilateral (m, 4, 2), corners in order
    either way round, counted on a `grid` x `grid` lattice of points inside the box."""
    a = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    steps = (np.arange(grid) + 0.5) / grid
    xs = a[:, 0:1] + steps * (a[:, 2:3] - a[:, 0:1])
    ys = a[:, 1:2] + steps * (a[:, 3:4] - a[:, 1:2])
    lattice = np.stack([np.repeat(xs, grid, axis=1), np.tile(ys, (1, grid))], axis=-1)  # (n, grid**2, 2)
    return inside_quads(lattice, quads).mean(axis=1)


def rack_shares(xyxy: np.ndarray, rack_xyxy: np.ndarray, rack_quad: np.ndarray | None = None) -> np.ndarray:
    """(n, m) share of each box inside each rack: its box, or its corners (`rack_quad`, not NaN) where
    given (see `Detections.rack_quad`)."""
    share = share_inside(xyxy, rack_xyxy)
    if rack_quad is not None and len(share):
        sloping = np.flatnonzero(~np.isnan(np.asarray(rack_quad, np.float64)).any(axis=(1, 2)))
        if len(sloping):
            share[:, sloping] = share_inside_quads(xyxy, np.asarray(rack_quad)[sloping])
    return share


def box_iou(boxes_a: np.ndarray, boxes_b: np.ndarray) -> np.ndarray:
    """(n, m) intersection over union of two sets of xyxy boxes."""
    a = np.asarray(boxes_a, dtype=np.float64).reshape(-1, 4)
    b = np.asarray(boxes_b, dtype=np.float64).reshape(-1, 4)
    inter = _intersections(a, b)
    area_a = (a[:, 2:] - a[:, :2]).clip(0).prod(axis=1)
    area_b = (b[:, 2:] - b[:, :2]).clip(0).prod(axis=1)
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.maximum(union, 1e-12), 0.0)
