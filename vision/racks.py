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

    Racks along the image's x axis are found (the caller also passes the boxes transposed, for racks
    along y). Returns each rack as its two tiers.
    """
    n = len(xyxy)
    wh = xyxy[:, 2:] - xyxy[:, :2]
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    # Perspective shears standing tiles, so their angle may be well off upright: every tile may be on a
    # tier. Only near-upright tiles tell the shape of the tiles around (a turned tile's box does not).
    square = np.abs(np.cos(np.radians(angles))) > 0.95
    shape = wh[:, 1] / np.maximum(wh[:, 0], 1e-6)
    lines = [line for line in _box_lines(xyxy, np.arange(n)) if len(line) >= 2]
    # Candidate pairs of lines, one above the other, nearest first: a rack's two tiers are the closest
    # pair (the table's rows behind a rack are further up).
    by_top = sorted(range(len(lines)), key=lambda k: centers[lines[k], 1].mean())
    candidates: list[tuple[float, int, int]] = []
    for a_pos, a in enumerate(by_top):
        for b in by_top[a_pos + 1:]:
            upper, lower = lines[a], lines[b]
            height = float(np.median(wh[upper + lower, 1]))
            # Tiers stand a rack's depth apart: about a tile's real height, which a squat (foreshortened)
            # tile no longer shows, so its width stands in for it.
            depth = max(height, float(np.median(wh[upper + lower, 0])) / DEFAULT_ASPECT)
            # Offset square to the tiers' slope.
            slope = _line_slope(centers[upper + lower])
            offset = float(centers[lower, 1].mean() - centers[upper, 1].mean()) / math.sqrt(1 + slope * slope)
            if not 0.55 * height < offset < 1.7 * depth:
                continue
            if _interval_overlap(centers[upper, 0], centers[lower, 0]) < 0.3:
                continue
            candidates.append((offset / height, a, b))
    racks: list[tuple[list[int], list[int]]] = []
    used: set[int] = set()
    for _, a, b in sorted(candidates):
        if a in used or b in used:
            continue
        upper, lower = lines[a], lines[b]
        members = upper + lower
        others = [i for i in range(n) if i not in set(members) and square[i]]
        standing = False
        if len(others) >= 3 and len(members) >= min_tiles and min(len(upper), len(lower)) >= 3:
            ratio = float(np.median(shape[members])) / float(np.median(shape[others]))
            reference = float(np.median(shape[others]))
            # Lying tiles never look as squat as 0.75 (that would be a camera almost level with the
            # table): when the others do, they are the standing ones and this pair is table rows.
            standing = ratio < 0.72 or (ratio > 1.3 and reference > 0.75)
        # Seen from a player's side, standing and lying tiles may look alike; the rack itself does not:
        # a dark bar right under the front tier.
        if not standing and gray is not None and len(members) >= 6:
            standing = _dark_bar_below(gray, xyxy, lower, frame_median)
        if standing:
            racks.append((upper, lower))
            used.update((a, b))
    if gray is not None:
        # A rack whose back tier is empty (or hidden): one long tier on a dark bar, the table bright above.
        for k, line in enumerate(lines):
            if k in used or len(line) < 5:
                continue
            bright_above = _strip_brightness(gray, xyxy, line, above=True) > 100
            if bright_above and _dark_bar_below(gray, xyxy, line, frame_median):
                racks.append((line, []))
                used.add(k)
    return racks


_CHANNEL_MEAN = np.full((1, 3), 1 / 3, np.float32)


def _strip_brightness(gray: np.ndarray, xyxy: np.ndarray, tier: list[int], above: bool = False) -> float:
    """Median brightness of a strip a third of a tile high right under (or over) these tiles."""
    height, width = gray.shape[:2]
    strips = []
    for i in tier:
        x1, y1, x2, y2 = xyxy[i]
        depth = 0.35 * (y2 - y1)
        top, bottom = (y1 - depth, y1) if above else (y2, y2 + depth)
        top, bottom = int(round(top)), int(round(bottom))
        left, right = int(round(x1)), int(round(x2))
        if bottom <= top or right <= left or top >= height or bottom <= 0:
            continue
        strips.append(gray[max(0, top):min(height, bottom), max(0, left):min(width, right)].ravel())
    values = np.concatenate(strips) if strips else np.zeros(0)
    return float(np.median(values)) if values.size else math.nan


def _dark_bar_below(gray: np.ndarray, xyxy: np.ndarray, tier: list[int], frame_median: float) -> bool:
    """Whether a strip a third of a tile high right under these tiles is much darker than the frame."""
    strip = _strip_brightness(gray, xyxy, tier)
    return bool(strip < 0.5 * frame_median and strip < 80)


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
