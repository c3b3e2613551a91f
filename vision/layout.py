"""From a bag of detected tiles to a table: sets in reading order, loose tiles, racks.

Geometry needs the boxes and, when the classifier gives it, each tile's "up" direction
(`Detections.angle`, degrees counter-clockwise, 0 upright). The steps:

1. Each tile's orientation: the classifier's angle, or (no angle known) the box's aspect for "upright or
   sideways" and the direction to the nearest neighbour for the tilt. A tile touching a row but read turned
   off it (a joker's face tells its up poorly) takes its row's angle where the geometry says it lies in it
   (`square_with_neighbours`): tiles touching in a row are one set whatever their faces.
2. Each tile's own width and height, recovered from its axis-aligned box and orientation.
3. Links between neighbours side by side along the tiles' right direction (perspective may shear a row
   off it by up to `max_shear`), each tile keeping its best neighbour on either side; chains of links.
4. Cuts: a chain is cut where a step between centres is longer than the steps around it by
   `gap_fraction` of a tile (the chain is its own ruler, so perspective and size estimates cancel out);
   a tile pushed onto its neighbour is not a gap; steps too close to call are decided by the rules
   (`rebuild` passes a judge: the cut that leaves more tiles in valid sets wins). Tiles left alone may
   chain top to bottom (tiles stacked in a column, as in some photos) before they are called loose.
5. Racks: two tiers of standing tiles one right behind the other, told by a shape unlike the lying
   tiles' (foreshortening) or, given the frame, by the dark bar under the front tier.
6. Reading order: along the tiles' own right direction, so a set seen from across the table (tiles
   upside-down) reads in the players' order, not the camera's. Without orientations, the rules pick.

`rebuild` adds the rules: each set's verdict and the correction of doubtful readings (`vision.correction`).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from assistant.tiles import CLASS_INDEX, tile_from_class_id
from vision.correction import SetChecks, correct
from vision.detections import UNKNOWN_CLASS, cut_by_frame  # noqa: F401  (cut_by_frame: re-exported)
from vision.orientation import settle_half_turns
from vision.placed import (  # noqa: F401  (re-exported: the layout's public types)
    DEFAULT_ASPECT,
    Layout,
    PlacedTile,
    Suggestion,
    direction_vectors,
    reason_text,
)
from vision.rack_check import load_tile_stance
from vision.racks import find_racks, rack_owners, tiles_on_rack_boxes
from vision.stopwatch import Stopwatch

if TYPE_CHECKING:
    from assistant.rules import Rules
    from vision.detections import Detections

SetJudge = Callable[[list[int]], bool]
"""Whether the detections at these indices, in this order, form a valid set (rules-aware cutting)."""
PUSH_WINDOW = 3
"""Most steps measured together around a tile pushed onto its neighbour (two pushed in a row need three)."""
MAX_RULED_STEPS = 6
"""Most doubtful steps of one chain the rules decide together (every combination of cuts is tried)."""
NO_GAP_STEP = 1.0
"""A step between centres of at most this many tile widths shows no gap: the two tiles touch, and the rules
never cut there (tiles touching in a row are one set whatever their faces). Photo game zoom2 3211-p3 game 5
(tuning), read at 448: k8 k9 k10 k12 laid tight, the k10-k12 step 0.065 tile under the gap limit, cut by the
rules into a valid run and a lone k12 that the referee joined to r12 o12 b12 beside it: an illegal play
called legal."""
JOKER_CLASS = CLASS_INDEX["joker"]
"""A joker's face has no numeral: the classifier reads its up less surely (`square_with_neighbours`)."""


# --------------------------------------------------------------------------------------------- geometry


def _wrap180(angle: np.ndarray | float) -> np.ndarray:
    """Angles in degrees folded to [-180, 180)."""
    return (np.asarray(angle, dtype=np.float64) + 180.0) % 360.0 - 180.0


