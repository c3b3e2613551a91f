"""The table's own evidence about which way is up: tiles side by side in a row face the same way.

A 6 seen upside down is a 9 seen upright, and a crop alone cannot always tell them apart (editions mark
the 6 and 9 differently, some not at all). Its neighbours can: a tile read as a 9 turned half round among
upright neighbours is an upright 6.
"""

from __future__ import annotations

import numpy as np

from assistant.tiles import CLASS_INDEX
from vision.detections import UNKNOWN_CLASS, Detections

SIDE_BY_SIDE_WITHIN = 1.25
"""Neighbours in a row: centres at most this many tile widths apart (rows lie a tile height apart or more)."""
HALF_TURN_FROM = 135.0
"""A tile whose up differs from its row's by more than this many degrees was read half turned."""
MIN_AGREEING_NEIGHBOURS = 2

SIX_NINE_SWAP: dict[int, int] = {}
for _name, _index in CLASS_INDEX.items():
    if _name.endswith("_6"):
        SIX_NINE_SWAP[_index] = CLASS_INDEX[_name[:-2] + "_9"]
        SIX_NINE_SWAP[CLASS_INDEX[_name[:-2] + "_9"]] = _index


def _angle_gap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    diff = np.abs((np.asarray(a, np.float64) - np.asarray(b, np.float64) + 180.0) % 360.0 - 180.0)
    return diff


def half_turned(detections: Detections) -> np.ndarray:
    """(n,) bool: tiles turned half round from at least two side-by-side neighbours that agree with each
    other (and no neighbour agreeing with the tile). Needs the classifier's angles."""
    n = len(detections)
    flagged = np.zeros(n, bool)
    if n < 3 or not np.any(detections.angle != 0):
        return flagged
    xyxy = np.asarray(detections.xyxy, np.float64)
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    # A tile's width whichever way it lies: the shorter side of its box (a tilted box is wider).
    widths = np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])
    distance = np.linalg.norm(centers[:, None, :] - centers[None, :, :], axis=2)
    reach = SIDE_BY_SIDE_WITHIN * np.maximum(widths[:, None], widths[None, :])
    neighbours = (distance <= reach) & ~np.eye(n, dtype=bool)
    angles = detections.angle.astype(np.float64)
    gap = _angle_gap(angles[:, None], angles[None, :])
    opposed = neighbours & (gap > HALF_TURN_FROM)
    agreeing = neighbours & (gap < 180.0 - HALF_TURN_FROM)
    for i in np.flatnonzero(opposed.sum(axis=1) >= MIN_AGREEING_NEIGHBOURS):
        if agreeing[i].any():
            continue
        others = np.flatnonzero(opposed[i])
        # The opposed neighbours must face one way among themselves.
        if _angle_gap(angles[others][:, None], angles[others][None, :]).max() < 180.0 - HALF_TURN_FROM:
            flagged[i] = True
    return flagged


def settle_half_turns(detections: Detections) -> tuple[Detections, np.ndarray]:
    """Detections with half-turned tiles turned back to their row's way up, 6 and 9 swapped on them
    (runner-up readings too); returns them and the (n,) mask of tiles changed."""
    flagged = half_turned(detections)
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
    settled = Detections(
        xyxy=detections.xyxy,
        confidence=detections.confidence,
        class_id=class_id,
        class_confidence=detections.class_confidence,
        topk_class_ids=topk,
        topk_scores=detections.topk_scores,
        angle=angle,
        rack_xyxy=detections.rack_xyxy,
        rack_confidence=detections.rack_confidence,
    )
    return settled, flagged
