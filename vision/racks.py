"""Racks: tiles standing on a player's rack, told from the sets lying on the table.

A rack holds two tiers of standing tiles, the back one right behind (and above, in the image) the front
one. `find_racks` returns each rack's detections in the order its owner reads them.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.detections import rack_shares
from vision.placed import DEFAULT_ASPECT

# How far from upright (degrees) the tiles of a line whose lean is steady may stand, and how much two
# neighbours' angles may differ in such a line.
_STEADY_UPRIGHT_WITHIN, _STEADY_STEP = 40.0, 12.0
# How far (degrees) the tiles of a slot's two tiers may lean apart, at the median slot.
_LEAN_ALIKE_WITHIN = 12.0
_CHANNEL_MEAN = np.full((1, 3), 1 / 3, np.float32)
# The frame looked at turned by these degrees (CCW): a view finds tiers sloping up to about 15 degrees, so
# these cover every slope, for racks whose tiles' tops point up, left or right.
_VIEW_TURNS = (0.0, 90.0, -90.0, 30.0, -30.0, 60.0, 120.0, -60.0, -120.0)


def _off_upright(angles: np.ndarray) -> np.ndarray:
    """Degrees from upright or upside down (0-90): how far a tile leans, whichever way up it stands."""
    return np.abs((np.asarray(angles, dtype=np.float64) + 90.0) % 180.0 - 90.0)


def find_racks(xyxy: np.ndarray, angles: np.ndarray, frame: np.ndarray | None = None) -> list[list[int]]:
    """Racks among the boxes (pixels, `x1 y1 x2 y2`) with the tiles' up angles; each in reading order.

    With the frame (BGR or grey), a rack is also told by the dark bar its front tier stands on.
    """
    rack_groups: list[list[int]] = []
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    taken: set[int] = set()
    gray = colour = None
    if frame is not None:
        gray = np.asarray(frame)
        if gray.ndim == 3:
            colour = gray[:, :, :3]
            # The mean of the channels, as cv2 computes it in ~1 ms (numpy's mean took ~10 ms a frame).
            gray = cv2.transform(np.ascontiguousarray(gray[:, :, :3]), _CHANNEL_MEAN)
    # The frame's brightness once, from every 4th pixel (a full median per candidate rack cost ~20 ms).
    frame_median = float(np.median(gray[::4, ::4])) if gray is not None else math.nan
    found: list[tuple[list[int], list[int]]] = []
    for turn in _VIEW_TURNS:
        view_xyxy, view_angles, to_image = _turned_view(xyxy, angles, centers, turn)
        lean = _off_upright(view_angles)
        if np.count_nonzero(lean <= _STEADY_UPRIGHT_WITHIN) < 4:
            continue  # a rack, of one tier or two, needs four tiles standing near upright in its view
        members, upright_within, steepest = None, 25.0, 90.0
        if turn % 90:
            # A sloping rack's tiles lean with it, more at its near end (perspective): only tiles near upright
            # in the turned view.
            upright_within, steepest = 40.0, 17.0
            members = np.flatnonzero(lean <= upright_within)
            if len(members) < 3:
                continue
        found += _find_racks(view_xyxy, view_angles, gray, to_image, colour, frame_median=frame_median,
                             members=members, upright_within=upright_within, steepest=steepest,
                             turned=bool(turn % 90))
    # Two tiers found in any view before one tier alone (a sloping rack's front tier looks like a one-tier
    # rack in a view not turned with it).
    for tiers in sorted(found, key=lambda tiers: not (tiers[0] and tiers[1])):
        if taken & set(tiers[0] + tiers[1]):
            continue
        taken.update(tiers[0] + tiers[1])
        rack_groups.append(tiers[0] + tiers[1])
    return rack_groups


def _box_lines(xyxy: np.ndarray, members: np.ndarray, widest_gap: float = 3.2) -> list[list[int]]:
    """Lines of boxes side by side along the x axis, up to `widest_gap` box widths apart (empty slots)."""
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    wh = xyxy[:, 2:] - xyxy[:, :2]
    m = np.asarray(members, dtype=int)
    if m.size < 2:
        return [[int(i)] for i in m]
    c, box, size = centers[m], xyxy[m], wh[m]
    dx = c[None, :, 0] - c[:, None, 0]
    dy = np.abs(c[None, :, 1] - c[:, None, 1])
    height = (size[:, None, 1] + size[None, :, 1]) / 2
    width = np.minimum(size[:, None, 0], size[None, :, 0])
    gap = box[None, :, 0] - box[:, None, 2]
    ratio = size[:, None, 1] / np.maximum(size[None, :, 1], 1e-9)
    # Tiers may slope (a rack turned, or seen off-centre) by about 15 degrees.
    ok = ((dx > 0) & (dy <= 0.4 * height + 0.27 * np.abs(dx)) & (gap > -0.6 * width)
          & (gap < widest_gap * width) & (ratio > 0.6) & (ratio < 1.6))
    # Across empty slots, boxes of one line stand as tall: a tile lying past a rack's end is squatter (or
    # taller) than the standing ones.
    ok &= (gap < 0.3 * width) | ((ratio > 0.75) & (ratio < 1.33))
    score = np.where(ok, dx + 3 * dy, np.inf)
    # Each box's best next box, and each box's best previous: a link where both choose each other.
    best_next, best_prev = score.argmin(axis=1), score.argmin(axis=0)
    nexts = {int(m[p]): int(m[q]) for p, q in enumerate(best_next)
             if np.isfinite(score[p, q]) and best_prev[q] == p}
    linked = set(nexts.values())
    starts = [int(i) for i in members if int(i) not in linked]
    lines = []
    for start in starts:
        line = [start]
        while line[-1] in nexts and len(line) <= len(members):
            line.append(nexts[line[-1]])
        lines.append(line)
    return lines


def _find_racks(
    xyxy: np.ndarray, angles: np.ndarray, gray: np.ndarray | None = None, to_image: np.ndarray | None = None,
    colour: np.ndarray | None = None,
    min_tiles: int = 10, frame_median: float = math.nan, members: np.ndarray | None = None,
    upright_within: float = 25.0, steepest: float = 90.0, turned: bool = False,
) -> list[tuple[list[int], list[int]]]:
    """Racks: two tiers of tiles standing side by side, one right above the other, seen at an angle.

    Lines of boxes along the view's x axis are paired, nearest first, when they could be a rack's tiers
    (mostly upright, overlapping along the rack, alike in shape and lean, slot by slot under a box height
    apart: `_tier_offset`); a pair is a rack when the frame shows the dark lip under the front tier
    (`_dark_bar_below`) or, without the frame, when its tiles' shape sets them apart as standing
    (`_stand_out_by_shape`). Found tiers are carried on along their lines (`_tier_extension`); in the
    unturned view a long line on a dark bar is a rack with an empty back tier (`_one_tier_racks`).

    Racks along the x axis of the boxes' view, the tiles' tops up, are found (the caller passes the boxes
    as seen with the frame turned, `to_image` mapping view points back to the frame's pixels). Returns each
    rack as its two tiers, each left to right as the view shows it.
    """
    n = len(xyxy)
    wh = xyxy[:, 2:] - xyxy[:, :2]
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    # Perspective shears standing tiles, so their angle may be well off upright: every tile may be on a
    # tier.
    shape = wh[:, 1] / np.maximum(wh[:, 0], 1e-6)
    candidates_of_lines = np.arange(n) if members is None else members
    # A turned view lines up the tiers of two racks side by side: there tiers are bridged over empty slots
    # only where the other tier spans the gap (`_tier_extension`).
    lines = [part for line in _box_lines(xyxy, candidates_of_lines, 1.2 if turned else 3.2)
             for part in _split_at_bend(line, centers, wh) if len(part) >= 2]
    # Standing tiles are near upright, so their boxes' heights are theirs (a turned lying tile's box is
    # taller than the tile, which only brings table rows closer, in box heights).
    tile_height = wh[:, 1]
    # Standing tiles face the player: near upright in the image (or upside down), however the tiers slope.
    lean = _off_upright(angles)
    upright = lean <= upright_within
    # Candidate pairs of lines, one above the other, nearest first: a rack's two tiers are the closest
    # pair (the table's rows behind a rack are further up).
    # Per line, what the pair checks need (the pairs are many: numpy calls per pair cost ~5 ms a frame).
    flat = np.array([i for line in lines for i in line], dtype=int)
    starts = np.cumsum([0] + [len(line) for line in lines[:-1]]).astype(int)
    label = np.repeat(np.arange(len(lines)), [len(line) for line in lines])
    lengths = np.array([len(line) for line in lines])
    mean_y = np.bincount(label, centers[flat, 1], len(lines)) / np.maximum(lengths, 1)
    by_top = [int(k) for k in np.argsort(mean_y, kind="stable")]
    # A rack's tiles lean alike, the lean changing little from slot to slot (perspective): a line so steady
    # may lean further (a rack near the frame's edge, seen from above). Lying rows askew are seldom steady.
    # Each line's largest step in angle between neighbours, all lines at once (flat runs line after line).
    steps = _off_upright(np.diff(angles[flat])) if len(flat) else np.zeros(0)
    within_line = label[1:] == label[:-1]
    largest_step = np.zeros(len(lines))
    np.maximum.at(largest_step, label[1:][within_line], steps[within_line])
    steady = largest_step <= _STEADY_STEP
    standing_like = np.where(steady[label], lean[flat] <= max(upright_within, _STEADY_UPRIGHT_WITHIN),
                             upright[flat]) if len(flat) else np.zeros(0, bool)
    upright_count = np.bincount(label, standing_like, len(lines)) if len(flat) else np.zeros(0)
    # Spans from the boxes' sides: from centres a tier of two tiles spans one slot, and a tile past the other
    # tier's end leaves it half outside.
    x_span = (np.minimum.reduceat(xyxy[flat, 0], starts), np.maximum.reduceat(xyxy[flat, 2], starts)) \
        if len(flat) else (np.zeros(0), np.zeros(0))
    y_span = (np.minimum.reduceat(xyxy[flat, 1], starts), np.maximum.reduceat(xyxy[flat, 3], starts)) \
        if len(flat) else (np.zeros(0), np.zeros(0))
    line_height = np.maximum.reduceat(tile_height[flat], starts) if len(flat) else np.zeros(0)
    candidates: list[tuple[float, int, int]] = []
    for a_pos, a in enumerate(by_top):
        for b in by_top[a_pos + 1:]:
            upper, lower = lines[a], lines[b]
            if upright_count[a] + upright_count[b] < 0.75 * (len(upper) + len(lower)):
                continue
            if max(len(upper), len(lower)) < 3:
                continue
            if gray is not None and y_span[0][b] - y_span[1][a] > 0.5 * max(line_height[a], line_height[b]):
                continue  # far apart: tiers overlap
            shorter = min(x_span[1][a] - x_span[0][a], x_span[1][b] - x_span[0][b])
            common = min(x_span[1][a], x_span[1][b]) - max(x_span[0][a], x_span[0][b])
            if shorter <= 0 or common < 0.5 * shorter:
                continue
            # Both tiers stand, so their tiles look alike (a lying row behind a rack looks squatter).
            tier_shapes = float(np.median(shape[upper])) / float(np.median(shape[lower]))
            if not 0.8 < tier_shapes < 1.3:
                continue
            # A line steeper than a view takes is left to the view turned with it.
            if abs(math.degrees(math.atan(_line_slope(centers[max(upper, lower, key=len)])))) > steepest:
                continue
            # Tiers overlap: 95% of rendered racks' stand under 0.95 box heights apart; rows laid tight on
            # a table (real photos) 0.97 to 1.
            farthest = 0.95
            if gray is None:
                # Told by their shape alone, tiers may stand a rack's depth apart: about a tile's real
                # height, which a squat (foreshortened) tile no longer shows, so its width stands in.
                height = float(np.median(tile_height[upper + lower]))
                farthest = 1.7 * max(1.0, float(np.median(wh[upper + lower, 0])) / DEFAULT_ASPECT / height)
            offset = _tier_offset(centers, wh, tile_height, upper, lower, farthest)
            if offset is None or not _lean_alike(centers, angles, upper, lower):
                continue
            candidates.append((offset, a, b))
    racks: list[tuple[list[int], list[int]]] = []
    used: set[int] = set()
    for _, a, b in sorted(candidates):
        if a in used or b in used:
            continue
        upper, lower = lines[a], lines[b]
        if gray is not None:
            # The rack itself: a dark bar right under the front tier.
            standing = _dark_bar_below(gray, to_image, xyxy, lower, upper, front_only=turned, colour=colour)
        else:
            standing = _stand_out_by_shape(upper, lower, shape, angles, min_tiles)
        if standing:
            racks.append((upper, lower))
            used.update((a, b))
    claimed = {i for rack in racks for tier in rack for i in tier}
    # A rack's tiles lean more towards its near end: the tiles that carry a tier on may lean a little more.
    nearly_upright = lean <= upright_within + 15.0
    pool = [i for i in range(n) if nearly_upright[i] and i not in claimed]
    for upper, lower in racks:
        for tier, other in ((upper, lower), (lower, upper)):
            tier += _tier_extension(tier, other, pool, centers, tile_height)
            pool = [i for i in pool if i not in tier]
    if gray is not None and not turned:
        # Not in turned views: a row lying behind a sloping rack has the rack's dark back under it.
        racks += _one_tier_racks([line for k, line in enumerate(lines) if k not in used], xyxy, upright, gray,
                                 to_image, frame_median)
    # The owner reads a rack as the view that found it shows it: back (upper) tier first, each left to right
    # (the tiles' own angles may not tell: they lean with a sloping rack, or stand upside down).
    return [(sorted(upper, key=lambda i: centers[i, 0]), sorted(lower, key=lambda i: centers[i, 0]))
            for upper, lower in racks]




def _stand_out_by_shape(upper: list[int], lower: list[int], shape: np.ndarray, angles: np.ndarray,
                        min_tiles: int) -> bool:
    """Without the frame: whether the tiers' apparent height-to-width sets them apart from the other
    near-upright tiles as standing ones (squat seen from above, tall from eye height)."""
    tier_tiles = upper + lower
    if len(tier_tiles) < min_tiles or min(len(upper), len(lower)) < 3:
        return False
    # Only near-upright tiles tell the shape of the tiles around (a turned tile's box does not).
    square = np.abs(np.cos(np.radians(angles))) > 0.95
    in_tiers = set(tier_tiles)
    others = [i for i in range(len(shape)) if i not in in_tiers and square[i]]
    if len(others) < 3:
        return False
    reference = float(np.median(shape[others]))
    ratio = float(np.median(shape[tier_tiles])) / reference
    # Lying tiles never look as squat as 0.75 (that would be a camera almost level with the table): when
    # the others do, they are the standing ones and this pair is table rows.
    return ratio < 0.72 or (ratio > 1.3 and reference > 0.75)


def _one_tier_racks(lines: list[list[int]], xyxy: np.ndarray, upright: np.ndarray, gray: np.ndarray,
                    to_image: np.ndarray | None, frame_median: float) -> list[tuple[list[int], list[int]]]:
    """Racks whose back tier is empty (or hidden): one long tier of standing tiles on a dark bar.

    Alone, a row lying on a dark table looks much the same: the bar must also be dark for the frame, and
    above the tier the table shows, or the rack's empty back (as dark as its lip).
    """
    racks: list[tuple[list[int], list[int]]] = []
    for line in lines:
        if len(line) < 5 or np.mean(upright[line]) < 0.75:
            continue
        if _covered_above(xyxy, line):  # the lower of two rows laid tight: a table
            continue
        above = _band_brightness(gray, to_image, xyxy, line, -0.35, 0.0)
        bar = _band_brightness(gray, to_image, xyxy, line, 1.0, 1.35)
        if ((above > 100 or above < 1.5 * bar) and bar < min(80.0, 0.5 * frame_median)
                and _dark_bar_below(gray, to_image, xyxy, line, front_only=False)):
            racks.append((line, []))
    return racks


def _turned_view(xyxy: np.ndarray, angles: np.ndarray, centers: np.ndarray,
                 turn: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The boxes and up angles as seen with the frame turned `turn` degrees CCW, and the map back to pixels.

    In a view turned by other than quarters a tile's box is the tile itself (its sides, told from its box
    and angle), upright: the tiles of a rack it is turned for stand about upright in it.
    """
    theta = math.radians(turn)
    cos, sin = math.cos(theta), math.sin(theta)
    # View point = rotation @ pixel (about the origin); pixels turned CCW on screen (y grows downwards).
    to_image = np.array([[cos, -sin, 0.0], [sin, cos, 0.0]])
    view_centers = np.stack([cos * centers[:, 0] + sin * centers[:, 1],
                             -sin * centers[:, 0] + cos * centers[:, 1]], axis=1)
    box_w, box_h = xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1]
    view_angles = angles + turn
    if turn % 180 == 0:
        size = np.stack([box_w, box_h], axis=1)
    elif turn % 90 == 0:
        size = np.stack([box_h, box_w], axis=1)
    else:
        c, s = np.abs(np.cos(np.radians(angles))), np.abs(np.sin(np.radians(angles)))
        det = c * c - s * s
        safe = np.where(np.abs(det) > 0.3, det, 1.0)
        tile_w = np.where(np.abs(det) > 0.3, (box_w * c - box_h * s) / safe, box_w)
        tile_h = np.where(np.abs(det) > 0.3, (box_h * c - box_w * s) / safe, box_h)
        size = np.stack([np.maximum(tile_w, 0.3 * box_w), np.maximum(tile_h, 0.3 * box_h)], axis=1)
    view_xyxy = np.concatenate([view_centers - size / 2, view_centers + size / 2], axis=1)
    return view_xyxy, view_angles, to_image


