"""Find tiles in a frame: the ONNX tile detector (`vision.reader.TileReader` adds the crop classifier).

Inference uses onnxruntime, numpy and cv2 only; torch and ultralytics are for training
(`vision.training.detector`). The detector is a one-class YOLO ("tile") exported by ultralytics: input
(1, 3, S, S) RGB 0-1 letterboxed with grey 114, output (1, 5, N) rows `cx, cy, w, h, score` in input pixels.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from vision.detections import (
    Detections,
    box_iou,
    inside_quads,
    rack_shares,
)
from vision.onnx_models import ModelLoadError, model_path, onnx_session
from vision.rack_check import RackCheck, load_rack_check
from vision.racks import RACK_MEMBER_OVERLAP

DETECTOR_MODEL = "tile_detector.onnx"
LETTERBOX_FILL = 114
DEFAULT_CONFIDENCE = 0.4
DEFAULT_IOU = 0.6
DEFAULT_THREADS = 2
DEFAULT_RACK_CONFIDENCE = 0.35
"""A rack is reported when the best of the boxes joined into it (`join_rack_parts`) scores this much, unless
the model file says its own (`rack_confidence` in its metadata: a rack class's scores move with training,
and its threshold is chosen with the weights, `vision.training.detector --rack-confidence`)."""
RACK_PART_CONFIDENCE = 0.1
"""Rack boxes scoring this much take part in the joining: the detector often sees a long rack as two or
three overlapping parts (its left and right halves, one tier), each scored low."""
RACK_PART_OVERLAP = 0.2
"""Two rack boxes are parts of one rack when their overlap is this share of the smaller one ..."""
RACK_PART_BAND = 0.5
"""... and they share this much of the smaller one's height (of its width for racks standing upright)."""
DEFAULT_RACK_TILE_CONFIDENCE = 0.2
"""Detector score a tile standing on a found rack needs (the rack is evidence too: tiles on a rack seen at an
angle score low). Chosen on tuning renders (seed 8100) by rack tiles in racks against false tiles."""
ROW_TILE_CONFIDENCE = 0.15
"""Detector score a tile lying in a row between two found tiles needs (`between_found_tiles`): the neighbours
on both sides are evidence too. A clear black joker between k10 and k12 scored 0.2 in every detector
trained (rendered tuning game seed 1200 game 0: unseen for 20 s, a legal play called not legal)."""
ROW_GAP_MOST = 0.6
"""A row neighbour lies at most this share of the tile's width away (tiles of one set lie close) ..."""
ROW_LINE_WITHIN = 0.3
"""... its centre at most this share of the tile's height off the tile's line, its height within 25 %."""
RACK_LOOK_MARGIN = 0.1
"""Each found rack gets a second look of its own (`TileDetector.rack_look`): its box, widened by this share of
its size on every side, cut out and given to the detector whole, so that the rack's tiles fill more of the
detector's input. Tiles standing packed on a rack seen at an angle are small and thin in the whole frame;
the detector finds many of them only so. Chosen on tuning renders (seed 8100, 30 scenes a kind): margins
0, 0.05, 0.1, 0.2 put 91.9, 92.1, 91.8, 91.5 % of rack tiles in racks (no look: 89.8 %), with 0, 1, 0, 0
false tiles; cutting long racks into windows nearer square added nothing."""
SLOPED_RACK_MIN_TILES = 6
SLOPED_RACK_MIN_SLOPE = 12.0
SLOPED_RACK_ELONGATION = 3.0
SLOPED_RACK_REACH = 1.3
"""Tiles standing on no found rack, at least `SLOPED_RACK_MIN_TILES` of them within `SLOPED_RACK_REACH` tile
sides of each other, whose centres spread along a line (`SLOPED_RACK_ELONGATION` times the variance across
it) sloping at least `SLOPED_RACK_MIN_SLOPE` degrees off the frame's rows, are looked at again levelled
(`TileDetector.sloped_rack_look`): the frame turned about them until their line runs level, a window around
them (`SLOPED_RACK_WINDOW_*` tile sides beyond their ends and across) given to the detector. The detector
was trained on racks that run level more or less and boxes a rack sloping 30-45 degrees across the frame
rarely (tuning renders, seed 8300: 6 racks with 6 to 28 tiles and no rack box at all), and the box around a
sloping rack would take in the table beside it. A rack the levelled look finds (scoring `rack_confidence`,
not a bare cluster of tiles) holding at least `SLOPED_RACK_MIN_MEMBERS` of the tiles is kept by its corners
(`Detections.rack_quad`), with the tiles the look finds on it that the first had no box for. The last two
conditions are asked of the line before the look too (its tiles two tiers apart, a rack part in the window):
a look costs a forward pass, and a rendered game table's sloping sets took two (a read 40 -> 93 ms) before;
now 2 of 30 tuning game tables, 3 of 68 twill photos, no real-dev photo. Chosen on tuning renders (seed
8300, 120 scenes each from above and at an angle; 4, 5 or 6 tiles and 8 or 12 degrees alike there, from 4
tiles 24 of the 93 real-dev photos looked at instead of 4), and measured once on the hold-out
(docs/experiments/lab-notes.md, eighth session)."""
SLOPED_RACK_WINDOW_ALONG = 2.0
SLOPED_RACK_WINDOW_ACROSS = 2.5
SLOPED_RACK_MIN_MEMBERS = 3
SLOPED_RACK_MIN_TIERS_APART = 0.5
"""A levelled look's rack is kept only where its tiles' centres lie at least this many tile sides apart
across its line (two tiers): on the tuning renders 5 of its 14 racks on single sloping rows of tiles were
sets on the table (a row of 6-15 tiles, spread 0.07-0.31), and none of its 12 true racks spread less than
0.7."""
RACK_LOOKS_AT_MOST = 4
"""Racks looked at again, best scored first: a game has at most four players, and each look costs a forward
pass (a frame of false racks must not cost ten)."""
RACK_LOOK_NEW_IOU = 0.45
"""A tile box from a rack's second look is added where no box of the first look overlaps it this much.
Where one does, it is that tile, and the second look's box, scored higher, replaces the first look's
(`sharper_boxes`): seen at the rack's own scale a small tile standing at the far end of a rack seen at an
angle is boxed closer, where the first look's box straddled it and its neighbour (tuning renders at an
angle: 30 of 91 rack tiles the reader missed had such a box in the rack look). Tuning renders (seeds
8100-8500, 1,040 scenes): recall 96.75 -> 96.83 %, end to end 87.65 -> 87.95 %, rack tiles in racks 93.45
-> 93.62 % (at an angle, seed 8100: 92.4 -> 93.1 %), table tiles on racks 9.62 -> 9.64 %, false tiles the
same; racks read wholly in their owner's order 79.3 -> 78.5 %. Hold-out, measured once: rack tiles in
racks 93.60 -> 93.73 %, end to end 90.85 -> 90.90 %, racks in order 69.4 -> 68.4 %. Replacing whatever
the scores (tried with the levelled looks' boxes too): table tiles on racks 9.6 -> 9.8 %. real-dev
unchanged (docs/experiments/lab-notes.md, ninth session)."""
FAINT_TILE_FROM = 0.25
"""A tile box scoring this much but under the threshold gets a closer look (`TileDetector.faint_look`) ..."""
FAINT_LOOK_SHARE = 0.5
"""... a window around it this share of the frame's long side (square), given to the detector whole: the
tiles in it twice as large in the detector's input. A clear tile in the shadow of a 1000x750 frame, 13 px
tall at 320, scores under the threshold (photo game zoom 3200-p2 game 5: a blue 1 and 2 at 0.34 and 0.29,
0.86 and 0.87 seen twice as close; a legal opening called "not legal", 24 points and a lone blue 3)."""
FAINT_LOOK_CONFIRM_IOU = 0.3
"""A faint box is kept where the closer look finds a tile box over it (this IoU) scoring the threshold; the
closer look's box is kept, with its score. Nothing else the closer look finds is added."""
FAINT_LOOKS_AT_MOST = 2
"""Closer looks a frame, each at the best-scored faint box not in a window looked at already: each costs a
forward pass."""
SMALL_TILES_BELOW = 14.0
"""A video frame whose found tiles are this small in the detector's input (the median box's long side,
pixels at `input_size`) is looked at again in four overlapping windows (`TileDetector.small_tiles_look`, each
`SMALL_TILES_WINDOW` of the frame's width and height, its corners), the tiles twice as large there; the faint
look is then not needed. Photo game zoom2 3210-p2 game 2 (a real photo on a table twice its size, tiles 34 px
tall in a 1000 px frame, 11 px at 320): the first look found 1-2 tiles fewer than lay there at 11 of its 12
turns (two tiles side by side in one box), the windows as many as lay there at 10 of them. 12 -> 14 px
(twenty-first session): photo game zoom18 3221-p3 (1.8 times, tiles 12.7 px at 320) boxed a red 2 between a
black and an orange 2 off its place at 0.51 (the referee took it for a second box of the orange 2: a legal
play called not legal, 10 wrong calls); zoom18 116 -> 124 of 127 turns, hold-out renders recall 97.45 ->
97.65 %, end to end 91.51 -> 91.68 % (fires on 4 of 200, was 1); never on real-dev or the rendered referee
games (tiles 15-17 px at 320; at 16 it would fire on 28 of 33 of their turns)."""
VIDEO_INPUT_SIZE = 320
"""A video frame's detector input: a square of this side, whatever size a model of any input size reads a
photo at (`TileDetector.for_video`). The referee's watcher and the live screens were tuned at it (their
thresholds, `SMALL_TILES_BELOW`, the photo games' figures), and a still table read at 448 would cost 1.5 of
its forward passes on every read the watcher makes. A photo is read at the model's own size, in its own shape
(twenty-fifth session, models/README.md)."""
STILL_SMALL_TILES_BELOW = 12.0
"""The same for a photo (`TileDetector.small_tiles_below`; a video's reader takes `SMALL_TILES_BELOW`,
`vision.reader.TileReader.for_video`). On real stills at 13 px the windows change nothing: real-dev-measure
zoomed out 1.8 times (tiles 12.7-13 px at 320, as the outside check's photos) reads recall 100 %, precision
99.44 % with them from 14 px and 99.55 % from 12 px, photos wholly right 93.62 % both, while a 54-tile read
costs 6.3 forward passes from 14 px against 2.0 from 12; zoomed out 2 times (11-12 px) 12 keeps all of 14's
gains (recall 98.52 -> 100 %, wholly right 85.1 -> 89.4 %). What 14 buys was measured on video frames,
softer than stills (photo games zoom18: 116 -> 124 of 127 turns), and on the hold-out renders (recall 97.45
-> 97.65 % in the twenty-first session). Twenty-third session, docs/experiments/lab-notes.md."""
SMALL_TILES_WINDOW = 0.6
DEFAULT_MAX_COVERAGE = 0.85
"""Drop a box this much covered by better-scored ones: a box across two packed tiles, or part of one ..."""
KEEP_COVERED_ABOVE = 0.7
"""... unless it scores this much itself: in a tight grid of tiles turned 45 degrees every tile's upright
box is covered by its neighbours'. Chosen on tuning renders (seed 8100 scenes and seed 30001 tables):
covered boxes from 0.7 were 7 tiles and no false one; from 0.6, 14 tiles and 3 false; from 0.5, 21 and 25."""


