"""A tile's ink measured in the photo: the colour of the numeral's pixels against the tile's own face.

Rendered and real inks differ by edition (teal or dark blue for blue, orange or yellow), and by the light;
what stays within one photo is that a colour's tiles share an ink. `ink_chroma` gives each tile's ink as a
point of the Lab colour plane relative to its face (a* and b*, so the light's cast falls away, and L*),
so tiles can be compared with the others of the same photo.
"""

from __future__ import annotations

import cv2
import numpy as np

INK_DARKER_THAN_FACE = 15.0
"""Ink pixels are this much darker (L*, 0-100) than the tile's face (the 80th percentile of its L*)."""
INNER = 0.15
"""Share of a box left out on each side (the tile's edge, its neighbours, the table)."""


def ink_chroma(frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """(n, 3) per box: the ink's median a*, b* minus the face's, and the ink's L* minus the face's (NaN
    where a box shows no ink)."""
    out = np.full((len(xyxy), 3), np.nan, np.float64)
    height, width = frame.shape[:2]
    for k, (x1, y1, x2, y2) in enumerate(np.asarray(xyxy, np.float64)):
        dx, dy = (x2 - x1) * INNER, (y2 - y1) * INNER
        a, b = int(max(0, x1 + dx)), int(max(0, y1 + dy))
        c, d = int(min(width, x2 - dx)), int(min(height, y2 - dy))
        if c - a < 3 or d - b < 3:
            continue
        lab = cv2.cvtColor(frame[b:d, a:c], cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float64)
        lab[:, 0] *= 100.0 / 255.0
        lab[:, 1:] -= 128.0
        light = lab[:, 0]
        face_l = np.percentile(light, 80)
        face = lab[light >= face_l]
        ink = lab[light < face_l - INK_DARKER_THAN_FACE]
        if len(ink) < 4 or not len(face):
            continue
        face_ab = np.median(face[:, 1:], axis=0)
        out[k, :2] = np.median(ink[:, 1:], axis=0) - face_ab
        out[k, 2] = np.median(ink[:, 0]) - face_l
    return out