def _band_brightness(gray: np.ndarray, to_image: np.ndarray, xyxy: np.ndarray, tier: list[int], top: float,
                     bottom: float) -> float:
    """Median brightness of a band across these boxes (see `_band_samples`)."""
    values = _band_samples(gray, to_image, xyxy, tier, top, bottom)
    return float(np.median(values)) if values.size else math.nan


def _band_samples(image: np.ndarray, to_image: np.ndarray, xyxy: np.ndarray, tier: list[int], top: float,
                  bottom: float) -> np.ndarray:
    """The pixels of a band across these boxes, `top` to `bottom` in box heights from the boxes' tops.

    The boxes are in a turned view of the frame; `to_image` maps view points to the frame's pixels. The band
    leaves out a fifth of each box's width at either side, where a neighbour or the table shows.
    """
    height, width = image.shape[:2]
    boxes = xyxy[np.asarray(tier, dtype=int)].reshape(-1, 4)
    inset = 0.2 * (boxes[:, 2] - boxes[:, 0])
    left, right = boxes[:, 0] + inset, boxes[:, 2] - inset
    box_height = boxes[:, 3] - boxes[:, 1]
    upper, lower = boxes[:, 1] + top * box_height, boxes[:, 1] + bottom * box_height
    # A fixed 24 x 12 grid a box, all boxes at once (a median needs no more points).
    across, down = _BAND_GRID
    xs = left[:, None, None] + (right - left)[:, None, None] * across
    ys = upper[:, None, None] + (lower - upper)[:, None, None] * down
    px = np.rint(to_image[0, 0] * xs + to_image[0, 1] * ys + to_image[0, 2]).astype(int).ravel()
    py = np.rint(to_image[1, 0] * xs + to_image[1, 1] * ys + to_image[1, 2]).astype(int).ravel()
    inside = (px >= 0) & (px < width) & (py >= 0) & (py < height)
    return image[py[inside], px[inside]]