@dataclass(frozen=True)
class Letterbox:
    """How a frame was scaled and padded into the square model input, to map boxes back."""

    scale: float
    pad_x: float
    pad_y: float

    def to_frame(self, xyxy: np.ndarray) -> np.ndarray:
        out = xyxy.astype(np.float32).copy()
        out[:, [0, 2]] = (out[:, [0, 2]] - self.pad_x) / self.scale
        out[:, [1, 3]] = (out[:, [1, 3]] - self.pad_y) / self.scale
        return out


def shrink(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """`image` resized to `width` x `height`: halved by 2x2 averages while at least twice as big, then
    bilinear. Close to OpenCV's area resize (a mean difference of about 1.4 grey levels on a 1000x750
    photo to 320x240) at an eighth of its time: the area resize takes its slow path for a scale that is
    not a whole number."""
    while image.shape[1] >= 2 * width and image.shape[0] >= 2 * height:
        even_h, even_w = image.shape[0] // 2 * 2, image.shape[1] // 2 * 2
        image = cv2.resize(image[:even_h, :even_w], (even_w // 2, even_h // 2), interpolation=cv2.INTER_AREA)
    if image.shape[1] == width and image.shape[0] == height:
        return image
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)


def letterbox(image: np.ndarray, size: int, stride: int | None = None) -> tuple[np.ndarray, Letterbox]:
    """Scale `image` (BGR) to fit `size` x `size`, pad centred with grey, as ultralytics does. With `stride`
    (a model that takes any input of whole strides) each side is padded only to the next whole stride: a
    4:3 photo at 480 is 480x384, a fifth less work than 480x480, at the same scale."""
    height, width = image.shape[:2]
    scale = min(size / height, size / width)
    new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
    resized = shrink(image, new_w, new_h)
    out_w, out_h = (size, size)
    if stride is not None:
        out_w, out_h = -(-new_w // stride) * stride, -(-new_h // stride) * stride
    pad_x, pad_y = (out_w - new_w) / 2, (out_h - new_h) / 2
    top, left = round(pad_y - 0.1), round(pad_x - 0.1)
    canvas = np.full((out_h, out_w, 3), LETTERBOX_FILL, dtype=np.uint8)
    canvas[top : top + new_h, left : left + new_w] = resized
    return canvas, Letterbox(scale=scale, pad_x=left, pad_y=top)


def detector_input(image: np.ndarray, size: int, stride: int | None = None) -> tuple[np.ndarray, Letterbox]:
    """The detector's input for a BGR frame: letterboxed to `size` (`letterbox`), RGB, 0-1, (1, 3, H, W)."""
    boxed, geometry = letterbox(image, size, stride)
    return cv2.dnn.blobFromImage(boxed, scalefactor=1 / 255.0, swapRB=True), geometry


def non_max_suppression(xyxy: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Indices of the boxes kept, best score first."""
    if len(xyxy) == 0:
        return np.zeros(0, dtype=np.int64)
    xywh = np.column_stack([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]]).astype(np.float32)
    kept = cv2.dnn.NMSBoxes(xywh.tolist(), scores.astype(np.float32).tolist(), 0.0, iou_threshold)
    kept = np.asarray(kept, dtype=np.int64).reshape(-1)
    return kept[np.argsort(-scores[kept], kind="stable")]


def join_rack_parts(
    xyxy: np.ndarray,
    scores: np.ndarray,
    keep_above: float = DEFAULT_RACK_CONFIDENCE,
    overlap: float = RACK_PART_OVERLAP,
    band: float = RACK_PART_BAND,
) -> tuple[np.ndarray, np.ndarray]:
    """Whole racks from the detector's rack boxes: boxes that overlap along one band (parts of one long
    rack) become their union, scored by their best part; unions whose best part scores under `keep_above`
    are dropped. Boxes side by side without overlap (two racks next to each other) stay apart."""
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    scores = np.asarray(scores, np.float32).reshape(-1)
    n = len(xyxy)
    if n == 0:
        return xyxy.astype(np.float32), scores
    sides = np.maximum(xyxy[:, 2:] - xyxy[:, :2], 1e-9)
    low = np.maximum(xyxy[:, None, :2], xyxy[None, :, :2])
    span = np.clip(np.minimum(xyxy[:, None, 2:], xyxy[None, :, 2:]) - low, 0, None)
    area = sides.prod(axis=1)
    shared = span.prod(axis=2) / np.minimum(area[:, None], area[None, :])
    wide = sides[:, 0] >= sides[:, 1]
    # Along the height for racks lying wide in the frame, along the width for racks standing upright.
    thinner = np.minimum(sides[:, None, :], sides[None, :, :])
    both_wide = wide[:, None] & wide[None, :]
    across = np.where(both_wide, span[..., 1] / thinner[..., 1], span[..., 0] / thinner[..., 0])
    mixed = wide[:, None] != wide[None, :]
    joined = (shared >= overlap) & ((across >= band) | mixed)
    group = np.arange(n)
    for _ in range(n):  # labels spread along joined pairs until every part has its rack's smallest index
        spread = np.where(joined, group[None, :], n).min(axis=1)
        settled = np.minimum(group, spread)
        if np.array_equal(settled, group):
            break
        group = settled
    boxes, best = [], []
    for label in np.unique(group):
        members = group == label
        top = float(scores[members].max())
        if top >= keep_above:
            boxes.append(np.concatenate([xyxy[members, :2].min(axis=0), xyxy[members, 2:].max(axis=0)]))
            best.append(top)
    order = np.argsort(-np.asarray(best), kind="stable")
    return (np.asarray(boxes, np.float32).reshape(-1, 4)[order], np.asarray(best, np.float32)[order])


def covered_by_others(xyxy: np.ndarray, order: np.ndarray, grid: int = 12) -> np.ndarray:
    """(n,) share of each box's area covered by the union of the boxes ranked before it in `order`.

    Measured on a `grid` x `grid` lattice of points inside each box, all boxes at once.
    """
    n = len(xyxy)
    coverage = np.zeros(n, dtype=np.float32)
    if n < 2:
        return coverage
    boxes = np.asarray(xyxy)[order]
    steps = (np.arange(grid) + 0.5) / grid
    x1, y1, x2, y2 = (boxes[:, k : k + 1] for k in range(4))
    xs = x1 + steps * (x2 - x1)  # (n, grid) lattice of each box, in rank order
    ys = y1 + steps * (y2 - y1)
    ox1, oy1, ox2, oy2 = (boxes[None, :, k : k + 1] for k in range(4))
    # [i, j, g]: lattice line g of box i lies within box j; only boxes j ranked before i count.
    in_x = (xs[:, None, :] >= ox1) & (xs[:, None, :] <= ox2)
    in_y = (ys[:, None, :] >= oy1) & (ys[:, None, :] <= oy2)
    before = np.tri(n, k=-1, dtype=bool)
    in_x &= before[:, :, None]
    in_y &= before[:, :, None]
    inside = np.matmul(in_y.transpose(0, 2, 1).astype(np.float32), in_x.astype(np.float32)) > 0
    coverage[order] = inside.mean(axis=(1, 2))
    return coverage


def on_rack_boxes(
    xyxy: np.ndarray,
    rack_xyxy: np.ndarray | None,
    share: float = RACK_MEMBER_OVERLAP,
    rack_quad: np.ndarray | None = None,
) -> np.ndarray:
    """(n,) whether each box lies at least `share` of its area inside one of the rack boxes, or inside the
    corners of a sloping one (`rack_quad`), as the layout counts a tile on a rack
    (`vision.racks.tiles_on_rack_boxes`)."""
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    if rack_xyxy is None or not len(rack_xyxy) or not len(xyxy):
        return np.zeros(len(xyxy), dtype=bool)
    return rack_shares(xyxy, rack_xyxy, rack_quad).max(axis=1) >= share


def between_found_tiles(xyxy: np.ndarray, found: np.ndarray) -> np.ndarray:
    """(n,) whether each box not `found` lies in a row between two found boxes, one on each side along the
    row (left and right, or above and below for a row turned upright), each as tall (or wide) as it, on its
    line, less than `ROW_GAP_MOST` of its length away, and overlapping it little (not a second box on a
    found tile)."""
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    found = np.asarray(found, bool)
    between = np.zeros(len(xyxy), bool)
    sure = xyxy[found]
    if len(sure) < 2:
        return between
    overlap = box_iou(xyxy, sure)
    for i in np.flatnonzero(~found):
        if overlap[i].max() >= 0.2:
            continue
        for axis in (0, 1):  # 0: a row across the frame, 1: a row turned upright
            along, across = axis, 1 - axis
            length = xyxy[i, along + 2] - xyxy[i, along]
            side = xyxy[i, across + 2] - xyxy[i, across]
            if length <= 0 or side <= 0:
                continue
            their_side = sure[:, across + 2] - sure[:, across]
            their_centre = (sure[:, across] + sure[:, across + 2]) / 2
            off_line = np.abs(their_centre - (xyxy[i, across] + xyxy[i, across + 2]) / 2)
            alike = (their_side >= 0.8 * side) & (their_side <= 1.25 * side)
            in_line = (off_line <= ROW_LINE_WITHIN * side) & alike
            before = xyxy[i, along] - sure[:, along + 2]
            after = sure[:, along] - xyxy[i, along + 2]
            reach = ROW_GAP_MOST * length
            if ((in_line & (before >= -0.25 * length) & (before <= reach)).any()
                    and (in_line & (after >= -0.25 * length) & (after <= reach)).any()):
                between[i] = True
                break
    return between


def tile_clusters(xyxy: np.ndarray, reach: float = SLOPED_RACK_REACH) -> list[np.ndarray]:
    """Indices of boxes chained together by centres less than `reach` typical tile sides apart (the square
    root of the median box area), each cluster in index order."""
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    n = len(xyxy)
    if n == 0:
        return []
    centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    side = float(np.sqrt(np.median((xyxy[:, 2:] - xyxy[:, :2]).prod(axis=1))))
    near = np.linalg.norm(centres[:, None] - centres[None], axis=2) < reach * side
    label = np.arange(n)
    for _ in range(n):  # labels spread along near pairs until each cluster has its smallest index
        spread = np.minimum(label, np.where(near, label[None, :], n).min(axis=1))
        if np.array_equal(spread, label):
            break
        label = spread
    return [np.flatnonzero(label == k) for k in np.unique(label)]


def sloping_line(points: np.ndarray) -> float | None:
    """Degrees [-90, 90) that the principal axis of `points` (k, 2) turns off the frame's rows (clockwise as
    seen, y pointing down), where they spread along it `SLOPED_RACK_ELONGATION` times as much as across
    (by variance) and it slopes at least `SLOPED_RACK_MIN_SLOPE`; else None."""
    centred = np.asarray(points, np.float64) - np.mean(points, axis=0)
    spread, axes = np.linalg.eigh(centred.T @ centred / max(len(centred), 1))
    if spread[1] < SLOPED_RACK_ELONGATION * max(spread[0], 1e-9):
        return None
    slope = (float(np.degrees(np.arctan2(axes[1, 1], axes[0, 1]))) + 90.0) % 180.0 - 90.0
    return slope if abs(slope) >= SLOPED_RACK_MIN_SLOPE else None


def _sloping_lines(xyxy: np.ndarray, free: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """Clusters of the boxes `free` (indices) holding `SLOPED_RACK_MIN_TILES` or more that lie along a
    sloping line (`sloping_line`), with its slope, the largest first."""
    centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    lines = []
    for cluster in tile_clusters(xyxy[free]):
        members = free[cluster]
        slope = sloping_line(centres[members]) if len(members) >= SLOPED_RACK_MIN_TILES else None
        if slope is not None:
            lines.append((members, slope))
    return sorted(lines, key=lambda line: -len(line[0]))


def _levelled_window(points: np.ndarray, slope: float, side: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The 2x3 map from the frame into a window where `points` (tile centres along a line sloping `slope`
    degrees) run level, turned about their middle, reaching `SLOPED_RACK_WINDOW_ALONG` tile sides (`side`
    pixels) beyond their ends and `SLOPED_RACK_WINDOW_ACROSS` across; and the window's (width, height)."""
    middle = points.mean(axis=0)
    level = cv2.getRotationMatrix2D((float(middle[0]), float(middle[1])), slope, 1.0)
    levelled = _mapped(points, level)
    x1 = levelled[:, 0].min() - SLOPED_RACK_WINDOW_ALONG * side
    y1 = levelled[:, 1].min() - SLOPED_RACK_WINDOW_ACROSS * side
    width = int(levelled[:, 0].max() - x1 + SLOPED_RACK_WINDOW_ALONG * side)
    height = int(levelled[:, 1].max() - y1 + SLOPED_RACK_WINDOW_ACROSS * side)
    level[:, 2] -= (x1, y1)
    return level, (width, height)


def _corners(xyxy: np.ndarray) -> np.ndarray:
    """(n, 4, 2) corners of xyxy boxes, clockwise as seen from the top left."""
    x1, y1, x2, y2 = (xyxy[:, k] for k in range(4))
    return np.stack([np.stack([x1, y1], 1), np.stack([x2, y1], 1), np.stack([x2, y2], 1),
                     np.stack([x1, y2], 1)], axis=1)


def _mapped(points: np.ndarray, affine: np.ndarray) -> np.ndarray:
    """(..., 2) points through a 2x3 affine map."""
    return points @ affine[:, :2].T + affine[:, 2]


def rack_look_window(rack: np.ndarray, width: int, height: int) -> tuple[int, int, int, int]:
    """The frame region (x1, y1, x2, y2, whole pixels) a rack's second look sees: its box widened by
    `RACK_LOOK_MARGIN` of its size on each side, inside the frame."""
    x1, y1, x2, y2 = (float(v) for v in rack)
    grow_x, grow_y = RACK_LOOK_MARGIN * (x2 - x1), RACK_LOOK_MARGIN * (y2 - y1)
    return (
        int(max(0.0, x1 - grow_x)),
        int(max(0.0, y1 - grow_y)),
        int(min(float(width), x2 + grow_x)),
        int(min(float(height), y2 + grow_y)),
    )


def sharper_boxes(found: Detections, boxes: np.ndarray, scores: np.ndarray) -> Detections:
    """`found` with each box replaced by a later look's box of the same tile that scores higher (see
    `RACK_LOOK_NEW_IOU`): a later box overlapping a found one `RACK_LOOK_NEW_IOU` or more, more than any
    other later box does, best first; the found box takes its place and score. Best first again."""
    if not len(found) or not len(boxes):
        return found
    overlap = box_iou(np.asarray(boxes, np.float64), np.asarray(found.xyxy, np.float64))
    xyxy = np.array(found.xyxy, np.float32)
    confidence = np.array(found.confidence, np.float32)
    replaced = False
    for k in np.argsort(-np.asarray(scores), kind="stable"):
        j = int(overlap[k].argmax())
        if overlap[k, j] < RACK_LOOK_NEW_IOU or (overlap[:, j] > overlap[k, j]).any():
            continue  # another tile's box, or another later box fits this one better
        if scores[k] <= confidence[j]:
            continue
        xyxy[j], confidence[j] = boxes[k], scores[k]
        replaced = True
    if not replaced:
        return found
    best_first = np.argsort(-confidence, kind="stable")
    return found.with_tiles(xyxy[best_first], confidence[best_first])


class TileDetector:
    """The one-class ONNX tile detector. Load once, call `detect` per frame."""

    def __init__(
        self,
        path: str | Path | None = None,
        confidence: float = DEFAULT_CONFIDENCE,
        iou: float = DEFAULT_IOU,
        threads: int = DEFAULT_THREADS,
        max_coverage: float = DEFAULT_MAX_COVERAGE,
        extra_looks: bool = True,
        rack_check: RackCheck | None | Literal["shipped"] = "shipped",
    ) -> None:
        """`extra_looks` False: one forward pass per frame, no look after the first (`rack_look`,
        `sloped_rack_look`, `faint_look` and `small_tiles_look` off). `rack_check`: the network that tells a
        rack box from tiles lying on the table (`vision.rack_check`): "shipped" (the shipped file where there
        is one), a `RackCheck`, or None (every rack box the detector scores high enough is a rack)."""
        self.path = Path(path) if path is not None else model_path(DETECTOR_MODEL)
        if not self.path.is_file():
            raise ModelLoadError(f"detector model not found: {self.path}")
        self.session = onnx_session(self.path, threads)
        model_input = self.session.get_inputs()[0]
        self.input_name = model_input.name
        shape = model_input.shape
        self.stride: int | None = None
        """Set for a model exported with any input size (whole strides): frames are then padded to their own
        shape, not to a square (`letterbox`)."""
        if len(shape) == 4 and isinstance(shape[2], int) and shape[2] == shape[3]:
            self.input_size: int = shape[2]
        elif len(shape) == 4 and not isinstance(shape[2], int) and not isinstance(shape[3], int):
            self.input_size, self.stride = _dynamic_size(self.session, self.path)
        else:
            raise ModelLoadError(f"{self.path}: expected a square (1, 3, S, S) input, got {shape}")
        self.class_names = _class_names(self.session)
        if "tile" not in self.class_names:
            raise ModelLoadError(f"{self.path}: no 'tile' class among {self.class_names}")
        self.tile_class = self.class_names.index("tile")
        self.rack_class = self.class_names.index("rack") if "rack" in self.class_names else None
        self.rack_confidence = _rack_confidence(self.session, self.path)
        self.rack_check = load_rack_check() if rack_check == "shipped" else rack_check
        self.rack_tile_confidence = DEFAULT_RACK_TILE_CONFIDENCE
        self.row_tile_confidence = ROW_TILE_CONFIDENCE
        self.confidence = confidence
        self.iou = iou
        self.max_coverage = max_coverage
        self.rack_look = extra_looks
        self.sloped_rack_look = extra_looks
        self.faint_look = extra_looks
        self.small_tiles_look = extra_looks
        self.small_tiles_below = STILL_SMALL_TILES_BELOW
        """Tiles under this many input pixels (the median box's long side) get the window look."""

    def for_video(self) -> TileDetector:
        """This detector as it reads a camera's or a video file's frames, a copy sharing the session: small
        tiles looked at in windows from `SMALL_TILES_BELOW` (video frames are softer than photos), and a
        model of any input size given a `VIDEO_INPUT_SIZE` square (a fixed-size model reads at its own)."""
        view = copy.copy(self)
        view.small_tiles_below = SMALL_TILES_BELOW
        if view.stride is not None:
            view.input_size, view.stride = VIDEO_INPUT_SIZE, None
        return view

    def preprocess(self, image: np.ndarray) -> tuple[np.ndarray, Letterbox]:
        return detector_input(image, self.input_size, self.stride)

    def detect(self, image: np.ndarray, confidence: float | None = None) -> Detections:
        """Tile boxes in pixels of `image` (BGR uint8, H x W x 3), best first. Sloping lines of tiles on no
        rack are looked at again levelled, for racks seen at a slant (`sloped_rack_look`), and each rack
        found is looked at again on its own, for the small tiles standing on it (`rack_look`). Two other
        looks were deleted in the thirteenth session, for they changed nothing on the hold-out or the real
        photos: a frame with few tiles looked at again shrunk (a close-up), and a frame mirrored out for racks
        cut by its edge (docs/experiments/scripts-s13/looks-figures.md)."""
        found, rack_parts, faint = self._look(image, confidence)
        if self.small_tiles_look and self._tiles_are_small(image, found):
            found = self._with_window_looks(image, found, confidence)
        elif self.faint_look and len(faint):
            found = self._with_faint_looks(image, found, faint, confidence)
        if self.sloped_rack_look and self.rack_class is not None and found.rack_xyxy is not None:
            found = self._with_sloped_racks(image, found, rack_parts)
        if self.rack_look and found.rack_xyxy is not None and len(found.rack_xyxy):
            found = self._with_rack_looks(image, found)
        return found

    def _with_sloped_racks(self, image: np.ndarray, found: Detections, rack_parts: np.ndarray) -> Detections:
        """`found` with the racks (by their corners) and their tiles that levelled looks at sloping lines of
        tiles on no rack find (see `SLOPED_RACK_MIN_TILES`). `rack_parts`: the first look's rack boxes
        scoring `RACK_PART_CONFIDENCE` (a rack found levelled must have one centred on it)."""
        xyxy = np.asarray(found.xyxy, np.float64).reshape(-1, 4)
        free = np.flatnonzero(~on_rack_boxes(xyxy, found.rack_xyxy, rack_quad=found.rack_quad))
        if len(free) < SLOPED_RACK_MIN_TILES:
            return found
        centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
        side = float(np.sqrt(np.median((xyxy[free, 2:] - xyxy[free, :2]).prod(axis=1))))
        part_middles = (rack_parts[:, :2] + rack_parts[:, 2:]) / 2
        quads, scores, boxes, box_scores = [], [], [], []
        taken = np.zeros(len(xyxy), bool)
        for members, slope in _sloping_lines(xyxy, free)[:RACK_LOOKS_AT_MOST]:
            level, (width, height) = _levelled_window(centres[members], slope, side)
            if np.ptp(_mapped(centres[members], level)[:, 1]) / side < SLOPED_RACK_MIN_TIERS_APART:
                continue  # one row: no look (its rack would not be kept)
            parts_seen = _mapped(part_middles, level)
            if not ((parts_seen >= 0) & (parts_seen < (width, height))).all(axis=1).any():
                continue  # no part of a rack in the window: no look
            view = cv2.warpAffine(image, level, (width, height), borderMode=cv2.BORDER_REFLECT)
            looked = self.detect_once(view)
            if looked.rack_xyxy is None or not len(looked.rack_xyxy):
                continue
            back = cv2.invertAffineTransform(level)
            for rack, score in zip(looked.rack_xyxy, looked.rack_confidence, strict=True):
                quad = _mapped(_corners(rack[None].astype(np.float64))[0], back)
                standing = rack_shares(xyxy, rack[None], quad[None])[:, 0] >= RACK_MEMBER_OVERLAP
                standing &= ~taken
                standing[np.setdiff1d(np.arange(len(xyxy)), members)] = False
                if standing.sum() < SLOPED_RACK_MIN_MEMBERS:
                    continue
                across = np.ptp(_mapped(centres[standing], level)[:, 1]) / side
                if across < SLOPED_RACK_MIN_TIERS_APART:  # one row: a set lying on the table, more often
                    continue
                if not inside_quads(part_middles, quad[None]).any():  # no part of a rack there at first
                    continue
                taken |= standing
                quads.append(quad)
                scores.append(float(score))
                tiles = looked.xyxy.astype(np.float64)
                cut = ((tiles[:, 0] <= 1) | (tiles[:, 1] <= 1) | (tiles[:, 2] >= width - 1)
                       | (tiles[:, 3] >= height - 1))  # a tile cut by the window's edge is the first look's
                on_it = on_rack_boxes(tiles, rack[None]) & ~cut
                boxes.append(_mapped(_corners(tiles[on_it]), back))
                box_scores.append(looked.confidence[on_it])
        if not quads:
            return found
        frame_h, frame_w = image.shape[:2]
        corners = np.asarray(quads, np.float32)
        rack_xyxy = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
        rack_xyxy[:, [0, 2]] = rack_xyxy[:, [0, 2]].clip(0, frame_w)
        rack_xyxy[:, [1, 3]] = rack_xyxy[:, [1, 3]].clip(0, frame_h)
        grown = dataclasses.replace(
            found,
            rack_xyxy=np.concatenate([found.rack_xyxy, rack_xyxy]).astype(np.float32),
            rack_confidence=np.concatenate([found.rack_confidence, np.asarray(scores, np.float32)]),
            rack_quad=np.concatenate([found.rack_quads(), corners]),
        )
        added = np.concatenate(boxes) if boxes else np.zeros((0, 4, 2))
        if not len(added):
            return grown
        new_xyxy = np.concatenate([added.min(axis=1), added.max(axis=1)], axis=1)
        new_scores = np.concatenate(box_scores)
        middle = (new_xyxy[:, :2] + new_xyxy[:, 2:]) / 2  # not from the mirrored border around the frame
        in_frame = (middle >= 0).all(axis=1) & (middle[:, 0] < frame_w) & (middle[:, 1] < frame_h)
        new_xyxy[:, [0, 2]] = new_xyxy[:, [0, 2]].clip(0, frame_w)
        new_xyxy[:, [1, 3]] = new_xyxy[:, [1, 3]].clip(0, frame_h)
        in_frame &= (new_xyxy[:, 2:] - new_xyxy[:, :2] >= 1).all(axis=1)
        new_xyxy, new_scores = new_xyxy[in_frame], new_scores[in_frame]
        kept = non_max_suppression(new_xyxy, new_scores, self.iou)
        return self._with_new_tiles(grown, new_xyxy[kept], new_scores[kept])

    def _with_rack_looks(self, image: np.ndarray, found: Detections) -> Detections:
        """`found` and the tiles a look at each rack's own region adds (see `RACK_LOOK_MARGIN`)."""
        height, width = image.shape[:2]
        added, added_scores = [], []
        upright = np.isnan(found.rack_quads()).any(axis=(1, 2))  # a sloping rack had its levelled look
        best_first = [k for k in np.argsort(-np.asarray(found.rack_confidence, np.float64), kind="stable")
                      if upright[k]]
        for rack in np.asarray(found.rack_xyxy, np.float64)[best_first[:RACK_LOOKS_AT_MOST]]:
            x1, y1, x2, y2 = rack_look_window(rack, width, height)
            if x2 - x1 < 16 or y2 - y1 < 16:
                continue
            # A tile cut by the window's edge is the first look's to find.
            boxes, scores, cut = self._window_look(image, (x1, y1, x2, y2), self.rack_tile_confidence)
            keep = on_rack_boxes(boxes, rack[None]) & ~cut
            added.append(boxes[keep])
            added_scores.append(scores[keep])
        if not added:
            return found
        boxes, scores = np.concatenate(added), np.concatenate(added_scores)
        kept = non_max_suppression(boxes, scores, self.iou)
        found = sharper_boxes(found, boxes[kept], scores[kept])
        return self._with_new_tiles(found, boxes[kept], scores[kept])

    def _window_look(self, image: np.ndarray, window: tuple[int, int, int, int], confidence: float | None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One look at `window` (x1, y1, x2, y2) of the frame: its tile boxes in frame pixels, their scores,
        and which of them touch one of the window's edges that lie inside the frame."""
        x1, y1, x2, y2 = window
        height, width = image.shape[:2]
        looked = self.detect_once(np.ascontiguousarray(image[y1:y2, x1:x2]), confidence)
        boxes = looked.xyxy + np.array([x1, y1, x1, y1], np.float32)
        cut = (
            ((boxes[:, 0] <= x1 + 1) & (x1 > 0))
            | ((boxes[:, 1] <= y1 + 1) & (y1 > 0))
            | ((boxes[:, 2] >= x2 - 1) & (x2 < width))
            | ((boxes[:, 3] >= y2 - 1) & (y2 < height))
        )
        return boxes, looked.confidence, cut

    def _tiles_are_small(self, image: np.ndarray, found: Detections) -> bool:
        """Whether the median found tile's long side is under `small_tiles_below` input pixels."""
        if len(found) < 3:
            return False
        long_sides = (found.xyxy[:, 2:] - found.xyxy[:, :2]).max(axis=1)
        to_input = self.input_size / max(image.shape[:2])
        return float(np.median(long_sides)) * to_input < self.small_tiles_below

    def _with_window_looks(self, image: np.ndarray, found: Detections,
                           confidence: float | None) -> Detections:
        """`found` and the tiles four overlapping windows at the frame's corners find (see
        `SMALL_TILES_BELOW`): new ones added, a better-scored box of a tile taking the first look's place."""
        height, width = image.shape[:2]
        window_w, window_h = round(SMALL_TILES_WINDOW * width), round(SMALL_TILES_WINDOW * height)
        added, added_scores = [], []
        for x1 in (0, width - window_w):
            for y1 in (0, height - window_h):
                # A tile cut by a window's inner edge is whole in the window beside it.
                window = (x1, y1, x1 + window_w, y1 + window_h)
                boxes, scores, cut = self._window_look(image, window, confidence)
                added.append(boxes[~cut])
                added_scores.append(scores[~cut])
        boxes, scores = np.concatenate(added), np.concatenate(added_scores)
        if not len(boxes):
            return found
        kept = non_max_suppression(boxes, scores, self.iou)
        found = sharper_boxes(found, boxes[kept], scores[kept])
        return self._with_new_tiles(found, boxes[kept], scores[kept])

    def _with_faint_looks(self, image: np.ndarray, found: Detections, faint: np.ndarray,
                          confidence: float | None) -> Detections:
        """`found` and the faint boxes (rows x1, y1, x2, y2, score, best first) a closer look confirms (see
        `FAINT_TILE_FROM`)."""
        height, width = image.shape[:2]
        side = max(16, round(FAINT_LOOK_SHARE * max(width, height)))
        threshold = self.confidence if confidence is None else confidence
        looked_at: list[tuple[int, int, int, int]] = []
        added, added_scores = [], []
        for box in faint[:, :4]:
            if len(looked_at) >= FAINT_LOOKS_AT_MOST:
                break
            middle = (box[:2] + box[2:]) / 2
            edge = 0.1 * side  # a box near a window's edge is looked at again, from its own window
            if any(x1 + edge <= middle[0] <= x2 - edge and y1 + edge <= middle[1] <= y2 - edge
                   for x1, y1, x2, y2 in looked_at):
                continue
            x1 = int(np.clip(round(middle[0] - side / 2), 0, max(0, width - side)))
            y1 = int(np.clip(round(middle[1] - side / 2), 0, max(0, height - side)))
            x2, y2 = min(width, x1 + side), min(height, y1 + side)
            looked_at.append((x1, y1, x2, y2))
            boxes, scores, _ = self._window_look(image, (x1, y1, x2, y2), threshold)
            if not len(boxes):
                continue
            inside = ((faint[:, 0] >= x1) & (faint[:, 1] >= y1) & (faint[:, 2] <= x2) & (faint[:, 3] <= y2))
            if not inside.any():
                continue
            overlap = box_iou(boxes, faint[inside, :4])
            confirmed = overlap.max(axis=1) >= FAINT_LOOK_CONFIRM_IOU
            added.append(boxes[confirmed])
            added_scores.append(scores[confirmed])
        if not added:
            return found
        boxes, scores = np.concatenate(added), np.concatenate(added_scores)
        if not len(boxes):
            return found
        kept = non_max_suppression(boxes, scores, self.iou)
        return self._with_new_tiles(found, boxes[kept], scores[kept])

    def _with_new_tiles(self, found: Detections, boxes: np.ndarray, scores: np.ndarray) -> Detections:
        """`found` and those of a later look's tile `boxes` (frame pixels, after their own NMS) that no box
        of `found` overlaps `RACK_LOOK_NEW_IOU`, best first (`found`'s boxes are kept as they are)."""
        if len(found) and len(boxes):
            new = box_iou(boxes, found.xyxy).max(axis=1) < RACK_LOOK_NEW_IOU
            boxes, scores = boxes[new], scores[new]
        if not len(boxes):
            return found
        xyxy = np.concatenate([found.xyxy, boxes]).astype(np.float32)
        confidence = np.concatenate([found.confidence, scores]).astype(np.float32)
        best_first = np.argsort(-confidence, kind="stable")  # as `detect` promises
        return found.with_tiles(xyxy[best_first], confidence[best_first])

    def detect_once(self, image: np.ndarray, confidence: float | None = None) -> Detections:
        return self._look(image, confidence)[0]

    def _look(self, image: np.ndarray, confidence: float | None = None
              ) -> tuple[Detections, np.ndarray, np.ndarray]:
        """One forward pass: the detections, every rack box scoring `RACK_PART_CONFIDENCE` before the parts
        are joined and weak racks dropped ((0, 4) for a detector without racks), and the faint tile boxes
        left out ((k, 5): x1, y1, x2, y2, score from `FAINT_TILE_FROM`, best first)."""
        tensor, geometry = self.preprocess(image)
        (raw,) = self.session.run(None, {self.input_name: tensor})
        return self._postprocess(raw, geometry, image.shape[:2], confidence, image)

    def postprocess(
        self,
        raw: np.ndarray,
        geometry: Letterbox,
        frame_hw: tuple[int, int],
        confidence: float | None = None,
        image: np.ndarray | None = None,
    ) -> Detections:
        """The detections in a forward pass's output `raw`; with the `image` looked at, its rack boxes are
        checked by the rack check."""
        return self._postprocess(raw, geometry, frame_hw, confidence, image)[0]

    def _postprocess(
        self,
        raw: np.ndarray,
        geometry: Letterbox,
        frame_hw: tuple[int, int],
        confidence: float | None = None,
        image: np.ndarray | None = None,
    ) -> tuple[Detections, np.ndarray, np.ndarray]:
        threshold = self.confidence if confidence is None else confidence
        rows = raw[0].T  # (N, 4 + classes)
        racks = None
        rack_boxes = np.zeros((0, 4), np.float32)
        if self.rack_class is not None:
            rack_boxes, rack_scores, _ = self._boxes_of(
                rows, self.rack_class, min(RACK_PART_CONFIDENCE, self.rack_confidence), geometry, frame_hw
            )
            racks = join_rack_parts(rack_boxes, rack_scores, keep_above=self.rack_confidence)
            if self.rack_check is not None and image is not None and len(racks[0]):
                is_rack = self.rack_check.racks(image, racks[0])
                racks = (racks[0][is_rack], racks[1][is_rack])
        found_racks = racks is not None and len(racks[0]) > 0
        lowest = min(threshold, self.rack_tile_confidence) if found_racks else threshold
        lowest = min(lowest, self.row_tile_confidence, FAINT_TILE_FROM)
        boxes, scores, held = self._boxes_of(
            rows, self.tile_class, lowest, geometry, frame_hw, self.max_coverage
        )
        # NMS is greedy by score, so the boxes above `threshold` are those a search from `threshold` keeps.
        kept = (scores >= threshold) | on_rack_boxes(boxes, racks[0] if racks is not None else None)
        kept |= (scores >= self.row_tile_confidence) & between_found_tiles(boxes, kept & ~held)
        kept &= (boxes[:, 2] - boxes[:, 0] >= 1) & (boxes[:, 3] - boxes[:, 1] >= 1)
        found = Detections(
            xyxy=boxes[kept & ~held],
            confidence=scores[kept & ~held],
            rack_xyxy=None if racks is None else racks[0],
            rack_confidence=None if racks is None else racks[1],
            held_xyxy=boxes[kept & held],
            held_confidence=scores[kept & held],
        )
        faint = np.flatnonzero(~kept & ~held & (scores >= FAINT_TILE_FROM))
        faint = faint[np.argsort(-scores[faint], kind="stable")]
        return found, rack_boxes, np.concatenate([boxes[faint], scores[faint, None]], axis=1)

    def _boxes_of(
        self,
        rows: np.ndarray,
        class_index: int,
        threshold: float,
        geometry: Letterbox,
        frame_hw: tuple[int, int],
        max_coverage: float = 2.0,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes (frame pixels, clipped) and scores of one class after its own NMS, and which of them are
        held back: with `max_coverage` <= 1, a box that much covered by better-scored ones and scoring
        under `KEEP_COVERED_ABOVE`."""
        scores = rows[:, 4 + class_index]
        keep = scores >= threshold
        rows, scores = rows[keep], scores[keep]
        xyxy = np.concatenate([rows[:, :2] - rows[:, 2:4] / 2, rows[:, :2] + rows[:, 2:4] / 2], axis=1)
        kept = non_max_suppression(xyxy, scores, self.iou)
        held = np.zeros(len(kept), bool)
        if max_coverage <= 1.0 and len(kept) > 1:
            covered = covered_by_others(xyxy[kept], np.arange(len(kept))) >= max_coverage
            held = covered & (scores[kept] < KEEP_COVERED_ABOVE)
        boxes = geometry.to_frame(xyxy[kept])
        height, width = frame_hw
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, width)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, height)
        return boxes.astype(np.float32), scores[kept].astype(np.float32), held


def _dynamic_size(session: Any, path: Path) -> tuple[int, int]:
    """(the long side frames are scaled to, the stride sides are padded to) of a model exported with any
    input size: from ultralytics' ONNX metadata (`imgsz`, `stride`)."""
    import ast

    meta = session.get_modelmeta().custom_metadata_map
    try:
        imgsz = ast.literal_eval(meta.get("imgsz", ""))
        stride = int(meta.get("stride", "32"))
        size = int(max(imgsz) if isinstance(imgsz, (list, tuple)) else imgsz)
    except (ValueError, SyntaxError, TypeError) as error:
        raise ModelLoadError(f"{path}: a model of any input size needs 'imgsz' in its metadata") from error
    if size <= 0 or stride <= 0 or size % stride:
        raise ModelLoadError(f"{path}: input size {size} is not a whole number of strides ({stride})")
    return size, stride


def _rack_confidence(session: Any, path: Path) -> float:
    """The rack threshold the model file was shipped with (`rack_confidence` metadata), else the default."""
    value = session.get_modelmeta().custom_metadata_map.get("rack_confidence")
    if value is None:
        return DEFAULT_RACK_CONFIDENCE
    try:
        threshold = float(value)
    except ValueError as error:
        raise ModelLoadError(f"{path}: its 'rack_confidence' is no number: {value!r}") from error
    if not 0.0 < threshold < 1.0:
        raise ModelLoadError(f"{path}: its 'rack_confidence' must lie between 0 and 1, not {threshold}")
    return threshold


def _class_names(session: Any) -> list[str]:
    """The detector's classes from ultralytics' ONNX metadata (`{0: 'tile', 1: 'rack'}`); none: 'tile'."""
    import ast

    names = session.get_modelmeta().custom_metadata_map.get("names")
    if not names:
        return ["tile"]
    try:
        parsed = ast.literal_eval(names)
    except (ValueError, SyntaxError) as error:
        raise ModelLoadError(f"detector metadata 'names' cannot be read: {names!r}") from error
    return [str(parsed[k]) for k in sorted(parsed)]
