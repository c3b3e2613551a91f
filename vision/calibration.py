"""Calibration from photos of the player's own table and tiles (`rummi calibrate`, issue 15).

- An empty table: whatever the reader finds on the bare cloth is not a tile. The crops it finds there (at a
  low detector score, each also turned and rescaled) are kept as descriptors: the classifier's centred
  log-probabilities, which place texture far from tile faces. A later detection closer than `false_radius`
  to one of them, and not read with confidence `keep_above`, is dropped. The radius is set from tile
  faces drawn on this very cloth (`datasets.tile_face`) and, given a tile photo, the set's own tiles: just
  under their distance to the cloth, so real tiles are kept.
- A tile photo: every tile's identity is known from the layout (rows in reading order). The set's ink
  colours are measured on the crops and compared with the inks the classifier was trained on (measured the
  same way on drawn faces); where recolouring crops from one to the other reads the photo's tiles better,
  the profile maps inks at read time (cyan -> royal blue, yellow -> orange), and a tile is read both ways,
  the more confident reading winning.

This module fits the profile; `vision.profiled` applies it to each read, so a read loads none of this.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from assistant.tiles import COLORS, JOKER, NUMBERS, Color, Tile, class_id, format_tiles
from vision.classifier import TileClassifier
from vision.crops import cut_crops
from vision.detections import Detections
from vision.profile import COLOR_NAMES, Ink, Profile
from vision.profiled import describe_crops, model_versions, nearest_distance, read_crops_profiled

STANDARD_LAYOUT: list[list[Tile]] = [[Tile(c, n) for n in NUMBERS] for c in COLORS] + [[JOKER, JOKER]]
"""The calibration layout: one row per colour (black, blue, red, orange) 1-13, then the two jokers."""

FIND_SCORE = 0.1
"""Detector score down to which the bare table's finds are learned (lower than any reading uses)."""
KEEP_ABOVE = 0.95
"""A detection read this confidently is a tile, however close it is to the cloth's finds."""
RADIUS_SHARE = 0.75
"""The radius is this share of the distance from the cloth's finds to the nearest tile face."""
SYNTHETIC_FACES = 240
MAX_FALSE_DESCRIPTORS = 1200
MAX_MIN_SCORE = 0.45
"""A per-table detector threshold is learned only where it clears every false find at or under this: on
rendered tables a threshold of 0.5 cost 12 % of the tiles of some tables (true tiles score 0.2-0.95)."""
LOWEST_MIN_SCORE = 0.2
"""Where the bare table gives the reader nothing down to this detector score (in the photo, farther away
and closer: `table_views`), tiles on it are looked for from this score up (or just above the bare table's
best find). Held-out edition on held-out twill, 68 photos: recall 0.906 at the reader's 0.4, 0.9515 at 0.2,
0.9569 at 0.1, precision 0.998, 0.9975, 0.9968: below 0.2 little is gained and false tiles grow."""
INK_SATURATION = 0.3
"""Pixels more saturated than this are coloured ink (the ivory body is about 0.15)."""
LEAST_SAME_NUMBER = 1 / 3
LEAST_SAME_COLOUR = 1 / 2
"""A tile photo cannot be its layout when fewer than `LEAST_SAME_NUMBER` of its tiles read with the layout's
number and fewer than `LEAST_SAME_COLOUR` with its colour. Either alone may fail for a set the reader misreads
(its inks, its font), which calibration is for. Measured with the calibration layout: the photo's own layout
agrees 0.96-1.0 in number and 1.0 in colour (held-out inks and narrow fonts rendered, real-dev rummy-3 and
rummy-4; rummy-2, whose black row is labelled blue, 0.76 in colour); 300 shuffles of it (same row lengths)
agree at most 0.22 in number and 0.44 in colour (mean 0.07 and 0.23): a third for the colour too would let
some through."""
ROW_READS_AS = 2 / 3
"""A row of one colour "reads as" another colour when at least this share of its tiles read in that colour.
A tile photo whose rows read as the layout's colours in another order (rows blue, red, orange, black laid
for black, blue, red, orange: real-dev rummy-2, -3 and -4, every tile of the four rows) is refused
(`check_row_order`); a misread ink (cyan read as black) reads one colour for two rows, not another order."""
SURE_READ_ABOVE = 0.9
SURE_NOT_A_TILE_BELOW = 0.2
MOST_SURE_TILES_ON_BARE_TABLE = 2
"""A photo given as the bare table is refused where the plain reader reads more than this many tiles surely
(confidence `SURE_READ_ABOVE` or more, "not a tile" under `SURE_NOT_A_TILE_BELOW`): they are tiles, and
learning them as the cloth costs real tiles. Bare tables rendered (the 4 of runs/eval, 10 more of held-out
editions and cloths, 40 held-out empty scenes with cards and score pads) and the 93 real-dev photos with
their tiles painted out: none read surely; the 93 real-dev photos of tiles: 3 to 54 each."""