_BAND_GRID = (np.linspace(0.0, 1.0, 24)[None, :], np.linspace(0.0, 1.0, 12)[:, None])


def _dark_bar_below(gray: np.ndarray, to_image: np.ndarray, xyxy: np.ndarray, tier: list[int],
                    back: list[int] | None = None, front_only: bool = False,
                    colour: np.ndarray | None = None) -> bool:
    """Whether the band right under these tiles (a rack's lip) is far darker than their faces and the table.

    The table is looked at in front of the lip and behind the `back` tier (or these tiles): a dark table
    puts a dark band under any row, but not one darker than the table itself. With `front_only`, the
    table in front of the lip alone must be brighter (behind the back tier other rows may lie). Given the
    frame in `colour`, a lip about as dark as the table in front but of another hue (a grey rack on brown
    wood) is one too: a row's shadow keeps the table's hue.
    """
    bar = _band_brightness(gray, to_image, xyxy, tier, 1.0, 1.15)
    face = _band_brightness(gray, to_image, xyxy, tier, 0.3, 0.7)
    if not bar < 0.4 * face:
        return False
    front = _band_brightness(gray, to_image, xyxy, tier, 1.5, 2.0)
    if front_only:
        darker = bar < 0.85 * front
    else:
        darker = not bar > 0.8 * max(front, _band_brightness(gray, to_image, xyxy, back or tier, -0.5, -0.15))
    if darker or colour is None or not back:
        return bool(darker)
    return _hue_distance(_band_samples(colour, to_image, xyxy, tier, 1.0, 1.15),
                         _band_samples(colour, to_image, xyxy, tier, 1.5, 2.0)) > 0.15


