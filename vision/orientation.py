"""The table's own evidence about which way is up: tiles side by side in a row face the same way.

A 6 seen upside down is a 9 seen upright, and a crop alone cannot always tell them apart (editions mark
the 6 and 9 differently, some not at all). Its neighbours can: a tile read as a 9 turned half round among
upright neighbours is an upright 6. A rack says it more strongly: all its tiles face its owner.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from assistant.tiles import CLASS_INDEX
from vision.detections import UNKNOWN_CLASS, Detections
from vision.racks import rack_owners

SIDE_BY_SIDE_WITHIN = 1.15
"""Neighbours in a row: centres at most this many tile widths apart (the tiles of a set touch)."""
SAME_SIZE_WITHIN = 1.25
"""Tiles of one row are of one size: their widths differ by at most this factor."""
SWAP_SIX_NINE_BELOW = 0.9
"""A 6 or 9 the classifier read at least this surely (editions mark them) keeps its reading."""
ROW_AGREES_WITHIN = 20.0
"""Tiles of one row face alike within this many degrees; a tile turned half round from them by this much."""
MIN_AGREEING_NEIGHBOURS = 2

SIX_NINE_SWAP: dict[int, int] = {}
for _name, _index in CLASS_INDEX.items():
    if _name.endswith("_6"):
        SIX_NINE_SWAP[_index] = CLASS_INDEX[_name[:-2] + "_9"]
        SIX_NINE_SWAP[CLASS_INDEX[_name[:-2] + "_9"]] = _index


def _angle_gap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    diff = np.abs((np.asarray(a, np.float64) - np.asarray(b, np.float64) + 180.0) % 360.0 - 180.0)
    return diff


def tile_heights(xyxy: np.ndarray, angles: np.ndarray, aspect: float = 0.75) -> np.ndarray:
    """Each tile's own height from its axis-aligned box and up angle (width = `aspect` x height)."""
    theta = np.deg2rad(angles)
    c, s = np.abs(np.cos(theta)), np.abs(np.sin(theta))
    box_w, box_h = xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1]
    return (box_w + box_h) / ((1 + aspect) * (c + s))


def _in_row(
    offsets: np.ndarray, right: np.ndarray, up: np.ndarray, width: float, within: float
) -> np.ndarray:
    """Offsets (from a tile) that lie along its row, at most `within` widths away, a third of one off it."""
    return (np.abs(offsets @ right) <= within * width) & (np.abs(offsets @ up) < width / 3)


def half_turned(detections: Detections) -> np.ndarray:
    """(n,) bool: tiles lying in a row of at least two neighbours that face one way, the tile the other.

    Neighbours in a row: side by side along the row's own right direction (a tile width apart, at most a
    third of a width off its line), turned alike within `ROW_AGREES_WITHIN`; the tile lies on the same axis
    turned half round, and no tile beside it in the row faces as it does. Tiles in a heap at random angles
    make no row. Needs the classifier's angles."""
    n = len(detections)
    flagged = np.zeros(n, bool)
    if n < 3 or not np.any(detections.angle != 0):
        return flagged
    xyxy = np.asarray(detections.xyxy, np.float64)
    angles = detections.angle.astype(np.float64)
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    widths = 0.75 * tile_heights(xyxy, angles)
    gap = _angle_gap(angles[:, None], angles[None, :])
    reach = SIDE_BY_SIDE_WITHIN * MIN_AGREEING_NEIGHBOURS
    # Row i: the tiles near tile i and of its size; only tiles with enough opposed ones are looked at.
    ratios = widths[None, :] / widths[:, None]
    distances = np.linalg.norm(centers[None, :, :] - centers[:, None, :], axis=2)
    near = distances <= reach * widths[:, None]
    near &= (ratios <= SAME_SIZE_WITHIN) & (ratios >= 1 / SAME_SIZE_WITHIN)
    opposite = near & (gap > 180.0 - ROW_AGREES_WITHIN)
    for i in np.flatnonzero(opposite.sum(axis=1) >= MIN_AGREEING_NEIGHBOURS):
        width = widths[i]
        close = near[i]
        opposed = np.flatnonzero(opposite[i])
        if len(opposed) < MIN_AGREEING_NEIGHBOURS or gap[np.ix_(opposed, opposed)].max() >= ROW_AGREES_WITHIN:
            continue
        radians = np.deg2rad(angles[opposed])
        row_up = float(np.arctan2(np.sin(radians).mean(), np.cos(radians).mean()))
        right = np.array([np.cos(row_up), -np.sin(row_up)])
        up = np.array([-np.sin(row_up), -np.cos(row_up)])
        axes = (right, up, width)
        row = opposed[_in_row(centers[opposed] - centers[i], *axes, reach)]
        beside = row[_in_row(centers[row] - centers[i], *axes, SIDE_BY_SIDE_WITHIN)]
        alike = np.flatnonzero(close & (gap[i] < ROW_AGREES_WITHIN))
        alike = alike[alike != i]
        facing_as_the_tile = _in_row(centers[alike] - centers[i], *axes, SIDE_BY_SIDE_WITHIN).any()
        if len(row) >= MIN_AGREEING_NEIGHBOURS and len(beside) and not facing_as_the_tile:
            flagged[i] = True
    return flagged