class CalibrationError(ValueError):
    """A calibration photo cannot be used: the message says what did not match."""


class BareTableError(CalibrationError):
    """A photo given as the bare table shows tiles (`MOST_SURE_TILES_ON_BARE_TABLE`)."""

    def __init__(self, photo: int, tiles: int) -> None:
        self.photo = photo
        """Which of the bare-table photos, from 0."""
        self.tiles = tiles
        super().__init__(f"{tiles} tiles found on it: this needs a photo of the bare table, with no tiles")


# --------------------------------------------------------------------------------------------- descriptors


def _scaled_boxes(boxes: np.ndarray, factor: float, frame_hw: tuple[int, int]) -> np.ndarray:
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
    half = (boxes[:, 2:] - boxes[:, :2]) / 2 * factor
    out = np.concatenate([centre - half, centre + half], axis=1)
    height, width = frame_hw
    out[:, [0, 2]] = out[:, [0, 2]].clip(0, width)
    out[:, [1, 3]] = out[:, [1, 3]].clip(0, height)
    return out[(out[:, 2] - out[:, 0] >= 2) & (out[:, 3] - out[:, 1] >= 2)]


def table_views(frame: np.ndarray) -> list[np.ndarray]:
    """The bare table as seen from further away and closer: the photo, a 2x2 mosaic of it (the cloth's
    pattern at half the size in the detector's input) and its middle at 1.6x (the pattern larger)."""
    height, width = frame.shape[:2]
    mosaic = np.concatenate([np.concatenate([frame, frame[:, ::-1]], axis=1)] * 2, axis=0)
    mosaic[height:] = mosaic[height:][::-1]
    h, w = int(height / 1.6), int(width / 1.6)
    top, left = (height - h) // 2, (width - w) // 2
    return [frame, mosaic, np.ascontiguousarray(frame[top : top + h, left : left + w])]