def _hue_distance(pixels: np.ndarray, others: np.ndarray) -> float:
    """How far apart two sets of BGR pixels' median chromaticities (each channel's share of the sum) lie."""
    if not len(pixels) or not len(others):
        return 0.0
    first, second = np.median(pixels, axis=0), np.median(others, axis=0)
    return float(np.abs(first / max(first.sum(), 1.0) - second / max(second.sum(), 1.0)).sum())


def _tier_extension(tier: list[int], other: list[int], pool: list[int], centers: np.ndarray,
                    tile_height: np.ndarray, most_slots: float = 4.5) -> list[int]:
    """Tiles of the pool that carry the tier on: on its line, as tall, up to `most_slots` slots past its ends.

    A tier's line breaks where something stands in front of it (a cup, a hand) or where the end tiles lean
    more; the tiles past the break still stand on the same line. A break in both tiers at once is the gap
    between two racks side by side: a tile past a gap is taken only with a tile of the `other` tier in front
    of (or behind) it.
    """
    if len(tier) < 2 or not pool:
        return []
    height = float(np.median(tile_height[tier]))
    step = float(np.median(np.diff(np.sort(centers[tier, 0]))))
    xs = list(centers[tier, 0])
    added: list[int] = []
    remaining = list(pool)
    while remaining:
        cand = np.asarray(remaining)
        # The line refitted as the tier grows (a long tier bends a little, in perspective).
        line = np.asarray(tier + added)
        slope = _line_slope(centers[line])
        middle = centers[line].mean(axis=0)
        off_line = np.abs(centers[cand, 1] - middle[1] - slope * (centers[cand, 0] - middle[0]))
        as_tall = np.abs(np.log(tile_height[cand] / height)) < math.log(1.3)
        # How far past the tier's nearest tile, and whether it would stand in a slot already taken.
        distance = np.abs(centers[cand, 0][:, None] - np.asarray(xs)[None, :]).min(axis=1)
        fits = (off_line < 0.25 * height) & as_tall & (distance > 0.5 * step) & (distance < most_slots * step)
        # Past a gap, the other tier must stand in front of (or behind) the tile.
        below = (np.abs(centers[cand, 0][:, None] - centers[other, 0][None, :]) < step).any(axis=1)
        fits &= (distance < 1.5 * step) | below
        if not fits.any():
            break
        best = int(cand[np.flatnonzero(fits)[distance[fits].argmin()]])
        added.append(best)
        xs.append(float(centers[best, 0]))
        remaining.remove(best)
    return added


