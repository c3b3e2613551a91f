"""A photo's own blue: tiles read black whose ink is bluer than the photo's black ink are its blue tiles.

Some editions (Okey sets, some Rummikub prints) print their fourth colour in a dark blue that the crop
classifier, reading one crop at a time, takes for black under warm light. Side by side in one photo the two
inks differ: each tile's ink is measured against its own face (white balance by the ivory), and where the
tiles read black fall into two groups with a clear gap between them, a neutral group (the black ink) and a
bluer one, the bluer group is blue. Tiles read blue are left as they are: a bright blue ink has too few dark
pixels to measure, and the classifier reads it right.

Measured (twenty-eighth session, docs/experiments/lab-notes.md): renders of editions printing blue in navy
(`python -m datasets.render --variants dark_blue`), read by the shipped models without and with this step:
tuning (seed 8900, 60 scenes, the thresholds below chosen on them and on real-dev) blue tiles read black
59 -> 15 of 241, black read blue 1 -> 2; hold-out (seed 9300, 100 scenes, measured once) 94 -> 31 of 362,
0 -> 1, scenes with a colour wrong 29 -> 10; the 200 hold-out renders (seed 9100), real-dev and real-racks
read exactly as without it.
"""

from __future__ import annotations

import numpy as np

from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from vision.classifier import CropReadings
from vision.crops import cut_crops

INNER_MARGIN = 0.2
"""Each side of a crop left out before measuring (the tile's edges, its neighbours)."""
FACE_PERCENTILE = 80
"""Pixels at least this bright (percentile of the crop's brightness) are the tile's face."""
INK_BELOW = 0.55
"""Pixels darker than this share of the face's brightness are ink."""
INK_PIXELS_AT_LEAST = 8

GAP_AT_LEAST = 0.1
"""The two groups of a photo's black-read tiles are apart by at least this much blueness between their
nearest members (log ratio of the blue channel to red and green, the face's white balance taken out)."""
GROUPS_APART_AT_LEAST = 0.3
"""and their medians by at least this much."""
BLUE_GROUP_AT_LEAST = 0.3
"""The bluer group's median is at least this blue (black ink measures -0.3 to 0.15 on real-dev's tiles)."""

_BLACK = np.array([CLASS_INDEX[f"black_{n}"] for n in range(1, 14)])
_BLUE = np.array([CLASS_INDEX[f"blue_{n}"] for n in range(1, 14)])
_SWAP_BLACK_BLUE = np.arange(len(CLASS_NAMES))
_SWAP_BLACK_BLUE[_BLACK], _SWAP_BLACK_BLUE[_BLUE] = _BLUE, _BLACK


def ink_blueness(crops: np.ndarray) -> np.ndarray:
    """(n,) how blue each crop's dark ink is against its own face: log(B ratio) - mean log(R, G ratios) of
    the ink's median colour over the face's mean colour. NaN where a crop shows too little dark ink."""
    out = np.full(len(crops), np.nan)
    for k, crop in enumerate(crops):
        size = crop.shape[0]
        cut = int(round(size * INNER_MARGIN))
        inner = crop[cut : size - cut, cut : size - cut].reshape(-1, 3).astype(np.float64)
        brightness = inner.mean(axis=1)
        face_level = np.percentile(brightness, FACE_PERCENTILE)
        ink = inner[brightness < INK_BELOW * face_level]
        if len(ink) < INK_PIXELS_AT_LEAST:
            continue
        face = inner[brightness >= face_level].mean(axis=0)
        ratio = np.log((np.median(ink, axis=0) + 4.0) / (face + 4.0))  # B, G, R
        out[k] = ratio[0] - 0.5 * (ratio[1] + ratio[2])
    return out


def bluer_group(blueness: np.ndarray) -> np.ndarray:
    """(n,) bool: the members of the bluer of two clearly apart groups of blueness values (NaN belongs to
    none); all False where the values make no two such groups."""
    chosen = np.zeros(len(blueness), bool)
    known = np.flatnonzero(~np.isnan(blueness))
    if len(known) < 2:
        return chosen
    values = np.sort(blueness[known])
    best, best_split = -1.0, -1
    for split in range(1, len(values)):  # Otsu on one dimension: the split of the largest between variance
        low, high = values[:split], values[split:]
        between = len(low) * len(high) * (high.mean() - low.mean()) ** 2
        if between > best:
            best, best_split = between, split
    low, high = values[:best_split], values[best_split:]
    if (high[0] - low[-1] < GAP_AT_LEAST or np.median(high) - np.median(low) < GROUPS_APART_AT_LEAST
            or np.median(high) < BLUE_GROUP_AT_LEAST):
        return chosen
    chosen[known] = blueness[known] >= high[0]
    return chosen


def read_black(readings: CropReadings) -> np.ndarray:
    """(n,) bool: the crops whose best reading is a black tile."""
    return np.isin(readings.topk_class_ids[:, 0], _BLACK)


def with_photo_blue(
    readings: CropReadings, image: np.ndarray, boxes_xyxy: np.ndarray, crop_size: int, crop_margin: float
) -> tuple[CropReadings, np.ndarray]:
    """`readings` of one photo's boxes with the tiles read black whose ink is the photo's blue read blue
    (each of their readings' black and blue classes swapped, number and scores kept), and which those are.
    Crops are cut from `image` as the classifier cuts them, for the tiles read black only."""
    blue = np.zeros(len(readings), bool)
    black = read_black(readings)
    if black.sum() < 2:
        return readings, blue
    crops = cut_crops(image, np.asarray(boxes_xyxy, np.float64)[black], size=crop_size, margin=crop_margin)
    blue[np.flatnonzero(black)] = bluer_group(ink_blueness(crops))
    if not blue.any():
        return readings, blue
    ids = readings.topk_class_ids.copy()
    ids[blue] = _SWAP_BLACK_BLUE[ids[blue]]
    return CropReadings(ids, readings.topk_scores, readings.angle_deg, readings.not_tile), blue
