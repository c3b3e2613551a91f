"""Racks: tiles standing on a player's rack, told from the sets lying on the table.

A rack holds two tiers of standing tiles, the back one right behind (and above, in the image) the front
one. `find_racks` returns each rack's detections in the order its owner reads them.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.layout import DEFAULT_ASPECT, circular_mean, direction_vectors


def find_racks(xyxy: np.ndarray, angles: np.ndarray, frame: np.ndarray | None = None) -> list[list[int]]:
    """Racks among the boxes (pixels, `x1 y1 x2 y2`) with the tiles' up angles; each in reading order.

    With the frame (BGR or grey), a rack is also told by the dark bar its front tier stands on.
    """
    rack_groups: list[list[int]] = []
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    taken: set[int] = set()
    transposed = xyxy[:, [1, 0, 3, 2]]
    gray = None
    if frame is not None:
        gray = np.asarray(frame)
        if gray.ndim == 3:
            # The mean of the channels, as cv2 computes it in ~1 ms (numpy's mean took ~10 ms a frame).
            gray = cv2.transform(np.ascontiguousarray(gray[:, :, :3]), _CHANNEL_MEAN)
    # The frame's brightness once, from every 4th pixel (a full median per candidate rack cost ~20 ms).
    frame_median = float(np.median(gray[::4, ::4])) if gray is not None else math.nan
    found = _find_racks(xyxy, angles, gray, frame_median=frame_median)
    found += _find_racks(transposed, angles - 90.0, None if gray is None else gray.T,
                         frame_median=frame_median)
    if gray is not None:
        # A rack along the image's y axis stands with its tiles' tops towards either side; transposed, the
        # one whose tops point right lies upside down, so it is looked for in the transposed image flipped.
        side = float(gray.shape[1])
        flipped = np.stack([xyxy[:, 1], side - xyxy[:, 2], xyxy[:, 3], side - xyxy[:, 0]], axis=1)
        found += _find_racks(flipped, angles - 90.0, gray.T[::-1], frame_median=frame_median)
    for tiers in found:
        if taken & set(tiers[0] + tiers[1]):
            continue
        taken.update(tiers[0] + tiers[1])
        rack_groups.append(_rack_order(tiers, centers, angles))
    return rack_groups


def _box_lines(xyxy: np.ndarray, members: np.ndarray) -> list[list[int]]:
    """Lines of boxes side by side along the image's x axis, up to three empty slots apart."""
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    wh = xyxy[:, 2:] - xyxy[:, :2]
    best_next: dict[int, tuple[float, int]] = {}
    best_prev: dict[int, tuple[float, int]] = {}
    m = np.asarray(members, dtype=int)
    c, box, size = centers[m], xyxy[m], wh[m]
    dx = c[None, :, 0] - c[:, None, 0]
    dy = np.abs(c[None, :, 1] - c[:, None, 1])
    height = (size[:, None, 1] + size[None, :, 1]) / 2
    width = np.minimum(size[:, None, 0], size[None, :, 0])
    gap = box[None, :, 0] - box[:, None, 2]
    ratio = size[:, None, 1] / np.maximum(size[None, :, 1], 1e-9)
    # Tiers may slope (a rack turned, or seen off-centre) by about 15 degrees.
    ok = ((dx > 0) & (dy <= 0.4 * height + 0.27 * np.abs(dx)) & (gap > -0.6 * width) & (gap < 3.2 * width)
          & (ratio > 0.6) & (ratio < 1.6))
    score = np.abs(gap) + 3 * dy
    for p, q in np.argwhere(ok):
        i, j, value = int(m[p]), int(m[q]), float(score[p, q])
        if value < best_next.get(i, (math.inf, -1))[0]:
            best_next[i] = (value, j)
        if value < best_prev.get(j, (math.inf, -1))[0]:
            best_prev[j] = (value, i)
    nexts = {i: j for i, (_, j) in best_next.items() if best_prev.get(j, (0.0, -1))[1] == i}
    starts = [int(i) for i in members if int(i) not in set(nexts.values())]
    lines = []
    for start in starts:
        line = [start]
        while line[-1] in nexts and len(line) <= len(members):
            line.append(nexts[line[-1]])
        lines.append(line)
    return lines