def _covered_above(xyxy: np.ndarray, line: list[int]) -> bool:
    """Whether other tiles lie right above (within half a tile height of) most of this line's tiles."""
    others = np.setdiff1d(np.arange(len(xyxy)), line)
    if not len(others):
        return False
    tiles, rest = xyxy[line], xyxy[others]
    height = tiles[:, 3] - tiles[:, 1]
    x_overlap = (np.minimum(tiles[:, None, 2], rest[None, :, 2])
                 - np.maximum(tiles[:, None, 0], rest[None, :, 0]))
    below_gap = tiles[:, None, 1] - rest[None, :, 3]  # how far above the tile another one ends
    above = ((x_overlap > 0.3 * (tiles[:, None, 2] - tiles[:, None, 0])) & (below_gap < 0.5 * height[:, None])
             & (rest[None, :, 1] < tiles[:, None, 1]))
    return bool(above.any(axis=1).mean() > 0.5)


def _tier_offset(centers: np.ndarray, wh: np.ndarray, tile_height: np.ndarray, upper: list[int],
                 lower: list[int], farthest: float = 1.0) -> float | None:
    """How far the lower line of tiles stands below the upper one, in tile heights, if they could be tiers.

    Tiers are two straight parallel lines of tiles, slot above slot. The back tier stands less than a
    tile behind the front one and rises above it, so the two overlap in the image (0.35 to `farthest`
    tile heights apart, their slots' median); rows lying on the table keep at least 1.12 tile heights apart.
    None when the lines are not such a pair (a line that wanders from one table row to the next is no
    tier).
    """
    height = float(np.median(tile_height[upper + lower]))
    slopes = []
    for tier in (upper, lower):
        slope = _line_slope(centers[tier])
        slopes.append(slope)
        middle = centers[tier].mean(axis=0)
        residual = centers[tier, 1] - middle[1] - slope * (centers[tier, 0] - middle[0])
        if np.abs(residual).max() > 0.25 * height:
            return None
    turn = abs(math.degrees(math.atan(slopes[0]) - math.atan(slopes[1])))
    if min(len(upper), len(lower)) >= 3 and turn > 8:
        return None
    # Slot by slot: each tile of the shorter tier has one of the other right above or below it.
    shorter, longer = (upper, lower) if len(upper) <= len(lower) else (lower, upper)
    width = float(np.median(wh[upper + lower, 0]))
    dx = centers[shorter, None, 0] - centers[None, longer, 0]
    nearest = np.abs(dx).argmin(axis=1)
    dy = np.abs(centers[shorter, 1] - centers[np.asarray(longer)[nearest], 1]) / height
    across = np.abs(dx[np.arange(len(shorter)), nearest])
    # In perspective the tiers draw apart towards the near end: single slots may stand a little further
    # apart than the pair does.
    aligned = (across < 0.6 * width) & (dy > 0.35) & (dy < farthest + 0.15)
    # A tile over (or under) an empty slot of the other tier has no partner, but is no tile out of step.
    over_empty = across > 0.8 * width
    if aligned.sum() < max(1, min(2, (~over_empty).sum())) or aligned.sum() < 0.7 * (~over_empty).sum():
        return None
    offset = float(np.median(dy[aligned]))
    return offset if offset < farthest else None