def cloth_crops(reader: object, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What the reader finds on a bare table, seen at three scales (`table_views`): (crops with their
    turned and rescaled copies, the detector scores of the finds in the photo as given)."""
    classifier: TileClassifier = reader.classifier  # type: ignore[attr-defined]
    parts = []
    scores = np.zeros(0, np.float32)
    detector = reader.detector  # type: ignore[attr-defined]
    for number, view in enumerate(table_views(frame)):
        # Without the coverage pass: it is quadratic in the finds, and at this score there are thousands.
        coverage, detector.max_coverage = detector.max_coverage, 2.0
        try:
            found = detector.detect(view, FIND_SCORE)
        finally:
            detector.max_coverage = coverage
        if number == 0:
            scores = found.confidence
        if len(found) == 0:
            continue
        for factor in (1.0, 0.8, 1.25):
            scaled = _scaled_boxes(found.xyxy, factor, view.shape[:2])
            crops = cut_crops(view, scaled, size=classifier.crop_size, margin=classifier.crop_margin)
            parts.append(crops)
            if factor == 1.0:
                parts.extend(np.rot90(crops, k, axes=(1, 2)) for k in (1, 2, 3))
    if not parts:
        return np.zeros((0, classifier.crop_size, classifier.crop_size, 3), np.uint8), scores
    return np.ascontiguousarray(np.concatenate(parts)), scores


def synthetic_tile_crops(
    background_crops: np.ndarray, count: int, rng: np.random.Generator
) -> tuple[np.ndarray, list[Tile]]:
    """Tile faces of the usual print (`datasets.tile_face`) laid on patches of the cloth, cut as crops."""
    from datasets.tile_face import Edition, render_face

    size = background_crops.shape[1]
    inner = int(round(size / 1.16))
    offset = (size - inner) // 2
    crops = np.empty((count, size, size, 3), np.uint8)
    tiles: list[Tile] = []
    classes = [Tile(c, n) for c in COLORS for n in NUMBERS] + [JOKER]
    for k in range(count):
        # Editions of the training mix, other inks and fonts included: faces unlike the usual print are
        # tiles too (on rendered tables this kept a third of the tiles the usual print alone lost).
        edition = Edition.sample(rng, "train", other=0.6)
        tile = classes[k % len(classes)]
        face, alpha = render_face(tile, edition, 96, rng)
        face = cv2.resize(face, (inner, inner), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, (inner, inner), interpolation=cv2.INTER_AREA)[:, :, None]
        base = background_crops[int(rng.integers(0, len(background_crops)))].astype(np.float32) / 255.0
        patch = base[offset : offset + inner, offset : offset + inner]
        base[offset : offset + inner, offset : offset + inner] = patch * (1 - alpha) + face * alpha
        base = cv2.GaussianBlur(base, (0, 0), float(rng.uniform(0.3, 1.0)))
        crops[k] = np.clip(base * 255.0 + 0.5, 0, 255).astype(np.uint8)
        tiles.append(tile)
    return crops, tiles


# --------------------------------------------------------------------------------------------- inks


def ink_pixels(crop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """HSV (hue degrees, s, v 0-1) of the face's coloured-ink pixels and of its dark-ink pixels."""
    size = crop.shape[0]
    inner = crop[size // 6 : size - size // 6, size // 6 : size - size // 6]
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV_FULL).reshape(-1, 3).astype(np.float32)
    hsv[:, 0] *= 360.0 / 256.0
    hsv[:, 1:] /= 255.0
    body = np.percentile(hsv[:, 2], 85)
    coloured = hsv[(hsv[:, 1] > INK_SATURATION) & (hsv[:, 2] > 0.25 * body)]
    dark = hsv[hsv[:, 2] < 0.55 * body]
    return coloured, dark


def measure_ink(crops: Sequence[np.ndarray], colour: Color) -> Ink | None:
    """The mean ink of tiles of one colour: circular mean hue, median saturation and value."""
    pixels = []
    for crop in crops:
        coloured, dark = ink_pixels(crop)
        pixels.append(dark if colour is Color.BLACK else coloured)
    if not pixels:
        return None
    stack = np.concatenate(pixels)
    if len(stack) < 20:
        return None
    angles = np.deg2rad(stack[:, 0])
    hue = math.degrees(math.atan2(float(np.sin(angles).mean()), float(np.cos(angles).mean()))) % 360.0
    return Ink(hue, float(np.median(stack[:, 1])), float(np.median(stack[:, 2])))


def reference_inks(rng: np.random.Generator, size: int) -> dict[str, Ink]:
    """The inks the classifier was trained on, measured on drawn faces of the usual print."""
    from datasets.tile_face import Edition, render_face

    crops: dict[Color, list[np.ndarray]] = {c: [] for c in COLORS}
    inner = int(round(size / 1.16))
    offset = (size - inner) // 2
    for k in range(24):
        colour = COLORS[k % 4]
        edition = Edition.sample(rng, "train", other=0.0)
        face, alpha = render_face(Tile(colour, int(rng.integers(1, 14))), edition, 96, rng)
        canvas = np.full((size, size, 3), 0.35, np.float32)
        face = cv2.resize(face, (inner, inner), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, (inner, inner), interpolation=cv2.INTER_AREA)[:, :, None]
        region = canvas[offset : offset + inner, offset : offset + inner]
        canvas[offset : offset + inner, offset : offset + inner] = region * (1 - alpha) + face * alpha
        crops[colour].append(np.clip(canvas * 255 + 0.5, 0, 255).astype(np.uint8))
    inks = {}
    for colour in COLORS:
        ink = measure_ink(crops[colour], colour)
        if ink is not None:
            inks[COLOR_NAMES[COLORS.index(colour)]] = ink
    return inks


# --------------------------------------------------------------------------------------------- layouts


def _row_name(row: list[Tile]) -> str:
    if all(t.is_joker for t in row):
        return "jokers"
    colours = {t.color for t in row}
    if len(colours) == 1 and None not in colours:
        return COLOR_NAMES[COLORS.index(next(iter(colours)))]  # type: ignore[arg-type]
    return format_tiles(row)


def _tiles_up(detections: Detections) -> float:
    """The tiles' mean up direction in radians (counter-clockwise, 0 upright; 0 where not read)."""
    if not detections.is_read.any():
        return 0.0
    angles = np.deg2rad(detections.angle.astype(np.float64))
    return math.atan2(float(np.sin(angles).mean()), float(np.cos(angles).mean()))


def _row_frame(
    detections: Detections, theta: float | None = None
) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Each detection's position along the rows (direction `theta`, default the tiles' right) and down
    them, the tile height and width."""
    theta = _tiles_up(detections) if theta is None else theta
    centres = (detections.xyxy[:, :2] + detections.xyxy[:, 2:]) / 2
    right = np.array([math.cos(theta), -math.sin(theta)])
    up = np.array([-math.sin(theta), -math.cos(theta)])
    along = centres @ right
    down = -(centres @ up)
    sizes = detections.xyxy[:, 2:] - detections.xyxy[:, :2]
    cos, sin = abs(math.cos(theta)), abs(math.sin(theta))
    heights = sizes[:, 1] * cos + sizes[:, 0] * sin  # the box's extent along the tiles' up
    widths = sizes[:, 0] * cos + sizes[:, 1] * sin
    return along, down, float(np.median(heights)), float(np.median(widths))


def in_rows(detections: Detections) -> np.ndarray:
    """(n,) bool: the detection has a neighbour beside it in its row, about a tile's width away (what lies
    in the calibration rows; stray finds on the cloth mostly do not)."""
    if len(detections) < 2:
        return np.zeros(len(detections), bool)
    along, down, height, width = _row_frame(detections)
    step = np.abs(along[:, None] - along[None, :])
    beside = (
        np.abs(down[:, None] - down[None, :]) < 0.3 * height) & (step > 0.6 * width) & (step < 1.5 * width
    )
    return beside.any(axis=1)


def rows_in_photo(detections: Detections, reach: float = 2.6, rise: float = 0.5) -> list[list[int]]:
    """Detections grouped into rows, top row first, each left to right along the tiles' own right.

    A row is a chain of neighbours side by side (each linked to the nearest tile on its right within
    `reach` tile widths and `rise` tile heights up or down), so rows that bend or slope across the photo, or
    have gaps, still come out whole; rows are then ordered by their mean height along the tiles' up.
    """
    if len(detections) == 0:
        return []
    rows = _chains(detections, reach, rise, _tiles_up(detections))
    direction = _rows_direction(detections, rows)
    if direction is not None:  # rows may slope across the tiles' own right: follow the rows' own direction
        rows = _chains(detections, reach, rise, direction)
    _, down, _, _ = _row_frame(detections)
    return sorted(rows, key=lambda row: float(np.mean(down[row])))


def _rows_direction(detections: Detections, rows: list[list[int]]) -> float | None:
    """The rows' own direction (radians, as `_tiles_up`) from the links between neighbours; None with
    fewer than 3 links."""
    centres = (detections.xyxy[:, :2] + detections.xyxy[:, 2:]) / 2
    pairs = [(a, b) for row in rows for a, b in zip(row[:-1], row[1:], strict=True)]
    links = np.array([centres[b] - centres[a] for a, b in pairs]).reshape(-1, 2)
    if len(links) < 3:
        return None
    return math.atan2(-float(links[:, 1].sum()), float(links[:, 0].sum()))


def joined_rows(
    detections: Detections, rows: list[list[int]], wanted: int, reach: float = 2.6, rise: float = 0.5
) -> list[list[int]]:
    """`rows` with pieces joined until there are `wanted`: the shortest row joins the row it continues
    (its end within `reach` tile widths before or after that row's end, up or down at most `rise` tile
    heights), nearest first. A chain breaks where the detector gave a tile a box too wide, so that it
    overlaps its neighbour (a held-out cloth: 12 + 1 tiles for one row)."""
    theta = _rows_direction(detections, rows)
    along, down, height, width = _row_frame(detections, theta)
    rows = [list(row) for row in rows]
    while len(rows) > wanted:
        piece = min(range(len(rows)), key=lambda k: len(rows[k]))
        best: tuple[float, int, bool] | None = None
        for k, row in enumerate(rows):
            if k == piece:
                continue
            for piece_first in (True, False):
                a, b = (rows[piece][-1], row[0]) if piece_first else (row[-1], rows[piece][0])
                gap, step = float(along[b] - along[a]), float(abs(down[b] - down[a]))
                if -0.5 * width < gap < reach * width and step < rise * height:
                    cost = abs(gap) + step
                    if best is None or cost < best[0]:
                        best = (cost, k, piece_first)
        if best is None:
            break
        _, k, piece_first = best
        merged = rows[piece] + rows[k] if piece_first else rows[k] + rows[piece]
        rows = [row for i, row in enumerate(rows) if i not in (piece, k)] + [merged]
    return sorted(rows, key=lambda row: float(np.mean(down[row])))


def _chains(detections: Detections, reach: float, rise: float, theta: float) -> list[list[int]]:
    along, down, height, width = _row_frame(detections, theta)
    n = len(detections)
    dx = along[None, :] - along[:, None]  # [i, j]: how far j lies to the right of i
    dy = np.abs(down[None, :] - down[:, None])
    candidate = (dx > 0.4 * width) & (dx < reach * width) & (dy < rise * height)
    cost = np.where(candidate, dx + dy, np.inf)
    right = np.where(np.isfinite(cost.min(axis=1)), cost.argmin(axis=1), -1)
    left = np.where(np.isfinite(cost.min(axis=0)), cost.argmin(axis=0), -1)
    nxt = [int(j) if j >= 0 and left[j] == i else -1 for i, j in enumerate(right)]
    has_left = {j for j in nxt if j >= 0}
    rows = []
    for start in range(n):
        if start in has_left:
            continue
        row, i = [start], nxt[start]
        while i >= 0 and len(row) <= n:
            row.append(i)
            i = nxt[i]
        rows.append(row)
    return rows


ROW_READINGS = ((2.6, 0.5, False), (2.6, 0.5, True), (4.0, 0.7, False), (4.0, 0.7, True))
"""Ways to find the rows, tried in turn: (reach, rise, leave out tiles alone when the layout has no
single-tile row). The first says what did not match when none does."""


def match_layout(detections: Detections, layout: list[list[Tile]]) -> list[tuple[int, Tile]]:
    """Pair each detection with its tile of `layout` (rows in reading order).

    Raises:
        CalibrationError: the rows found do not match the layout (the message says which and how).
    """
    first: CalibrationError | None = None
    for reach, rise, drop_alone in ROW_READINGS:
        rows = rows_in_photo(detections, reach, rise)
        if drop_alone and all(len(row) > 1 for row in layout):
            rows = [row for row in rows if len(row) > 1]
        try:
            return _pair_rows(rows, layout)
        except CalibrationError as error:
            first = first or error
        if len(rows) > len(layout):
            try:
                return _pair_rows(joined_rows(detections, rows, len(layout), reach, rise), layout)
            except CalibrationError:
                pass
    assert first is not None
    raise first


def _pair_rows(rows: list[list[int]], layout: list[list[Tile]]) -> list[tuple[int, Tile]]:
    problems = []
    lengths = ", ".join(str(len(r)) for r in layout)
    if not rows:
        raise CalibrationError(f"no tiles found, {len(layout)} row(s) expected ({lengths} tiles)")
    if len(rows) != len(layout):
        counts = ", ".join(str(len(r)) for r in rows)
        raise CalibrationError(
            f"found {len(rows)} rows of tiles ({counts} tiles), {len(layout)} expected ({lengths} tiles)"
        )
    for number, (found, expected) in enumerate(zip(rows, layout, strict=True), start=1):
        if len(found) != len(expected):
            problems.append(
                f"row {number} ({_row_name(expected)}) has {len(found)} tiles, {len(expected)} expected"
            )
    if problems:
        raise CalibrationError("; ".join(problems))
    pairs = []
    for found, expected in zip(rows, layout, strict=True):
        pairs.extend(zip(found, expected, strict=True))
    return pairs


# --------------------------------------------------------------------------------------------- learning


@dataclass
class TilePhotoSample:
    """The crops of one tile photo with the tiles the layout says they are."""

    crops: np.ndarray
    tiles: list[Tile]
    boxes: np.ndarray


def read_tile_photo(reader: object, frame: np.ndarray, layout: list[list[Tile]]) -> TilePhotoSample:
    """Find the layout's tiles in a photo.

    Raises:
        CalibrationError: the tiles found do not match the layout.
    """
    from vision.detector import DEFAULT_CONFIDENCE

    classifier: TileClassifier = reader.classifier  # type: ignore[attr-defined]
    error: CalibrationError | None = None
    learned = reader.profile  # type: ignore[attr-defined]
    attempts = [(learned, score) for score in (DEFAULT_CONFIDENCE, 0.25, 0.55)]
    if learned is not None:  # the cloth's profile may also have dropped a tile of the layout
        attempts += [(None, DEFAULT_CONFIDENCE), (None, 0.25)]
    pairs = None
    unlike: CalibrationError | None = None  # rows that match, of tiles that read as others
    try:
        for profile, score in attempts:
            reader.use_profile(profile)  # type: ignore[attr-defined]
            everything = reader.read(frame, score)  # type: ignore[attr-defined]
            for only_rows in (False, True):
                found = everything[in_rows(everything)] if only_rows else everything
                try:
                    pairs = match_layout(found, layout)
                except CalibrationError as failed:
                    error = error or failed
                    continue
                try:
                    check_readings(found.tiles(), pairs, layout)
                    break
                except CalibrationError as failed:
                    unlike, pairs = unlike or failed, None
            if pairs is not None:
                break
    finally:
        reader.use_profile(learned)  # type: ignore[attr-defined]
    if pairs is None:
        failure = unlike or error
        assert failure is not None
        raise failure
    indices = [i for i, _ in pairs]
    boxes = found.xyxy[indices]
    crops = cut_crops(frame, boxes, size=classifier.crop_size, margin=classifier.crop_margin)
    return TilePhotoSample(crops, [t for _, t in pairs], boxes)


def check_readings(
    readings: Sequence[Tile | None], pairs: Sequence[tuple[int, Tile]], layout: list[list[Tile]]
) -> None:
    """Refuse a photo whose tiles read so unlike the layout that it cannot be that layout
    (`LEAST_SAME_NUMBER`, `LEAST_SAME_COLOUR`). `readings`: what each detection reads as (None: unread);
    `pairs`: (detection, the layout's tile), in the layout's reading order. A joker's number and colour are
    its own: a joker agrees with a joker only. A photo that could be its layout is then checked for rows
    in another order (`check_row_order`).

    Raises:
        CalibrationError: the message gives both counts and the first tile that reads otherwise.
        RowOrderError: rows read as the layout's colours in another order.
    """
    read = [readings[i] for i, _ in pairs]
    wanted = [t for _, t in pairs]
    same_number = sum(r is not None and r.number == t.number for r, t in zip(read, wanted, strict=True))
    same_colour = sum(r is not None and r.color == t.color for r, t in zip(read, wanted, strict=True))
    total = len(pairs)
    if same_number >= LEAST_SAME_NUMBER * total or same_colour >= LEAST_SAME_COLOUR * total:
        check_row_order(readings, pairs, layout)
        return
    places = [(row, place) for row, tiles in enumerate(layout, start=1) for place in range(1, len(tiles) + 1)]
    first = next(k for k, (r, t) in enumerate(zip(read, wanted, strict=True)) if r != t)
    row, place = places[first]
    reading = "is not read" if read[first] is None else f"reads {read[first]}"
    raise CalibrationError(
        f"its tiles read as other tiles: {same_number} of {total} with the layout's number, {same_colour} "
        f"with its colour (row {row}, tile {place} {reading}, the layout says {wanted[first]})"
    )


class RowOrderError(CalibrationError):
    """A tile photo whose rows lie in another order than its layout's (`check_row_order`)."""


def check_row_order(
    readings: Sequence[Tile | None], pairs: Sequence[tuple[int, Tile]], layout: list[list[Tile]]
) -> None:
    """Refuse a photo whose rows of one colour read as the layout's colours in another order: two or more
    rows each read as another colour (`ROW_READS_AS`), and those colours are the ones the same rows should
    have, shuffled (the rows swapped or turned round). `readings` and `pairs` as in `check_readings`; rows
    of jokers or of mixed colours are left out. An edition whose ink reads as another colour (cyan as
    black) gives that colour to rows that should have it already: no other order, not refused here.

    Raises:
        RowOrderError: the message names each row out of place and the colour it reads as.
    """
    start = 0
    wrong: list[tuple[int, Color, Color]] = []  # (row from 1, the layout's colour, the colour it reads as)
    for number, row in enumerate(layout, start=1):
        found = [readings[i] for i, _ in pairs[start : start + len(row)]]
        start += len(row)
        colours = {t.color for t in row}
        if len(colours) != 1 or None in colours or len(found) != len(row):
            continue
        (colour,) = colours
        counts: dict[Color, int] = {}
        for tile in found:
            if tile is not None and tile.color is not None:
                counts[tile.color] = counts.get(tile.color, 0) + 1
        if not counts:
            continue
        most = max(counts, key=lambda c: counts[c])
        if most is not colour and counts[most] >= ROW_READS_AS * len(row):
            wrong.append((number, colour, most))  # type: ignore[arg-type]
    if len(wrong) < 2 or sorted(c.value for _, c, _ in wrong) != sorted(c.value for _, _, c in wrong):
        return
    rows = ", ".join(
        f"row {number} ({COLOR_NAMES[COLORS.index(should)]}) reads as {COLOR_NAMES[COLORS.index(reads)]}"
        for number, should, reads in wrong
    )
    if layout == STANDARD_LAYOUT:
        order = "lay the rows black, blue, red, orange, each 1 to 13, then the jokers"
    else:
        order = "lay the rows as the layout says"
    raise RowOrderError(f"its rows are in another order: {rows}; {order}")


def sure_tiles(reader: object, frame: np.ndarray) -> int:
    """How many tiles the plain reader (no profile) reads surely in `frame` (`SURE_READ_ABOVE`)."""
    classifier: TileClassifier = reader.classifier  # type: ignore[attr-defined]
    previous = reader.profile  # type: ignore[attr-defined]
    reader.profile = None  # type: ignore[attr-defined]
    try:
        found = reader.read(frame)  # type: ignore[attr-defined]
    finally:
        reader.profile = previous  # type: ignore[attr-defined]
    if not len(found):
        return 0
    not_tile = classifier.read(frame, found.xyxy).not_tile
    return int(((found.class_confidence >= SURE_READ_ABOVE) & (not_tile < SURE_NOT_A_TILE_BELOW)).sum())


def check_bare_tables(reader: object, empty_frames: Sequence[np.ndarray]) -> None:
    """Refuse a bare-table photo that shows tiles (`MOST_SURE_TILES_ON_BARE_TABLE`).

    Raises:
        BareTableError: names the photo (from 0) and how many tiles were read surely on it.
    """
    for number, frame in enumerate(empty_frames):
        tiles = sure_tiles(reader, frame)
        if tiles > MOST_SURE_TILES_ON_BARE_TABLE:
            raise BareTableError(number, tiles)


def _accuracy(classifier: TileClassifier, crops: np.ndarray, tiles: list[Tile]) -> np.ndarray:
    truth = np.array([class_id(t) for t in tiles])
    return classifier.read_crops(crops).topk_class_ids[:, 0] == truth


def calibrate(
    reader: object,
    empty_frames: Sequence[np.ndarray] = (),
    tile_samples: Sequence[TilePhotoSample] = (),
    seed: int = 0,
) -> Profile:
    """Learn a profile from bare-table photos and tile photos already matched to their layouts."""
    classifier: TileClassifier = reader.classifier  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    profile = Profile(
        models=model_versions(reader), empty_photos=len(empty_frames), tile_photos=len(tile_samples)
    )
    tile_crops = np.concatenate([s.crops for s in tile_samples]) if tile_samples else None
    tiles = [t for s in tile_samples for t in s.tiles]
    profile.tiles_learned = len(tiles)
    if tile_crops is not None:
        profile.tile_descriptors = describe_crops(classifier, tile_crops)
        for colour in COLORS:
            chosen = [c for c, t in zip(tile_crops, tiles, strict=True) if t.color is colour]
            ink = measure_ink(chosen, colour)
            if ink is not None:
                profile.inks[COLOR_NAMES[COLORS.index(colour)]] = ink
        profile.reference_inks = reference_inks(rng, classifier.crop_size)
        plain = _accuracy(classifier, tile_crops, tiles)
        profile.map_inks = True
        both = read_crops_profiled(classifier, tile_crops, profile).topk_class_ids[:, 0] == np.array(
            [class_id(t) for t in tiles]
        )
        profile.map_inks = bool(both.sum() > plain.sum())
        profile.notes["tile_accuracy_plain"] = round(float(plain.mean()), 4)
        profile.notes["tile_accuracy_mapped"] = round(float(both.mean()), 4)
    if empty_frames:
        found = [cloth_crops(reader, frame) for frame in empty_frames]
        crops = np.concatenate([f[0] for f in found])
        scores = np.concatenate([f[1] for f in found])
        if len(crops) > MAX_FALSE_DESCRIPTORS:
            crops = crops[rng.choice(len(crops), MAX_FALSE_DESCRIPTORS, replace=False)]
        bank = describe_crops(classifier, crops)
        profile.false_descriptors = bank
        profile.keep_above = KEEP_ABOVE
        if len(bank):
            synthetic, _ = synthetic_tile_crops(crops, SYNTHETIC_FACES, rng)
            faces = describe_crops(classifier, synthetic)
            nearest_tile = float(np.percentile(nearest_distance(faces, bank), 2))
            if tile_crops is not None:
                own = float(nearest_distance(profile.tile_descriptors, bank).min())
                nearest_tile = min(nearest_tile, own)
                faces = np.concatenate([faces, profile.tile_descriptors])
            profile.false_radius = RADIUS_SHARE * nearest_tile
            profile.tile_descriptors = faces
            profile.notes["nearest_tile_distance"] = round(nearest_tile, 3)
        from vision.detector import DEFAULT_CONFIDENCE

        found_scores = scores[scores >= DEFAULT_CONFIDENCE]
        profile.notes["false_finds"] = int(len(scores))
        profile.notes["false_finds_at_default_score"] = int(len(found_scores))
        # Tiles the plain reader reports on the bare table: where there are none (a classifier that knows
        # "not a tile" already rejects this cloth), dropping look-alikes could only cost real tiles
        # (models-v3 on rendered tables: no false tile either way, recall 0.965 -> 0.960), so it is off.
        previous = reader.profile  # type: ignore[attr-defined]
        reader.profile = None  # type: ignore[attr-defined]
        try:
            reported = sum(len(reader.read(frame)) for frame in empty_frames)  # type: ignore[attr-defined]
        finally:
            reader.profile = previous  # type: ignore[attr-defined]
        profile.notes["false_tiles_reported"] = int(reported)
        if reported == 0:
            profile.false_radius = 0.0
        profile.min_score = table_min_score(
            found_scores, reported, lambda: _lower_min_score(reader, empty_frames, DEFAULT_CONFIDENCE)
        )
        if profile.min_score is not None and profile.min_score < DEFAULT_CONFIDENCE:
            profile.notes["min_score_lowered"] = round(profile.min_score, 3)
    return profile


def table_min_score(
    false_find_scores: np.ndarray, false_tiles_reported: int, lowered: Callable[[], float | None]
) -> float | None:
    """The detector threshold a profile learns for its table (None: the reader's own), from the detector's
    finds on the bare table at the reader's threshold or over (`false_find_scores`) and the tiles the plain
    reader reported there. Where it reported none, the classifier already tells this cloth from tiles,
    whatever the detector found on it: the threshold is lowered where `lowered()` finds that safe (see
    `_lower_min_score`), else left. Where it reported some, it is raised just over the best find, up to
    `MAX_MIN_SCORE`. Tuning tables (seed 30001): three of eight cloths gave a find at 0.4 or more that the
    classifier rejected, which kept their threshold at 0.4 before; recall with the profile 0.9545 ->
    0.9551, false tiles unchanged (models/README.md, ninth session)."""
    if false_tiles_reported == 0 or not len(false_find_scores):
        return lowered()
    highest = float(np.max(false_find_scores)) + 0.02
    return highest if highest <= MAX_MIN_SCORE else None


def _lower_min_score(reader: object, empty_frames: Sequence[np.ndarray], default: float) -> float | None:
    """A detector threshold under the reader's own for a table whose bare cloth gives no tile at it: just
    above the best tile the plain reader reports on the bare table down to `LOWEST_MIN_SCORE` (in every
    `table_views` view), `LOWEST_MIN_SCORE` where it reports none; None where that is not under `default`.

    The model misses tiles of other editions and cloths at its own threshold more often than it finds
    false ones on a cloth it leaves alone (the classifier's "not a tile" still rejects what is no tile).
    """
    previous = reader.profile  # type: ignore[attr-defined]
    reader.profile = None  # type: ignore[attr-defined]
    try:
        scores = [
            reader.read(view, LOWEST_MIN_SCORE).confidence  # type: ignore[attr-defined]
            for frame in empty_frames
            for view in table_views(frame)
        ]
    finally:
        reader.profile = previous  # type: ignore[attr-defined]
    found = np.concatenate(scores) if scores else np.zeros(0)
    lowered = LOWEST_MIN_SCORE if not len(found) else float(found.max()) + 0.02
    return lowered if lowered < default else None


def calibrate_photos(
    reader: object,
    empty_frames: Sequence[np.ndarray],
    tile_frames: Sequence[tuple[np.ndarray, list[list[Tile]]]],
    seed: int = 0,
) -> Profile:
    """The whole calibration: learn the bare table, read the tile photos with that (so the cloth gives no
    stray tiles to the rows), then learn the tiles.

    Raises:
        BareTableError: a bare-table photo shows tiles.
        CalibrationError: a tile photo does not match its layout (the message names the photo's number).
    """
    check_bare_tables(reader, empty_frames)
    previous = reader.profile  # type: ignore[attr-defined]
    try:
        reader.use_profile(calibrate(reader, empty_frames, seed=seed) if empty_frames else None)  # type: ignore[attr-defined]
        samples = []
        for number, (frame, layout) in enumerate(tile_frames, start=1):
            try:
                samples.append(read_tile_photo(reader, frame, layout))
            except CalibrationError as error:
                where = f"tile photo {number}: " if len(tile_frames) > 1 else ""
                kind = RowOrderError if isinstance(error, RowOrderError) else CalibrationError
                raise kind(f"{where}{error}") from error
        reader.use_profile(None)  # type: ignore[attr-defined]
        return calibrate(reader, empty_frames, samples, seed=seed)
    finally:
        reader.use_profile(previous)  # type: ignore[attr-defined]