def _find_racks(
    xyxy: np.ndarray, angles: np.ndarray, gray: np.ndarray | None = None, min_tiles: int = 10,
    frame_median: float = math.nan,
) -> list[tuple[list[int], list[int]]]:
    """Racks: two tiers of tiles standing side by side, one right above the other, seen at an angle.

    Standing tiles look different from the lying ones around them: squat when the camera looks down from
    above (their height is foreshortened), tall when it looks from a player's eye height (the lying tiles
    are the foreshortened ones). A pair of tiers is a rack when its tiles' apparent height-to-width differs
    from the other tiles' by a third or more. With fewer than three other tiles to compare, two rows of
    table sets and a rack look alike: nothing is called a rack.

    Racks along the image's x axis, the tiles' tops up, are found (the caller also passes the boxes
    transposed, and flipped, for racks along y). Returns each rack as its two tiers.
    """
    n = len(xyxy)
    wh = xyxy[:, 2:] - xyxy[:, :2]
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    # Perspective shears standing tiles, so their angle may be well off upright: every tile may be on a
    # tier. Only near-upright tiles tell the shape of the tiles around (a turned tile's box does not).
    square = np.abs(np.cos(np.radians(angles))) > 0.95
    shape = wh[:, 1] / np.maximum(wh[:, 0], 1e-6)
    lines = [line for line in _box_lines(xyxy, np.arange(n)) if len(line) >= 2]
    # Standing tiles are near upright, so their boxes' heights are theirs (a turned lying tile's box is
    # taller than the tile, which only brings table rows closer, in box heights).
    tile_height = wh[:, 1]
    # Standing tiles face the player: near upright in the image (or upside down), however the tiers slope.
    upright = np.abs((angles + 90.0) % 180.0 - 90.0) <= 25.0
    # Candidate pairs of lines, one above the other, nearest first: a rack's two tiers are the closest
    # pair (the table's rows behind a rack are further up).
    by_top = sorted(range(len(lines)), key=lambda k: centers[lines[k], 1].mean())
    candidates: list[tuple[float, int, int]] = []
    for a_pos, a in enumerate(by_top):
        for b in by_top[a_pos + 1:]:
            upper, lower = lines[a], lines[b]
            if np.mean(upright[upper + lower]) < 0.75:
                continue
            if max(len(upper), len(lower)) < 3:
                continue
            if _interval_overlap(centers[upper, 0], centers[lower, 0]) < 0.5:
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
            if offset is None:
                continue
            candidates.append((offset, a, b))
    racks: list[tuple[list[int], list[int]]] = []
    used: set[int] = set()
    for _, a, b in sorted(candidates):
        if a in used or b in used:
            continue
        upper, lower = lines[a], lines[b]
        members = upper + lower
        if gray is not None:
            # The rack itself: a dark bar right under the front tier.
            standing = _dark_bar_below(gray, xyxy, lower, upper)
        else:
            others = [i for i in range(n) if i not in set(members) and square[i]]
            standing = False
            if len(others) >= 3 and len(members) >= min_tiles and min(len(upper), len(lower)) >= 3:
                ratio = float(np.median(shape[members])) / float(np.median(shape[others]))
                reference = float(np.median(shape[others]))
                # Lying tiles never look as squat as 0.75 (that would be a camera almost level with the
                # table): when the others do, they are the standing ones and this pair is table rows.
                standing = ratio < 0.72 or (ratio > 1.3 and reference > 0.75)
        if standing:
            racks.append((upper, lower))
            used.update((a, b))
    if gray is not None:
        # A rack whose back tier is empty (or hidden): one long tier of standing tiles on a dark bar, the
        # table bright above. Alone, a row lying on a dark table looks much the same: the bar must also be
        # dark for the frame.
        for k, line in enumerate(lines):
            if k in used or len(line) < 5 or np.mean(upright[line]) < 0.75:
                continue
            if _covered_above(xyxy, line):  # the lower of two rows laid tight: a table
                continue
            bright_above = _band_brightness(gray, xyxy, line, -0.35, 0.0) > 100
            bar = _band_brightness(gray, xyxy, line, 1.0, 1.35)
            if bright_above and bar < min(80.0, 0.5 * frame_median) and _dark_bar_below(gray, xyxy, line):
                racks.append((line, []))
                used.add(k)
    return racks