def _split_at_bend(line: list[int], centers: np.ndarray, wh: np.ndarray) -> list[list[int]]:
    """A line that is no straight tier split in two straight ones across an empty stretch, where it bends.

    Two racks side by side, one further back, join the first's front tier to the second's back tier across
    the gap between them: each part is straight, the whole is not.
    """
    if len(line) < 4:
        return [line]
    # Gaps first: most lines have none a slot wide, and lines are many.
    widths = wh[line, 0]
    gaps = np.diff(centers[line, 0]) - (widths[1:] + widths[:-1]) / 2
    if gaps.max() < widths.min():
        return [line]
    slot = float(np.median(widths))
    tolerance = 0.25 * float(np.median(wh[line, 1]))
    if _straight(centers[line], tolerance):
        return [line]
    for k in np.argsort(-gaps):
        cut = int(k) + 1
        if gaps[k] < slot:
            break
        if cut >= 2 and len(line) - cut >= 2 and all(_straight(centers[part], tolerance)
                                                     for part in (line[:cut], line[cut:])):
            return [line[:cut], line[cut:]]
    return [line]


def _straight(points: np.ndarray, tolerance: float) -> bool:
    """Whether every point lies within `tolerance` of the least-squares line through them."""
    slope = _line_slope(points)
    middle = points.mean(axis=0)
    return bool(np.abs(points[:, 1] - middle[1] - slope * (points[:, 0] - middle[0])).max() <= tolerance)


def _lean_alike(centers: np.ndarray, angles: np.ndarray, upper: list[int], lower: list[int]) -> bool:
    """Whether the tiles of two lines lean alike slot by slot (up to a half turn).

    A rack's tiers stand on one body: a slot's back and front tiles lean alike, however perspective turns
    the rack's ends. A row lying behind a rack leans its own way.
    """
    shorter, longer = (upper, lower) if len(upper) <= len(lower) else (lower, upper)
    nearest = np.abs(centers[shorter, None, 0] - centers[None, longer, 0]).argmin(axis=1)
    turn = _off_upright(angles[shorter] - angles[np.asarray(longer)[nearest]])
    return bool(np.median(turn) <= _LEAN_ALIKE_WITHIN)


def _line_slope(points: np.ndarray) -> float:
    """dy/dx of the least-squares line through points (0 for fewer than two distinct x)."""
    x = points[:, 0] - points[:, 0].mean()
    denom = float(x @ x)
    return 0.0 if denom == 0 else float(x @ (points[:, 1] - points[:, 1].mean())) / denom



# --------------------------------------------------------------------------- racks the detector found

RACK_MEMBER_OVERLAP = 0.5
"""A tile stands on a rack the detector found when at least this share of its box lies in the rack's box."""
TIER_GAP = 0.15
"""Tiers of one rack: two where the tiles' heights across the rack (after `_split_tiers` has levelled the
line they run along) leave a gap of more than this many tile heights (box's longer side); a rack has two
tiers at most. From the front at eye level the upper tier stands only about 0.3 of that higher. Chosen on
tuning renders (seed 8100): racks read in their owner's order from the front, from above, at an angle
23 / 27, 19 / 29, 15 / 19 (with `RACK_AXIS_TURN` 30 instead of 45: 13 at an angle; `TIER_GAP` 0.3: 17,
20, 12; before, one split wherever the tiles sorted along their up left 0.45 of a height: 0, 6, 4)."""
RACK_AXIS_MIN_TILES = 4
RACK_AXIS_TURN = 45.0
RACK_AXIS_ELONGATION = 4.0
"""A rack's own line is the principal axis of its tiles' centres where they are at least
`RACK_AXIS_MIN_TILES`, spread `RACK_AXIS_ELONGATION` times as much along it as across (by variance), and it
runs within `RACK_AXIS_TURN` degrees of the tiles' right; otherwise their right. Seen at an angle a rack's
line turns away from its tiles' right (tuning renders, seed 8100: racks at an angle read in order 13 of
19 within 30 degrees, 15 within 45 or 60)."""