def _median(values: np.ndarray | list[float]) -> float:
    """`np.median` of a few finite values, without numpy's overhead per call (the layout asks per chain)."""
    ordered = sorted(float(v) for v in values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def circular_mean(angles_deg: np.ndarray, period: float = 360.0) -> float:
    """Mean direction of angles with the given period (360 for directions, 180 for axes)."""
    radians = np.asarray(angles_deg, dtype=np.float64).reshape(-1) * (2 * math.pi / period)
    if radians.size == 0:
        return 0.0
    # Sums, not means: the direction is the same, and ndarray.mean costs more than the sines of a set.
    mean = math.atan2(float(np.sin(radians).sum()), float(np.cos(radians).sum()))
    return mean * period / (2 * math.pi)


def estimate_angles(xyxy: np.ndarray) -> np.ndarray:
    """Each tile's up direction from boxes alone (no classifier angle).

    The box's aspect tells whether the tile lies upright (taller than wide) or sideways; the direction to
    the nearest touching neighbour tells the tilt (neighbours sit along a tile's edges). Which way is up
    cannot be told from boxes: upright tiles are taken as facing the camera, sideways ones as turned left.
    """
    n = len(xyxy)
    if n == 0:
        return np.zeros(0)
    wh = xyxy[:, 2:] - xyxy[:, :2]
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    base = np.where(wh[:, 1] >= wh[:, 0], 0.0, 90.0)
    angles = base.copy()
    if n < 2:
        return angles
    dist = np.linalg.norm(centers[:, None] - centers[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    long_side = wh.max(axis=1)
    for i in range(n):
        j = int(np.argmin(dist[i]))
        if dist[i, j] > 1.3 * max(long_side[i], long_side[j]):
            continue
        dx, dy = centers[j] - centers[i]
        # Direction of the neighbour, folded to a tilt in [-45, 45): a neighbour at 3 o'clock or 12 o'clock
        # both mean no tilt. Image y grows downwards, so the counter-clockwise tilt is -atan2(dy, dx).
        tilt = float(_wrap180(-math.degrees(math.atan2(dy, dx))) % 90.0)
        if tilt >= 45.0:
            tilt -= 90.0
        angles[i] = base[i] + tilt
    return angles


ASPECT_SOLVED = (0.4, 1.5)
"""Widths over heights a box solved as a turned rectangle may give (a tile seen from low down, its height
foreshortened, looks up to half again as wide as tall); outside them the box was of a tile in perspective,
not of a turned rectangle, and the tile takes the usual aspect (tuning renders 8900: a joker seen from low
down solved three times taller than wide, its width a third short of its row's step, was left out of its
set; the table's valid sets kept whole 87.04 -> 88.15 %)."""


def tile_sizes(xyxy: np.ndarray, angles: np.ndarray) -> tuple[np.ndarray, float]:
    """Each tile's own (width, height) from its axis-aligned box and orientation, and the typical aspect.

    A rectangle `a x b` turned by phi has the box `w = a|cos| + b|sin|`, `h = a|sin| + b|cos|`. Near 45
    degrees that cannot be solved for both sides, so those tiles use the aspect of the well-conditioned ones.
    """
    wh = (xyxy[:, 2:] - xyxy[:, :2]).astype(np.float64)
    phi = np.radians(angles)
    c, s = np.abs(np.cos(phi)), np.abs(np.sin(phi))
    det = c * c - s * s
    good = np.abs(det) > 0.35
    a = np.where(good, (c * wh[:, 0] - s * wh[:, 1]) / np.where(good, det, 1.0), 0.0)
    b = np.where(good, (c * wh[:, 1] - s * wh[:, 0]) / np.where(good, det, 1.0), 0.0)
    good &= (a > 0) & (b > 0)
    good &= (a >= ASPECT_SOLVED[0] * b) & (a <= ASPECT_SOLVED[1] * b)
    ratios = a[good] / b[good]
    aspect = float(np.clip(np.median(ratios), 0.45, 1.0)) if ratios.size else DEFAULT_ASPECT
    height = (wh[:, 0] + wh[:, 1]) / ((1 + aspect) * (c + s))
    width = aspect * height
    sizes = np.stack([np.where(good, a, width), np.where(good, b, height)], axis=1)
    return np.maximum(sizes, 1.0), aspect


def complete_cut_boxes(xyxy: np.ndarray, image_size: tuple[int, int], angles: np.ndarray,
                       margin: float = 2.0) -> np.ndarray:
    """Boxes cut by the frame's edge, grown back to their neighbours' size on the side the edge hides.

    A tile half out of the frame shows a half box whose centre sits half the missing part away from the
    tile's own, towards its neighbour inside the frame: measured as it is, the step to that neighbour
    looks short and the next one long, or the tile looks loose. Tiles lying the same way next to it
    tell the whole box's size.
    """
    width, height = image_size
    cut = cut_by_frame(xyxy, image_size, margin)
    whole = np.flatnonzero(~cut)
    if not cut.any() or whole.size == 0:
        return xyxy
    out = xyxy.copy()
    wh = xyxy[:, 2:] - xyxy[:, :2]
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    for i in np.flatnonzero(cut):
        turn = np.abs(_wrap180((angles[whole] - angles[i]) * 2)) / 2
        same_way = whole[turn < 15.0]
        if same_way.size == 0:
            continue
        distance = np.linalg.norm(centers[same_way] - centers[i], axis=1)
        near = same_way[np.argsort(distance)[:4]]
        near = near[np.linalg.norm(centers[near] - centers[i], axis=1) < 2.5 * wh[near].max(axis=1)]
        if near.size == 0:
            continue
        full_w, full_h = np.median(wh[near], axis=0)
        x1, y1, x2, y2 = xyxy[i]
        if x1 <= margin and x2 - x1 < full_w:
            out[i, 0] = x2 - full_w
        elif x2 >= width - margin and x2 - x1 < full_w:
            out[i, 2] = x1 + full_w
        if y1 <= margin and y2 - y1 < full_h:
            out[i, 1] = y2 - full_h
        elif y2 >= height - margin and y2 - y1 < full_h:
            out[i, 3] = y1 + full_h
    return out


@dataclass(frozen=True)
class LayoutParams:
    """Tolerances of the grouping, in tile widths / heights.

    Attributes:
        gap_fraction: a step between neighbours this share of a tile's width longer than the steps around
            it starts a new set.
        link_gap: neighbours further apart than this share of a tile's width are never in one set.
        max_shear: degrees a neighbour in a row may sit off the tile's own right axis (perspective).
        max_turn: degrees two tiles of one set may differ in orientation. 30 (25 before the thirty-eighth
            session): a small far tile's up is now and then read 25 degrees off its neighbour's on every
            frame (photo game zoom2 3211-p3 game 7: r6 r7 r8 read at 25, 17, 39 degrees, called three loose
            tiles); with one tile of each tuning set turned 20 / 25 degrees further, 85.9 / 68.9 % of sets
            stay whole at 25 and 91.2 / 85.2 % at 30 (`docs/experiments/scripts-s38/set_grouping.py`).
        columns: also chain tiles stacked top to bottom (as in photos of sets laid in columns).
        detect_racks: look for racks at all.
        geometric_racks: also tell racks by the tiles' geometry (`vision.racks.find_racks`); by default
            only when the detector does not find racks itself (`Detections.rack_xyxy` is None).
        rules_reach: gaps up to this much over the limit (tile widths) are closed when that leaves more
            tiles in valid sets (a tile pushed a little apart inside a run).
        pair_turn: degrees two tiles may differ in orientation and still be a pair (not two loose tiles).
        rules_margin: steps this close (in tile widths) to the gap limit are decided by the rules (a cut
            that leaves more tiles in valid sets), when `group` is given a judge.
        stance_check: keep a tile on the rack box that holds it only where the stance network
            (`vision.rack_check.TileStance`, where shipped) says it stands on a rack, given the frame.
    """

    gap_fraction: float = 0.13
    link_gap: float = 0.8
    max_shear: float = 35.0
    max_turn: float = 30.0
    columns: bool = True
    detect_racks: bool = True
    geometric_racks: bool | None = None
    rules_margin: float = 0.1
    rules_reach: float = 0.3
    pair_turn: float = 8.0
    stance_check: bool = True


BOX_FITS_WITHIN = 0.12
"""A tile's box fits a tile of its neighbour's size lying some way when each side is within this log ratio of
that tile's box (a side the frame cuts counts only when it is too long)."""
BOX_FITS_BETTER_BY = 0.15
"""A box says the classifier's angle is wrong when it fits that angle worse than the neighbour's by this
much."""
TOUCHING_STEP = (0.45, 1.25)
"""Steps between centres (in the neighbour's widths) of a tile touching its neighbour in a row (pushed onto
it, or a little apart)."""


def _box_misfit(box_wh: np.ndarray, tile_ab: np.ndarray, angle: np.ndarray, cut_xy: np.ndarray) -> np.ndarray:
    """How far a box is (the larger log ratio of its sides) from those of tiles `tile_ab` lying at `angle`.

    A side cut by the frame (`cut_xy`) shows only part of its tile: it counts only when it is too long.
    """
    phi = np.radians(angle)
    c, s = np.abs(np.cos(phi)), np.abs(np.sin(phi))
    predicted = np.stack([tile_ab[..., 0] * c + tile_ab[..., 1] * s,
                          tile_ab[..., 0] * s + tile_ab[..., 1] * c], axis=-1)
    ratio = np.log(np.maximum(box_wh, 1e-6) / np.maximum(predicted, 1e-6))
    return np.where(cut_xy, np.maximum(ratio, 0.0), np.abs(ratio)).max(axis=-1)


def _side_by_side_step(turn: np.ndarray, aspect: float) -> np.ndarray:
    """The shortest step (in tile widths) between the centres of two tiles side by side, not overlapping,
    one turned `turn` degrees from the other: half a width, and half what the turned one spans along the
    row."""
    phi = np.radians(turn)
    return 0.5 + 0.5 * (np.abs(np.cos(phi)) + np.abs(np.sin(phi)) / aspect)


def square_with_neighbours(xyxy: np.ndarray, angles: np.ndarray, image_size: tuple[int, int] | None = None,
                           params: LayoutParams | None = None, up_known: bool = True,
                           weak_up: np.ndarray | None = None, passes: int = 6) -> np.ndarray:
    """The classifier's angles, a tile's set to its neighbour's where the geometry says it lies in that
    neighbour's row, square to it.

    The classifier reads a tile's up from its face: a numeral tells it within a few degrees, a joker's round
    face (`weak_up`) less surely, a face half hidden or cut by the frame worse still (rendered tables: jokers
    now and then 25 to 40 degrees off, on clear photos too). Turned more than `LayoutParams.max_turn` off its
    row, a tile touching it is not linked to it (`J r6 r7` laid tight came out as `J | r6 r7`); read half
    turned, it links the wrong way round and breaks its row; a joker read 9 degrees off is no pair with its
    neighbour (`pair_turn`).

    Tile i is looked at beside a neighbour j when its centre lies in j's row (a step of `TOUCHING_STEP` of
    j's width, within `max_shear` of j's right axis) and its angle is turned from j's by more than
    `max_turn`, or half round, or (a joker beside a numeral) by more than `pair_turn`. It takes j's axis, the
    way nearest its own up, when j's angle is trusted (backed by its row, or a numeral's beside a joker),
    i's box fits a tile of j's size lying as j does (`BOX_FITS_WITHIN`), and
      - the box fits the classifier's angle clearly worse (`BOX_FITS_BETTER_BY`),
      - or i's centre is too close to j's for a tile turned that much to lie beside it (a box cannot tell
        a tilt from its mirror image: -20 from 13 degrees; `_side_by_side_step`),
      - or i is a joker and j a numeral.
    On j's axis but turned half round (`up_known`), i takes j's up when j is backed, or i is a joker and j
    a numeral no tile of its row faces the other way.

    A tile turned as another of its row, beside it or one further, is backed (a joker only by a numeral)
    and keeps its angle; so does one that touches a tile it links to as read (a tile at the corner of two
    sets), unless it is a joker and that tile a joker too. Loose tiles keep theirs: their boxes fit them.
    Tiles set right in one pass are neighbours for the next (two jokers side by side; a row read half
    turned, set right once its row backs it).
    """
    params = params or LayoutParams()
    n = len(xyxy)
    angles = np.asarray(angles, dtype=np.float64).copy()
    if n < 2:
        return angles
    weak = np.zeros(n, bool) if weak_up is None else np.asarray(weak_up, bool)
    weak_pair = weak[:, None] & ~weak[None, :]  # [i, j]: a joker beside a numeral
    both_weak = weak[:, None] & weak[None, :]
    wh = xyxy[:, 2:] - xyxy[:, :2]
    if image_size is None:
        cut_xy = np.zeros((n, 2), bool)
    else:
        # Sides the frame may cut: a detector's box of a cut tile can stop a few pixels short of the edge.
        width, height = image_size
        margin = np.maximum(2.0, 0.05 * wh.max(axis=1))
        cut_xy = np.stack([(xyxy[:, 0] <= margin) | (xyxy[:, 2] >= width - margin),
                           (xyxy[:, 1] <= margin) | (xyxy[:, 3] >= height - margin)], axis=1)
    cos_shear = math.cos(math.radians(params.max_shear))
    shortest, longest = TOUCHING_STEP
    for _ in range(passes):
        # Whole tiles' sizes and centres (a tile the frame cuts grown back, `complete_cut_boxes`); a box is
        # matched as it shows, its cut sides counted only when too long.
        whole = xyxy if image_size is None else complete_cut_boxes(xyxy, image_size, angles)
        sizes, _ = tile_sizes(whole, angles)
        centers = (whole[:, :2] + whole[:, 2:]) / 2
        d = centers[None, :, :] - centers[:, None, :]
        distance = np.hypot(d[..., 0], d[..., 1])
        # [i, j]: tile i seen from tile j. How far i's angle turns from j's axis (mod a half turn), whether
        # its up is turned more than a quarter from j's, whether it lies along j's right axis (perspective
        # shears a row by up to `max_shear`), its step in j's widths (the box's sides solved one by one are
        # far off for a tile turned near 45 degrees and seen in perspective; from both together with the
        # usual aspect, too narrow for a tile foreshortened: the wider).
        turn = np.abs(_wrap180((angles[:, None] - angles[None, :]) * 2)) / 2
        half_turned = (np.abs(_wrap180(angles[:, None] - angles[None, :])) > 90.0 if up_known
                       else np.zeros((n, n), bool))
        theta = np.radians(angles)
        c, s = np.abs(np.cos(theta)), np.abs(np.sin(theta))
        right = np.stack([np.cos(theta), -np.sin(theta)], axis=1)
        in_line = np.abs((d * right[None, :, :]).sum(axis=2)) >= distance * cos_shear
        width = DEFAULT_ASPECT * (whole[:, 2:] - whole[:, :2]).sum(axis=1) / ((1 + DEFAULT_ASPECT) * (c + s))
        step = distance / np.maximum(np.maximum(width, sizes[:, 0]), 1.0)[None, :]
        touching = (step >= shortest) & (step <= longest) & in_line
        in_row = (step <= 2 * longest) & in_line  # beside j or one tile further
        alike = (turn <= params.pair_turn) & (distance > 0)
        backed = np.where(weak, (alike & ~half_turned & in_row & ~weak[:, None]).any(axis=0),
                          (alike & ~half_turned & in_row).any(axis=0))
        # A numeral no other numeral of its row faces the other way is surer of its up than a joker.
        unopposed = ~weak & ~(alike & half_turned & in_row & ~weak[:, None]).any(axis=0)
        linked = (touching & (turn <= params.max_turn) & ~half_turned & (distance > 0)
                  & ~both_weak).any(axis=1)
        near = touching & ~backed[:, None] & (
            (((turn > params.max_turn) | half_turned) & ~linked[:, None])
            | (weak_pair & (turn > params.pair_turn)))
        if not near.any():
            break
        proposals = []
        for i in np.flatnonzero(near.any(axis=1)):
            js = np.flatnonzero(near[i])
            theirs = _box_misfit(wh[i], sizes[js], angles[js], cut_xy[i])
            own = _box_misfit(wh[i], sizes[js], np.full(len(js), angles[i]), cut_xy[i])
            too_close = step[i, js] < _side_by_side_step(turn[i, js], DEFAULT_ASPECT) - 0.05
            on_axis = turn[i, js] <= params.pair_turn  # and so turned half round
            fits = np.where(on_axis, backed[js] | (weak_pair[i, js] & unopposed[js]),
                            (backed[js] | weak_pair[i, js]) & (theirs <= BOX_FITS_WITHIN)
                            & ((own >= theirs + BOX_FITS_BETTER_BY) | too_close | weak_pair[i, js]))
            if fits.any():
                k = int(np.argmin(np.where(fits, theirs - own, np.inf)))
                proposals.append((float(theirs[k] - own[k]), int(i), int(js[k]), bool(on_axis[k])))
        if not proposals:
            break
        updated = angles.copy()
        used: set[int] = set()
        for _, i, j, half_turn in sorted(proposals):  # surest first; a tile set right is no reference yet
            if i in used or (j in used and updated[j] != angles[j]):
                continue
            # Turned half round: j's up. Else j's axis, the way nearest its own up (read half turned from j,
            # it is set right in a next pass, once j is backed).
            axis = float(angles[j])
            updated[i] = axis if half_turn or abs(float(_wrap180(angles[i] - axis))) <= 90.0 else axis + 180.0
            used.update((i, j))
        angles = updated
    return angles

def _chains(
    centers: np.ndarray,
    angles: np.ndarray,
    sizes: np.ndarray,
    candidates: np.ndarray,
    axis: str,
    params: LayoutParams,
    judge: SetJudge | None = None,
) -> list[list[int]]:
    """Chains of tiles touching along `axis` ("row": side by side, "column": stacked), split at gaps.

    Neighbours are linked generously (up to `link_gap` of a tile apart); a chain is then cut where one step
    is longer than the steps around it by more than `gap_fraction` of a tile. Comparing with the chain's own
    steps makes the cut independent of how well a tile's size is estimated from its box (perspective,
    shear) and of the small gaps some players leave inside a set.
    """
    idx = np.flatnonzero(candidates)
    best_next: dict[int, tuple[float, int, float]] = {}
    best_prev: dict[int, tuple[float, int]] = {}
    steady = _steady_sizes(centers, sizes)
    for i, j, along, step, score in _link_candidates(idx, centers, angles, steady, axis, params):
        first, second = (i, j) if along > 0 else (j, i)
        if score < best_next.get(first, (math.inf, -1, 0.0))[0]:
            best_next[first] = (score, second, step)
        if score < best_prev.get(second, (math.inf, -1))[0]:
            best_prev[second] = (score, first)
    # A link counts when each tile is the other's best neighbour on that side (no branching).
    nexts = {first: (second, step) for first, (_, second, step) in best_next.items()
             if best_prev.get(second, (0.0, -1))[1] == first}
    has_prev = {second for second, _ in nexts.values()}
    typical = _median([step for _, step in nexts.values()]) if nexts else 1.0
    link_first = np.fromiter(nexts, dtype=np.int64, count=len(nexts))
    link_step = np.array([step for _, step in nexts.values()], dtype=np.float64)
    link_angle = angles[link_first]
    chains: list[list[int]] = []
    visited: set[int] = set()
    # Chains start at tiles with no predecessor; whatever is left lies on a loop (overlapping tiles) and
    # is walked from any of its tiles.
    starts = [int(i) for i in idx if int(i) not in has_prev] + [int(i) for i in idx]
    for start in starts:
        if start in visited:
            continue
        path, steps = [start], []
        visited.add(start)
        while path[-1] in nexts and nexts[path[-1]][0] not in visited:
            following, step = nexts[path[-1]]
            path.append(following)
            steps.append(step)
            visited.add(following)
        if len(path) == 1:  # a tile alone: nothing to measure or cut
            chains.append(path)
            continue
        col = 0 if axis == "row" else 1
        # A tile partly hidden (or cut by the image border) shows a smaller box, whose centre is off by up
        # to half of what is missing: measure its steps against the chain's whole tiles, less that half.
        full = _median(sizes[path, col])
        for k in range(len(steps)):
            a, b = path[k], path[k + 1]
            if min(sizes[a, col], sizes[b, col]) < 0.7 * full:
                hidden = max(0.0, full - sizes[a, col]) + max(0.0, full - sizes[b, col])
                steps[k] = (float(np.hypot(*(centers[b] - centers[a]))) - hidden / 2) / full
        in_path = np.zeros(len(centers), bool)
        in_path[path] = True
        reference = _typical_step(in_path[link_first], link_step, link_angle - angles[path[0]], typical)
        excess, explained = _gap_excess(steps, reference, params.gap_fraction)
        touching = {k for k, step in enumerate(steps) if step <= NO_GAP_STEP and excess[k] <= 0}
        for piece in _cut(path, excess, judge, params.rules_margin, explained, params.rules_reach, touching):
            # Two tiles side by side are a started set only when laid square to each other; two loose
            # tiles that happen to touch are turned every which way.
            turn = abs(((float(angles[piece[0]] - angles[piece[-1]]) * 2 + 180.0) % 360.0 - 180.0) / 2)
            chains.extend([[k] for k in piece] if len(piece) == 2 and turn > params.pair_turn else [piece])
    return chains


def _steady_sizes(centers: np.ndarray, sizes: np.ndarray, neighbours: int = 4) -> np.ndarray:
    """Each tile's size as the median over it and its nearest neighbours.

    One box's size estimate is noisy (a few degrees of error in the angle moves it by a fifth); tiles
    next to each other are the same size up to a slow perspective change.
    """
    n = len(centers)
    if n < 3:
        return sizes
    dist = np.linalg.norm(centers[:, None] - centers[None], axis=2)
    near = np.argsort(dist, axis=1)[:, : neighbours + 1]  # each tile itself first
    within = np.take_along_axis(dist, near, axis=1) <= 2.0 * sizes.max(axis=1, keepdims=True)
    gathered = np.where(within[:, :, None], sizes[near], np.nan)
    # np.nanmedian over axis 1, without its per-call cost: NaNs sort last, each tile counts itself.
    ordered = np.sort(gathered, axis=1)
    count = within.sum(axis=1)
    rows = np.arange(n)
    low = ordered[rows, (count - 1) // 2]
    high = ordered[rows, count // 2]
    return np.where((count % 2 == 1)[:, None], low, (low + high) / 2)


def _link_candidates(
    idx: np.ndarray, centers: np.ndarray, angles: np.ndarray, sizes: np.ndarray, axis: str,
    params: LayoutParams,
) -> list[tuple[int, int, float, float, float]]:
    """Pairs (i < j in `idx` order) that may touch along `axis`: (i, j, along, step, score), all at once.

    `along` is the signed distance along the pair's mean axis (which one comes first), `step` the centre
    distance in tile sizes along that axis, `score` how good a neighbour (0 = touching, square on).
    """
    if len(idx) < 2:
        return []
    a = angles[idx]
    c = centers[idx]
    sz = sizes[idx]
    half_turn = _wrap180((a[None, :] - a[:, None]) * 2)
    turn = np.abs(half_turn) / 2
    # Mean axis of the two tiles (mod 180, so an upside-down neighbour still lines up).
    theta = np.radians(a[:, None] + half_turn / 4)
    if axis == "row":
        ax, ay = np.cos(theta), -np.sin(theta)
    else:  # down the tile: minus its up
        ax, ay = np.sin(theta), np.cos(theta)
    d = c[None, :, :] - c[:, None, :]
    distance = np.hypot(d[..., 0], d[..., 1])
    along = d[..., 0] * ax + d[..., 1] * ay
    col = 0 if axis == "row" else 1
    size_along = (sz[:, None, col] + sz[None, :, col]) / 2
    width = np.maximum(sz[:, None, 0], sz[None, :, 0])
    step = distance / size_along
    upper = np.triu(np.ones((len(idx), len(idx)), bool), k=1)
    # Perspective shears a tile: its up is not square to the row it lies in, so the neighbour may sit
    # off the tile's own right axis by up to `max_shear` degrees. A tile pushed half onto its neighbour
    # leaves only the neighbour's uncovered part in its box: their centres may come within 0.4 tile.
    ok = (upper & (turn <= params.max_turn) & (distance > 0)
          & (np.abs(along) >= distance * math.cos(math.radians(params.max_shear)))
          & (step >= 0.4) & (distance - size_along <= params.link_gap * width))
    # How far the neighbour sits off the tile's row, in tile sizes across it (not as an angle: a neighbour
    # pushed onto the tile is close, so a small sideways shift makes a large angle but not a bad
    # neighbour). An overlap costs half what a gap does: tiles pushed together are still one row, while
    # a longer step may skip over the tile really next in line.
    across = (sz[:, None, 1 - col] + sz[None, :, 1 - col]) / 2
    lateral = np.sqrt(np.clip(distance ** 2 - along ** 2, 0.0, None)) / across
    score = np.where(step < 1.0, 0.5, 1.0) * np.abs(step - 1.0) + 1.3 * lateral
    p, q = np.nonzero(ok)
    return list(zip(idx[p].tolist(), idx[q].tolist(), along[p, q].tolist(), step[p, q].tolist(),
                    score[p, q].tolist(), strict=True))


def _typical_step(own: np.ndarray, link_step: np.ndarray, link_turn: np.ndarray, overall: float) -> float:
    """The usual step between touching tiles turned like this chain's, from the other chains' links.

    Sets turned another way (laid from another side) have their own bias in the estimated tile size, so
    they are compared among themselves; with fewer than three such links the whole table's usual step is
    used. Per link: whether it starts in this chain, its step, its first tile's angle less the chain's.
    """
    similar = link_step[~own & (np.abs(_wrap180(link_turn * 2)) / 2 < 20.0)]
    return _median(similar) if len(similar) >= 3 else overall


def _gap_excess(steps: list[float], typical: float, gap_fraction: float) -> tuple[list[float], set[int]]:
    """For each step of a chain, by how much (in tile widths) it exceeds what a step inside a set may be.

    Also returns the steps that look like gaps but were explained away by a short step next to them (a
    tile pushed onto its neighbour): which of two long steps beside a short one is the gap is a guess,
    so `_cut` lets the rules decide those.

    A positive excess is a gap between sets. Steps are centre distances in tile widths. With two or more
    steps around, they are the reference. A three-tile chain has one: evenly spaced, its tiles are a set
    unless both steps are well over the scene's typical step (loose tiles in a line); unevenly, the longer
    step is a gap. A pair is a set when its step is close to the typical one. Perspective biases a region's
    steps a little, so tests against the scene's typical step are looser than those against a chain's own
    steps.
    """
    # Perspective makes steps drift along a long chain (near tiles look bigger): follow the drift with a
    # robust (Theil-Sen) slope, which a gap or two cannot pull.
    slope = 0.0
    if len(steps) >= 5:
        slope = _median([(steps[b] - steps[a]) / (b - a)
                         for a in range(len(steps)) for b in range(a + 1, len(steps))])
    excess: list[float] = []
    explained: set[int] = set()
    for k, step in enumerate(steps):
        window = [j for j in range(max(0, k - 4), min(len(steps), k + 5)) if j != k]
        around = [steps[j] + slope * (k - j) for j in window]
        if len(around) >= 2:
            reference = _median(around)
            over = step - (reference + gap_fraction)
            # A tile pushed onto its neighbour (or pulled off it) makes one step short and the next long by
            # the same amount: together they are two ordinary steps, and there is no gap. Two tiles pushed
            # in a row shorten two steps before a long one: the steps of a run of up to PUSH_WINDOW that
            # holds a short one and no other long one are measured together.
            for others in _push_windows(k, len(steps), PUSH_WINDOW):
                levelled = [steps[j] + slope * (k - j) for j in others]
                if min(levelled) >= reference - gap_fraction / 2 or max(levelled) > reference + gap_fraction:
                    continue
                pushed = step + sum(levelled) - ((len(others) + 1) * reference + gap_fraction)
                if over > 0 and pushed < 2.5 * gap_fraction:
                    explained.add(k)
                over = min(over, pushed)
            # A short chain may be all gaps: then its own steps are no reference.
            if len(around) < 4:
                over = max(over, step - (typical + 3 * gap_fraction))
        elif len(around) == 1:
            other = around[0]
            if abs(step - other) <= gap_fraction:
                over = step - (typical + 3 * gap_fraction)
            elif other < typical - gap_fraction / 2:
                # A tile pushed onto its neighbour: the two steps together are two ordinary ones.
                over = step + other - (2 * typical + gap_fraction)
                if step - (typical + gap_fraction) > 0 and over < 2.5 * gap_fraction:
                    explained.add(k)
            else:
                over = step - (min(other, typical) + gap_fraction)
        else:
            over = step - (typical + 1.5 * gap_fraction)
        excess.append(over)
    return excess, explained


def _push_windows(k: int, count: int, longest: int) -> list[list[int]]:
    """The other steps of each run of 2..`longest` consecutive steps (of `count`) that holds step `k`."""
    windows = []
    for length in range(2, longest + 1):
        for start in range(max(0, k - length + 1), min(k, count - length) + 1):
            windows.append([j for j in range(start, start + length) if j != k])
    return windows


def _cut(
    path: list[int], excess: list[float], judge: SetJudge | None, margin: float,
    unsure: set[int] | None = None, reach: float = 0.0, touching: set[int] | None = None,
) -> list[list[int]]:
    """Cut a chain at its gaps. Steps within `margin` of the limit (and the `unsure` ones) are decided by
    the rules when a judge is given: the cuts that leave the most tiles in valid sets win; a valid run
    cut or not stays whole; other ties keep the geometric decision. Gaps up to `reach` over the limit
    are closed only where that leaves more tiles in valid sets (`k3 k4 _ k5 k6` is one run a tile
    pushed apart; two valid sets with such a gap stay two). The `touching` steps (no gap shows, see
    `NO_GAP_STEP`) are not the rules' to cut."""

    def pieces_for(cuts: set[int]) -> list[list[int]]:
        pieces, current = [], [path[0]]
        for k in range(len(excess)):
            if k in cuts:
                pieces.append(current)
                current = []
            current.append(path[k + 1])
        pieces.append(current)
        return pieces

    geometric = {k for k, over in enumerate(excess) if over > 0}
    close = {k for k, over in enumerate(excess) if abs(over) < margin or k in (unsure or set())}
    close -= touching or set()
    wide = {k for k, over in enumerate(excess) if margin <= over < reach} - close
    # The rules look at the most doubtful steps, a few at a time (every combination of cuts is tried).
    doubtful = sorted(close | wide, key=lambda k: (k not in close, abs(excess[k])))
    marginal = sorted(doubtful[:MAX_RULED_STEPS])
    if judge is None or not marginal:
        return pieces_for(geometric)
    best: tuple[int, int, int] | None = None
    best_cuts = geometric
    for choice in range(2 ** len(marginal)):
        cuts = {k for k in geometric if k not in marginal}
        cuts |= {k for bit, k in enumerate(marginal) if choice >> bit & 1}
        pieces = pieces_for(cuts)
        valid = [len(p) >= 3 and judge(p) for p in pieces]
        in_valid = sum(len(p) for p, ok in zip(pieces, valid, strict=True) if ok)
        # When the rules accept either way (a valid run with a doubtful gap, cut or not), fewer sets win: a
        # set a player means to keep apart is laid with a clear gap. Wider gaps are only closed for more
        # tiles in valid sets.
        fewer = -len(cuts & close) - len(path) * len(wide - cuts) if all(valid) else -len(path) ** 2
        key = (in_valid, fewer, -len(cuts ^ geometric))
        if best is None or key > best:
            best, best_cuts = key, cuts
    return pieces_for(best_cuts)


def _orders(sets: list[tuple[list[int], str]], centers: np.ndarray, angles: np.ndarray,
            orientation_known: bool) -> list[tuple[list[int], float]]:
    """Each set's members in reading order, and the set's up direction, all sets in one pass.

    With known orientations a set's up is the mean of its tiles' ups (a whole set seen from across the
    table is upside-down and reads right to left in the image). Without, the axis is only known mod 180.
    """
    if not sets:
        return []
    period = 360.0 if orientation_known else 180.0
    flat = np.fromiter((i for members, _ in sets for i in members), dtype=np.int64)
    sizes = np.fromiter((len(members) for members, _ in sets), dtype=np.int64, count=len(sets))
    owner = np.repeat(np.arange(len(sets)), sizes)
    radians = angles[flat] * (2 * math.pi / period)
    # Per set the mean direction (`circular_mean`): sums of sines and cosines, for every set at once.
    ups = np.arctan2(np.bincount(owner, np.sin(radians), len(sets)),
                     np.bincount(owner, np.cos(radians), len(sets))) * (period / (2 * math.pi))
    theta = np.radians(ups)
    column = np.array([axis != "row" for _, axis in sets])
    # Along the set: its right for a row, its down (minus its up) for a column (`direction_vectors`).
    along = np.where(column[:, None], np.column_stack([np.sin(theta), np.cos(theta)]),
                     np.column_stack([np.cos(theta), -np.sin(theta)]))
    keys = (centers[flat] * along[owner]).sum(axis=1).tolist()
    out: list[tuple[list[int], float]] = []
    start = 0
    for (members, _), count, up in zip(sets, sizes.tolist(), ups.tolist(), strict=True):
        if count == 1:
            out.append((list(members), up))
        else:
            key = keys[start : start + count]
            out.append(([members[k] for k in sorted(range(count), key=key.__getitem__)], up))
        start += count
    return out


# ------------------------------------------------------------------------------------------- public API


@dataclass(frozen=True)
class Placement:
    """Where each detected tile lies (stage "place"): its box completed where the frame cuts it, its centre,
    its up angle (degrees counter-clockwise, 0 upright) and its own width and height."""

    xyxy: np.ndarray
    centers: np.ndarray
    angles: np.ndarray
    sizes: np.ndarray
    orientation_known: bool


def place(
    detections: Detections,
    *,
    image_size: tuple[int, int] | None = None,
    params: LayoutParams | None = None,
    orientation_known: bool | None = None,
) -> Placement:
    """Each tile's place, angle and size (steps 1 and 2 of the module's). `orientation_known`: see `group`."""
    params = params or LayoutParams()
    xyxy = np.asarray(detections.xyxy, dtype=np.float64).reshape(-1, 4)
    given = np.asarray(detections.angle, dtype=np.float64)
    any_angle = bool(np.any(given != 0))
    if any_angle:
        # A tile touching a row, read turned off it (a joker's face tells its up poorly), lies as its row does
        # where the geometry says so.
        given = square_with_neighbours(xyxy, given, image_size, params,
                                       up_known=orientation_known is not False,
                                       weak_up=np.asarray(detections.class_id) == JOKER_CLASS)
    if image_size is not None:
        xyxy = complete_cut_boxes(xyxy, image_size, given)
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    if orientation_known is None:
        orientation_known = any_angle
    # Angles known only up to a half turn (a polygon's long side) still give each tile's axis.
    angles = given.copy() if any_angle else estimate_angles(xyxy)
    sizes, _ = tile_sizes(xyxy, angles)
    return Placement(xyxy, centers, angles, sizes, orientation_known)


STANDING_SURE = 0.99
STANDING_RACK_MIN_TILES = 3
STANDING_MEMBER = 0.5
STANDING_LINK = 1.6
"""Tiles on no rack box the detector found that the stance network scores `STANDING_MEMBER` or more, each
within `STANDING_LINK` tile heights (centre to centre) of the next, stand on a rack of their own where at
least `STANDING_RACK_MIN_TILES` of them score `STANDING_SURE`: a dark rack close up on a dark table goes
unfound by the detector while its tiles plainly stand (tuning renders seed 8900: 36 of the 60 rack tiles left
off racks)."""


def _with_standing_racks(detections: Detections, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The detector's rack boxes and corners (`Detections.rack_quads`), and a box around each group of
    standing tiles on none of them that holds enough surely standing ones."""
    rack_xyxy = np.asarray(detections.rack_xyxy, np.float64).reshape(-1, 4)
    rack_quad = detections.rack_quads()
    xyxy = np.asarray(detections.xyxy, np.float64)
    standing = np.flatnonzero((scores >= STANDING_MEMBER) & (rack_owners(xyxy, rack_xyxy, rack_quad) == -1))
    if (scores[standing] >= STANDING_SURE).sum() < STANDING_RACK_MIN_TILES:
        return rack_xyxy, rack_quad
    boxes = xyxy[standing]
    centers = (boxes[:, :2] + boxes[:, 2:]) / 2
    height = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    near = np.linalg.norm(centers[:, None] - centers[None], axis=2) <= STANDING_LINK * height
    group = np.arange(len(standing))
    for _ in range(len(standing)):  # single linkage: each tile takes the lowest label among its neighbours
        merged = np.where(near, group[None, :], len(standing)).min(axis=1)
        if (merged == group).all():
            break
        group = merged
    new = []
    for label in np.unique(group):
        members = group == label
        if (scores[standing[members]] >= STANDING_SURE).sum() >= STANDING_RACK_MIN_TILES:
            new.append(np.concatenate([boxes[members, :2].min(axis=0), boxes[members, 2:].max(axis=0)]))
    if not new:
        return rack_xyxy, rack_quad
    added = np.asarray(new, np.float64)
    return (np.concatenate([rack_xyxy, added]),
            np.concatenate([rack_quad, np.full((len(added), 4, 2), np.nan, np.float32)]))


def rack_groups(
    detections: Detections,
    placement: Placement,
    *,
    params: LayoutParams | None = None,
    frame: np.ndarray | None = None,
) -> list[list[int]]:
    """The tiles standing on each rack (stage "racks", step 5), by index, in the rack's reading order: those
    on the racks the detector found, then (see `LayoutParams.geometric_racks`) racks told by geometry."""
    params = params or LayoutParams()
    xyxy, angles, orientation_known = placement.xyxy, placement.angles, placement.orientation_known
    racks: list[list[int]] = []
    stance = load_tile_stance() if params.stance_check and frame is not None else None
    rack_xyxy, rack_quad = detections.rack_xyxy, detections.rack_quad
    scores = None
    if stance is not None and rack_xyxy is not None and len(xyxy):
        scores = stance.scores(frame, detections.xyxy)
        rack_xyxy, rack_quad = _with_standing_racks(detections, scores)
    if rack_xyxy is not None and len(rack_xyxy):
        racks = tiles_on_rack_boxes(xyxy, angles, rack_xyxy, orientation_known, rack_quad,
                                    member_xyxy=detections.xyxy)
        if scores is not None:
            # A rack seen at a slant has a box over the table in front of it: the tiles lying there are no
            # rack's (tuning rack renders seed 8800, rack_angle: 65 % of the table tiles were put on racks).
            racks = [kept for kept in ([i for i in rack if scores[i] >= stance.threshold] for rack in racks)
                     if kept]
    geometric = params.geometric_racks
    if geometric is None:  # by default only for a detector that does not find racks itself
        geometric = detections.rack_xyxy is None
    if params.detect_racks and geometric:
        taken = {i for rack in racks for i in rack}
        racks += [rack for rack in find_racks(xyxy, angles, frame) if not taken & set(rack)]
        if orientation_known:
            # A rack turns its faces to its owner, and only from the owner's side are they seen: its tiles
            # are never upside down in the frame. Rows laid from the far side of the table are.
            racks = [rack for rack in racks if np.median(np.abs(_wrap180(angles[rack]))) < 135.0]
    return racks


def table_sets(
    detections: Detections,
    placement: Placement,
    racks: list[list[int]],
    *,
    image_size: tuple[int, int] | None = None,
    params: LayoutParams | None = None,
    judge: SetJudge | None = None,
) -> Layout:
    """The tiles on no rack in sets and loose tiles, in reading order (stage "layout", steps 3, 4 and 6),
    beside the racks."""
    params = params or LayoutParams()
    n = len(detections)
    centers, angles, sizes = placement.centers, placement.angles, placement.sizes
    orientation_known = placement.orientation_known
    on_table = np.ones(n, bool)
    for rack in racks:
        on_table[rack] = False

    rows = _chains(centers, angles, sizes, on_table, "row", params, judge)
    sets: list[tuple[list[int], str]] = [(r, "row") for r in rows if len(r) > 1]
    alone = np.zeros(n, bool)
    for r in rows:
        if len(r) == 1:
            alone[r[0]] = True
    # Tiles the frame cuts are more often the ends of rows going on beyond it than a column's tiles.
    stackable = alone & ~cut_by_frame(np.asarray(detections.xyxy), image_size) if image_size else alone
    sets.extend(([int(i)], "row") for i in np.flatnonzero(alone & ~stackable))
    if params.columns and stackable.sum() > 1:
        for col in _chains(centers, angles, sizes, stackable, "column", params, judge):
            # Two tiles one above the other are more often the ends of two rows (cut by the frame's edge,
            # or half hidden) than a set being started in a column: only three or more make a column set.
            if len(col) >= 3:
                sets.append((col, "column"))
            else:
                sets.extend(([i], "row") for i in col)
    else:
        sets.extend(([int(i)], "row") for i in np.flatnonzero(stackable))

    placed = _placed_tiles(detections, centers, angles, sizes)
    ordered = [(order, axis, up_angle) for (order, up_angle), (_, axis)
               in zip(_orders(sets, centers, angles, orientation_known), sets, strict=True)]
    tile_height = float(np.median(sizes[:, 1]))
    ordered = [ordered[k] for k in _reading_order(ordered, centers, ordered_up(ordered, orientation_known),
                                                   tile_height)]
    # Tiles of a set share the set's orientation when it had to be estimated (one wrong neighbour guess
    # must not turn a single tile of a row).
    if not orientation_known:
        for order, _, up_angle in ordered:
            for i in order:
                placed[i] = replace(placed[i], angle=up_angle)
    return Layout(
        table=tuple(tuple(placed[i] for i in order) for order, _, _ in ordered),
        racks=tuple(tuple(placed[i] for i in g) for g in racks),
        set_axes=tuple(axis for _, axis, _ in ordered),
        tile_height=tile_height,
        orientation_known=orientation_known,
    )


def group(
    detections: Detections,
    *,
    image_size: tuple[int, int] | None = None,
    params: LayoutParams | None = None,
    orientation_known: bool | None = None,
    judge: SetJudge | None = None,
    frame: np.ndarray | None = None,
) -> Layout:
    """Sets (reading order), loose tiles and racks from detections: geometry, rules only for close calls
    (`place`, then `rack_groups`, then `table_sets`).

    Args:
        detections: tiles found in one frame.
        image_size: `(width, height)` of the frame: tiles cut by its edge are measured as whole tiles
            (see `complete_cut_boxes`).
        params: grouping tolerances.
        orientation_known: whether `detections.angle` tells up from down; by default it does unless every
            angle is exactly 0 (what a detector without a classifier reports). Pass False for angles known
            only up to a half turn (e.g. from a polygon): they then give each tile's axis, and the rules pick
            each set's reading direction.
        judge: tells whether detections (by index, in reading order) form a valid set; with it, steps
            too close to the gap limit to call are cut where the rules say (see `rebuild`).
        frame: the image (BGR or grey); with it a rack is also told by the dark bar its tiles stand on.
    """
    if len(detections) == 0:
        return Layout()
    placement = place(detections, image_size=image_size, params=params, orientation_known=orientation_known)
    racks = rack_groups(detections, placement, params=params, frame=frame)
    return table_sets(detections, placement, racks, image_size=image_size, params=params, judge=judge)


def ordered_up(ordered: list[tuple[list[int], str, float]], orientation_known: bool) -> float:
    """The table's up direction: that of the most tiles (sets laid from other sides do not count)."""
    if not ordered:
        return 0.0
    period = 360.0 if orientation_known else 180.0
    angles = np.concatenate([[up] * len(order) for order, _, up in ordered])

    # near[c, j]: tile j's set faces within a quarter turn of tile c's.
    near = np.abs(_wrap180((angles[None, :] - angles[:, None]) * 360.0 / period)) < 90.0
    counts = near.sum(axis=1).tolist()
    # Ties go to the direction nearest the image's up: the camera usually stands on a player's side.
    offsets = (-np.abs(_wrap180(angles * 360.0 / period))).tolist()
    best = max(range(len(angles)), key=lambda c: (counts[c], offsets[c]))
    return circular_mean(angles[near[best]], period)


def _reading_order(ordered: list[tuple[list[int], str, float]], centers: np.ndarray, table_up: float,
                   tile_height: float) -> list[int]:
    """Sets as the table's majority of tiles sees them: bands top to bottom, left to right in a band."""
    right, up = direction_vectors(table_up)
    # A set's place is its top edge (a column set starts where its first tile is), across: its middle.
    along_up, along_right = (centers @ up).tolist(), (centers @ right).tolist()
    down = [-max(along_up[i] for i in order) for order, _, _ in ordered]
    across = [sum(along_right[i] for i in order) / len(order) for order, _, _ in ordered]
    by_height = sorted(range(len(ordered)), key=lambda k: down[k])
    bands: list[list[int]] = []
    for k in by_height:
        if bands and down[k] - down[bands[-1][0]] < 0.6 * tile_height:
            bands[-1].append(k)
        else:
            bands.append([k])
    return [k for band in bands for k in sorted(band, key=lambda k: across[k])]


def _placed_tiles(detections: Detections, centers: np.ndarray, angles: np.ndarray,
                  sizes: np.ndarray) -> list[PlacedTile]:
    placed = []
    for i in range(len(detections)):
        cid = int(detections.class_id[i])
        tile = None if cid == UNKNOWN_CLASS else tile_from_class_id(cid)
        read_score = float(getattr(detections, "class_confidence", detections.confidence)[i])
        placed.append(PlacedTile(
            index=i,
            tile=tile,
            box=tuple(float(v) for v in detections.xyxy[i]),  # type: ignore[arg-type]
            center=(float(centers[i, 0]), float(centers[i, 1])),
            angle=float(angles[i]),
            size=(float(sizes[i, 0]), float(sizes[i, 1])),
            confidence=read_score if tile is not None else float(detections.confidence[i]),
        ))
    return placed


def set_judge(detections: Detections, rules: Rules | None, orientation_known: bool | None = None,
              checks: SetChecks | None = None) -> SetJudge:
    """A judge for `group`: the best readings of these detections, in order, form a valid set.

    Without known orientations a row may be read either way, so either direction counts. `checks` keeps
    the verdicts for the correction of the same frame.
    """
    if checks is None or (rules is not None and checks.rules != rules):
        checks = SetChecks(rules)
    class_ids = np.asarray(detections.class_id)
    either_way = orientation_known is False or (
        orientation_known is None and not np.any(np.asarray(detections.angle) != 0))
    tiles_of = [None if cid == UNKNOWN_CLASS else tile_from_class_id(int(cid)) for cid in class_ids]

    def judge(indices: list[int]) -> bool:
        tiles = [tiles_of[i] for i in indices]
        if any(tile is None for tile in tiles):
            return False
        return checks.valid(tiles) or (either_way and checks.valid(tiles[::-1]))

    return judge


def rebuild(
    detections: Detections,
    rules: Rules | None = None,
    *,
    image_size: tuple[int, int] | None = None,
    params: LayoutParams | None = None,
    doubt_below: float = 0.6,
    orientation_known: bool | None = None,
    frame: np.ndarray | None = None,
    clock: Stopwatch | None = None,
) -> Layout:
    """Sets and racks from detections, judged by the rules, runner-up readings proposed for doubtful tiles:
    the stages place, racks and layout of the path a photo takes (`vision.path`), each timed on `clock`.

    Args:
        detections: tiles found in one frame.
        rules: the edition (default: standard).
        image_size: `(width, height)` of the frame, for rack detection.
        params: grouping tolerances.
        doubt_below: a reading scored under this is doubtful.
        orientation_known: see `group`.
        frame: the image, for telling racks by their dark bar (see `group`).
        clock: where the stages' milliseconds go.
    """
    clock = clock or Stopwatch()
    with clock("place"):
        detections, _ = settle_half_turns(detections)
        placement = (place(detections, image_size=image_size, params=params,
                           orientation_known=orientation_known) if len(detections) else None)
    with clock("racks"):
        racks = [] if placement is None else rack_groups(detections, placement, params=params, frame=frame)
    with clock("layout"):
        checks = SetChecks(rules)
        layout = Layout()
        if placement is not None:
            judge = set_judge(detections, rules, orientation_known, checks)
            layout = table_sets(detections, placement, racks, image_size=image_size, params=params,
                                judge=judge)
        return mark_small_tiles(correct(layout, detections, rules, doubt_below=doubt_below, checks=checks))


SMALL_TILE = 0.6
"""A tile less than this share of its neighbours' height (or, alone, of the frame's typical tile) is doubtful:
dots on a card, a sticker, a far-off speck are smaller than the tiles around them."""


def mark_small_tiles(layout: Layout) -> Layout:
    """The layout with tiles far smaller than the rest of their set (or of the frame) marked doubtful."""
    every = [t.size[1] for t in layout.all_tiles()]
    if len(every) < 3:
        return layout
    typical = _median(every)

    def checked(tiles: tuple[PlacedTile, ...], alone: bool) -> tuple[PlacedTile, ...]:
        out = []
        for k, placed in enumerate(tiles):
            others = [t.size[1] for j, t in enumerate(tiles) if j != k]
            reference = typical if alone or not others else _median(others)
            if placed.size[1] < SMALL_TILE * reference and not placed.doubtful:
                where = "the other tiles" if alone or not others else "its neighbours"
                placed = replace(placed, doubtful=True, note=f"much smaller than {where}: maybe not a tile")
            out.append(placed)
        return tuple(out)

    return replace(
        layout,
        table=tuple(checked(s, alone=len(s) == 1) for s in layout.table),
        racks=tuple(checked(r, alone=False) for r in layout.racks),
    )