RACK_OPPOSED_BEYOND = 135.0
"""A tile on a rack whose up lies this many degrees or more from its rack's is turned half round (tiles on a
sloping rack lean with it, by up to some 45 degrees from one another at its near end)."""
RACK_MIN_AGREEING = 3
"""A rack's up is that of at least this many of its tiles, and of two thirds of them."""


def rack_half_turned(detections: Detections) -> np.ndarray:
    """(n,) bool: tiles standing on a rack the detector found (`RACK_MEMBER_OVERLAP` of the box inside it, as
    the layout counts them), turned half round from the rack's other tiles.

    A rack turns its faces to its owner: all its tiles face one way (leaning with perspective, never
    upside down among the others)."""
    n = len(detections)
    flagged = np.zeros(n, bool)
    racks = detections.rack_xyxy
    if n < RACK_MIN_AGREEING or racks is None or not len(racks) or not np.any(detections.angle != 0):
        return flagged
    owner = rack_owners(detections.xyxy, racks, detections.rack_quad)
    angles = detections.angle.astype(np.float64)
    for k in range(len(racks)):
        members = np.flatnonzero(owner == k)
        if len(members) < RACK_MIN_AGREEING:
            continue
        ups = angles[members]
        alike = _angle_gap(ups[:, None], ups[None, :]) < 90.0
        counts = alike.sum(axis=1)
        leader = int(counts.argmax())
        if counts[leader] < max(RACK_MIN_AGREEING, 2 * len(members) / 3):
            continue
        radians = np.deg2rad(ups[alike[leader]])
        rack_up = np.rad2deg(np.arctan2(np.sin(radians).mean(), np.cos(radians).mean()))
        flagged[members[_angle_gap(ups, rack_up) >= RACK_OPPOSED_BEYOND]] = True
    return flagged


def settle_half_turns(detections: Detections) -> tuple[Detections, np.ndarray]:
    """Detections with half-turned tiles turned back to their row's (or rack's) way up, 6 and 9 swapped on
    them (runner-up readings too); returns them and the (n,) mask of tiles changed."""
    flagged = half_turned(detections)
    sure_six_or_nine = np.isin(detections.class_id, list(SIX_NINE_SWAP)) & (
        detections.class_confidence >= SWAP_SIX_NINE_BELOW
    )
    flagged &= ~sure_six_or_nine
    # On a rack even a sure reading gives way: its tiles all face the owner. Tuning renders of racks
    # from above (seed 8100): 6 of 15 sixes and nines misread stood half turned among their rack's
    # tiles, 2 of them read at 0.97 and 1.0.
    flagged |= rack_half_turned(detections)
    if not flagged.any():
        return detections, flagged
    class_id = detections.class_id.copy()
    topk = detections.topk_class_ids.copy()
    angle = detections.angle.copy()
    for i in np.flatnonzero(flagged):
        angle[i] = (angle[i] + 180.0) % 360.0
        if class_id[i] != UNKNOWN_CLASS:
            class_id[i] = SIX_NINE_SWAP.get(int(class_id[i]), int(class_id[i]))
        if topk.ndim == 2:
            topk[i] = [SIX_NINE_SWAP.get(int(c), int(c)) for c in topk[i]]
    settled = dataclasses.replace(detections, class_id=class_id, topk_class_ids=topk, angle=angle)
    return settled, flagged