def rack_owners(xyxy: np.ndarray, rack_xyxy: np.ndarray, rack_quad: np.ndarray | None = None) -> np.ndarray:
    """(n,) the rack each box stands on (`RACK_MEMBER_OVERLAP` of it inside its box, or inside its corners
    where `rack_quad` gives them: `Detections.rack_quad`; the one holding most of it), -1 for none."""
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    racks = np.asarray(rack_xyxy, np.float64).reshape(-1, 4)
    if not len(xyxy) or not len(racks):
        return np.full(len(xyxy), -1)
    share = rack_shares(xyxy, racks, rack_quad)
    return np.where(share.max(axis=1) >= RACK_MEMBER_OVERLAP, share.argmax(axis=1), -1)


def tiles_on_rack_boxes(
    xyxy: np.ndarray,
    angles: np.ndarray,
    rack_xyxy: np.ndarray,
    orientation_known: bool,
    rack_quad: np.ndarray | None = None,
    member_xyxy: np.ndarray | None = None,
) -> list[list[int]]:
    """Tiles standing on each rack box (or its corners, `rack_quad`), both tiers, in the order the rack's
    owner reads them: the upper tier first, each tier left to right as the faces stand. Racks with no tile
    on them are left out. `member_xyxy`: the boxes that say which tiles stand on a rack where they differ
    from `xyxy` (the boxes as detected, where `xyxy` grew tiles cut by the frame back to their size:
    grown beyond the frame, a tile at a rack's end running out of it leaves the rack's box)."""
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    racks = np.asarray(rack_xyxy, np.float64).reshape(-1, 4)
    if not len(xyxy) or not len(racks):
        return []
    owner = rack_owners(xyxy if member_xyxy is None else member_xyxy, racks, rack_quad)
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    groups = []
    for rack in range(len(racks)):
        members = np.flatnonzero(owner == rack)
        if len(members):
            groups.append(_rack_reading_order(members, centers, xyxy, angles, orientation_known))
    return groups