_CHANNEL_MEAN = np.full((1, 3), 1 / 3, np.float32)


def _band_brightness(gray: np.ndarray, xyxy: np.ndarray, tier: list[int], top: float, bottom: float) -> float:
    """Median brightness of a band across these boxes, `top` to `bottom` in box heights from the boxes' tops.

    The band leaves out a fifth of each box's width at either side, where a neighbour or the table shows.
    """
    height, width = gray.shape[:2]
    strips = []
    for i in tier:
        x1, y1, x2, y2 = xyxy[i]
        inset = 0.2 * (x2 - x1)
        upper, lower = int(round(y1 + top * (y2 - y1))), int(round(y1 + bottom * (y2 - y1)))
        left, right = int(round(x1 + inset)), int(round(x2 - inset))
        upper, lower, left, right = max(0, upper), min(height, lower), max(0, left), min(width, right)
        if lower > upper and right > left:
            strips.append(gray[upper:lower, left:right].ravel())
    values = np.concatenate(strips) if strips else np.zeros(0)
    return float(np.median(values)) if values.size else math.nan


def _dark_bar_below(gray: np.ndarray, xyxy: np.ndarray, tier: list[int],
                    back: list[int] | None = None) -> bool:
    """Whether the band right under these tiles (a rack's lip) is far darker than their faces and the table.

    The table is looked at in front of the lip and behind the `back` tier (or these tiles): a dark table
    puts a dark band under any row, but not one darker than the table itself.
    """
    bar = _band_brightness(gray, xyxy, tier, 1.0, 1.15)
    face = _band_brightness(gray, xyxy, tier, 0.3, 0.7)
    table = max(_band_brightness(gray, xyxy, tier, 1.5, 2.0),
                _band_brightness(gray, xyxy, back or tier, -0.5, -0.15))
    return bool(bar < 0.4 * face and not bar > 0.8 * table)


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
    tile heights apart); rows lying on the table keep at least 1.12 tile heights apart. None when the
    lines are not such a pair (a line that wanders from one table row to the next is no tier).
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
    aligned = (np.abs(dx[np.arange(len(shorter)), nearest]) < 0.6 * width) & (dy > 0.35) & (dy < farthest)
    if aligned.mean() < 0.7:
        return None
    return float(np.median(dy[aligned]))


def _line_slope(points: np.ndarray) -> float:
    """dy/dx of the least-squares line through points (0 for fewer than two distinct x)."""
    x = points[:, 0] - points[:, 0].mean()
    denom = float(x @ x)
    return 0.0 if denom == 0 else float(x @ (points[:, 1] - points[:, 1].mean())) / denom


def _rack_order(tiers: tuple[list[int], list[int]], centers: np.ndarray, angles: np.ndarray) -> list[int]:
    """A rack's tiles as its owner reads them: upper (back) tier first, each tier along the tiles' right."""
    up_angle = circular_mean(angles[tiers[0] + tiers[1]], 360.0)
    right, up = direction_vectors(up_angle)
    ordered = sorted((tier for tier in tiers if tier), key=lambda tier: -float((centers[tier] @ up).mean()))
    return [i for tier in ordered for i in sorted(tier, key=lambda k: float(centers[k] @ right))]


def _interval_overlap(xs: np.ndarray, ys: np.ndarray) -> float:
    """Share of the shorter span covered by both spans."""
    lo, hi = max(xs.min(), ys.min()), min(xs.max(), ys.max())
    shorter = min(xs.max() - xs.min(), ys.max() - ys.min())
    return 0.0 if shorter <= 0 else max(0.0, hi - lo) / shorter