def _widest_split(
    points: np.ndarray, along: np.ndarray, up: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """Tiles split at the widest gap across the line `along`: (upper, lower, the gap, across's direction)."""
    normal = np.array([-along[1], along[0]])
    normal = normal if normal @ up >= 0 else -normal
    across = points @ normal
    order = np.argsort(-across, kind="stable")
    gaps = across[order[:-1]] - across[order[1:]]
    widest = int(gaps.argmax())
    return order[: widest + 1], order[widest + 1 :], float(gaps[widest]), normal


def _shared_slope(
    points: np.ndarray, along: np.ndarray, normal: np.ndarray, tiers: list[np.ndarray]
) -> np.ndarray:
    """The line the tiers run along: `along` turned to their common slope (least squares, each tier its own
    offset)."""
    lengthwise, across = points @ along, points @ normal
    xy = xx = 0.0
    for tier in tiers:
        x, y = lengthwise[tier] - lengthwise[tier].mean(), across[tier] - across[tier].mean()
        xy, xx = xy + float(x @ y), xx + float(x @ x)
    if xx <= 0:
        return along
    turn = np.arctan(xy / xx)
    return np.cos(turn) * along + np.sin(turn) * normal


def _split_tiers(points: np.ndarray, along: np.ndarray, up: np.ndarray, height: float) -> list[np.ndarray]:
    """The rack's tiles (rows of `points`) as one or two tiers, the upper first: split at the widest gap
    across `along`, the line then turned to the slope the two tiers share, and split again there; two
    tiers where that gap is more than `TIER_GAP` tile heights. Where the tiles lie in more than two rows
    across that slope (`_tier_rows`: a tile of the table or of another rack inside the rack's box), the
    tiers are fitted on the two rows `_tier_rows` picks and each other tile joins the tier lying nearer."""
    if len(points) < 2:
        return [np.arange(len(points))]
    upper, lower, gap, normal = _tier_gap(points, along, up)
    if gap <= TIER_GAP * height:  # a rack has two tiers at most
        return [np.concatenate([upper, lower])]
    tiers, others = _tier_rows(points, along, normal, upper, lower, TIER_GAP * height)
    if not len(others):
        return _nearer_line(points, along, normal, upper, lower)
    rows = np.concatenate(tiers)
    split = len(tiers[0])
    fitted = [rows[tier] for tier in _nearer_line(
        points[rows], along, normal, np.arange(split), np.arange(split, len(rows)))]
    across = points @ normal
    means = np.array([across[tier].mean() for tier in fitted])
    nearer = np.abs(across[others, None] - means[None, :]).argmin(axis=1)
    return [np.concatenate([tier, others[nearer == k]]) for k, tier in enumerate(fitted)]


def _tier_gap(
    points: np.ndarray, along: np.ndarray, up: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """`_widest_split` across `along`, then again across the slope the two sides share."""
    upper, lower, gap, normal = _widest_split(points, along, up)
    if min(len(upper), len(lower)) >= 2:
        upper, lower, gap, _ = _widest_split(points, _shared_slope(points, along, normal, [upper, lower]), up)
    return upper, lower, gap, normal


def _tier_rows(
    points: np.ndarray,
    along: np.ndarray,
    normal: np.ndarray,
    upper: np.ndarray,
    lower: np.ndarray,
    gap: float,
) -> tuple[list[np.ndarray], np.ndarray]:
    """The tiles in rows across the slope the two sides (`upper`, `lower`) share, cut at every gap wider
    than `gap`: where there are more than two rows, the two adjacent rows holding most tiles (the rack's
    tiers, upper first) and the tiles of the other rows; else `upper`, `lower` and none. Tuning renders
    (seed 8800, 160 rack scenes; the widest gap alone fell between a tier and one tile of the table):
    racks in their owner's order 77.68 -> 82.14 % (models-v31 epochs 0-4: 78.99 -> 82.35 %); with the
    rack's line chosen as `_rack_reading_order` does, 83.04 % (85.71 %); hold-out renders (seed 9700, never
    looked at) 72.22 -> 77.78 % (73.21 -> 71.43 %), pairs of rack tiles in order 94.15 -> 95.86 % (93.67 ->
    94.99 %). Which tiles stand on the rack is not changed."""
    if min(len(upper), len(lower)) >= 2:
        along = _shared_slope(points, along, normal, [upper, lower])
        turned = np.array([-along[1], along[0]])
        normal = turned if turned @ normal >= 0 else -turned
    across = points @ normal
    order = np.argsort(-across, kind="stable")
    rows = np.split(order, np.flatnonzero(across[order[:-1]] - across[order[1:]] > gap) + 1)
    if len(rows) <= 2:
        return [upper, lower], np.array([], int)
    best = max(range(len(rows) - 1), key=lambda i: len(rows[i]) + len(rows[i + 1]))
    others = np.concatenate([row for i, row in enumerate(rows) if i not in (best, best + 1)])
    return [rows[best], rows[best + 1]], others


TIER_REFITS = 3
"""Times the tiers' own lines are fitted again and the tiles put on the nearer (`_nearer_line`). Tuning
renders (seeds 8100-8400): racks read wholly in their owner's order 75.1 -> 78.6 %, at an angle 64 -> 71 %,
pairs of rack tiles in order 94.7 -> 95.2 %."""


def _nearer_line(
    points: np.ndarray, along: np.ndarray, normal: np.ndarray, upper: np.ndarray, lower: np.ndarray
) -> list[np.ndarray]:
    """Two tiers, each tile on the tier whose own line (least squares across the rack's line `along`,
    `normal` pointing up across it; each tier its own slope) passes nearer: seen at an angle a rack's
    tiers converge with perspective, and one cut across the shared slope puts the tiles at the far end of
    one tier into the other."""
    lengthwise, across = points @ along, points @ normal
    tiers = [upper, lower]
    for _ in range(TIER_REFITS):
        lines = []
        for tier in tiers:
            if len(tier) >= 3 and np.ptp(lengthwise[tier]) > 0:
                lines.append(np.polyfit(lengthwise[tier], across[tier], 1))
            else:
                lines.append(np.array([0.0, float(across[tier].mean())]))
        distance = np.abs(np.stack([np.polyval(line, lengthwise) for line in lines]) - across)
        nearer = distance.argmin(axis=0)
        fresh = [np.flatnonzero(nearer == 0), np.flatnonzero(nearer == 1)]
        if min(len(t) for t in fresh) == 0:
            break
        if all(np.array_equal(np.sort(a), np.sort(b)) for a, b in zip(fresh, tiers, strict=True)):
            break
        tiers = fresh
    upper_first = across[tiers[0]].mean() >= across[tiers[1]].mean()
    return tiers if upper_first else tiers[::-1]


def _rack_reading_order(
    members: np.ndarray, centers: np.ndarray, xyxy: np.ndarray, angles: np.ndarray, orientation_known: bool
) -> list[int]:
    """Both tiers, the upper first, each left to right as the owner reads them. Tiers are told apart across
    the rack's own line (`RACK_AXIS_*`, `_split_tiers`): a long rack seen a little turned climbs across the
    frame by more than its tiers lie apart (a tuning render: 61 pixels over the rack, 50 between the
    tiers)."""
    up_angle = 0.0
    if orientation_known:
        radians = np.deg2rad(angles[members])
        up_angle = float(np.rad2deg(np.arctan2(np.sin(radians).mean(), np.cos(radians).mean())))
    theta = np.deg2rad(up_angle)
    up = np.array([-np.sin(theta), -np.cos(theta)])
    right = np.array([np.cos(theta), -np.sin(theta)])
    points = centers[members]
    along = right
    if len(members) >= RACK_AXIS_MIN_TILES:
        spread = points - points.mean(axis=0)
        variances, axes = np.linalg.eigh(spread.T @ spread)
        axis = axes[:, -1] if axes[:, -1] @ right >= 0 else -axes[:, -1]
        if (axis @ right >= np.cos(np.deg2rad(RACK_AXIS_TURN))
                and variances[1] >= RACK_AXIS_ELONGATION * variances[0]):
            along = axis
            # Tiers lying apart lengthwise (one longer, or cut by the frame) tilt the axis; across the
            # tiles' right they then part wider (tuning renders: 5 racks more in order, `_tier_rows`).
            if _tier_gap(points, right, up)[2] > _tier_gap(points, axis, up)[2]:
                along = right
    height = float(np.median((xyxy[members, 2:] - xyxy[members, :2]).max(axis=1)))
    tiers = _split_tiers(points, along, up, height)
    return [int(members[i]) for tier in tiers for i in sorted(tier, key=lambda k: float(points[k] @ along))]
