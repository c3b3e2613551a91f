"""Procedural table surfaces (no downloaded images): wood, cloth, marble, plain grey, patterns, dark tops.

Each generator returns a BGR float32 texture in 0-1 of the size asked for. Colours stay in natural casts
(browns, greys, muted cloth) because saturated tints were a visible render/real difference.
"""

from __future__ import annotations

import colorsys

import cv2
import numpy as np


def fractal_noise(
    rng: np.random.Generator,
    height: int,
    width: int,
    octaves: int = 4,
    base_cells: int = 4,
    persistence: float = 0.5,
) -> np.ndarray:
    """Smooth value noise in roughly -1..1: random grids upsampled with bicubic interpolation, summed."""
    total = np.zeros((height, width), np.float32)
    amplitude, norm = 1.0, 0.0
    cells = base_cells
    for _ in range(octaves):
        grid = rng.standard_normal((cells + 3, int(cells * width / max(1, height)) + 3)).astype(np.float32)
        layer = cv2.resize(grid, (width, height), interpolation=cv2.INTER_CUBIC)
        total += amplitude * layer
        norm += amplitude
        amplitude *= persistence
        cells *= 2
    return total / norm


def _bgr(h_deg: float, s: float, v: float) -> np.ndarray:
    r, g, b = colorsys.hsv_to_rgb((h_deg % 360) / 360, s, v)
    return np.array([b, g, r], np.float32)


def wood(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Planks with grain along x; random rotation is applied later by the camera."""
    base = _bgr(rng.uniform(18, 34), rng.uniform(0.35, 0.7), rng.uniform(0.3, 0.8))
    dark = base * rng.uniform(0.55, 0.8)
    warp = fractal_noise(rng, height, width, octaves=3, base_cells=3) * rng.uniform(8, 25)
    y = np.arange(height, dtype=np.float32)[:, None] + warp
    freq = rng.uniform(0.15, 0.6)
    grain = 0.5 + 0.5 * np.sin(y * freq + fractal_noise(rng, height, width, 2, 6) * 3)
    grain = grain ** rng.uniform(1.5, 4.0)
    fine = cv2.resize(
        rng.standard_normal((height // 1, max(1, width // 24))).astype(np.float32), (width, height)
    )
    t = np.clip(0.6 * grain + 0.15 * fine + 0.25 * fractal_noise(rng, height, width, 3, 2), 0, 1)
    img = base[None, None, :] * (1 - t[..., None]) + dark[None, None, :] * t[..., None]
    if rng.random() < 0.6:  # plank seams
        spacing = rng.uniform(90, 260)
        offset = rng.uniform(0, spacing)
        for k in range(int(height / spacing) + 2):
            row = int(offset + k * spacing)
            if 0 <= row < height:
                img[row : row + 2] *= 0.6
    return img.astype(np.float32)


def cloth(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Felt or a tablecloth: a muted colour with fine weave noise."""
    hue = rng.choice([120.0, 140.0, 210.0, 0.0, 30.0, 45.0])
    color = _bgr(hue + rng.uniform(-10, 10), rng.uniform(0.08, 0.35), rng.uniform(0.25, 0.75))
    weave = rng.standard_normal((height, width), dtype=np.float32) * np.float32(0.04)
    weave = cv2.GaussianBlur(weave, (0, 0), 0.7)
    low = fractal_noise(rng, height, width, 3, 3) * 0.06
    return (color[None, None, :] * (1 + weave + low)[..., None]).astype(np.float32)


def marble(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Light stone with dark veins."""
    base = _bgr(rng.uniform(20, 60), rng.uniform(0.0, 0.08), rng.uniform(0.75, 0.95))
    n = fractal_noise(rng, height, width, 5, 3)
    veins = np.abs(np.sin(np.arange(width, dtype=np.float32)[None, :] * rng.uniform(0.005, 0.02) + n * 4))
    # Thin, faint veins whose strength wanders along their length, and a cloudy base.
    strength = np.clip(0.5 + fractal_noise(rng, height, width, 2, 2), 0, 1) * rng.uniform(0.08, 0.25)
    veins = np.clip(1 - veins * 14, 0, 1) * strength
    veins = cv2.GaussianBlur(veins, (0, 0), 0.8)
    cloud = fractal_noise(rng, height, width, 4, 2) * 0.05
    return (base[None, None, :] * (1 - veins[..., None] + cloud[..., None])).astype(np.float32)


def plain(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Grey or beige laminate, possibly dark."""
    color = _bgr(rng.uniform(20, 220), rng.uniform(0.0, 0.12), rng.uniform(0.15, 0.85))
    low = fractal_noise(rng, height, width, 3, 2) * 0.05
    speck = rng.standard_normal((height, width), dtype=np.float32) * np.float32(0.015)
    return (color[None, None, :] * (1 + low + speck)[..., None]).astype(np.float32)


def pattern(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Checked or striped tablecloth in muted colours."""
    hue = float(rng.choice([0.0, 25.0, 40.0, 120.0, 210.0])) + rng.uniform(-10, 10)  # natural cloth colours
    c1 = _bgr(hue, rng.uniform(0.08, 0.28), rng.uniform(0.4, 0.85))
    c2 = c1 * rng.uniform(0.55, 0.85)
    period = rng.uniform(20, 90)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    a = (np.floor(xx / period) % 2).astype(np.float32)
    if rng.random() < 0.6:
        b = (np.floor(yy / period) % 2).astype(np.float32)
        t = (a + b) / 2
    else:
        t = a
    t = cv2.GaussianBlur(t, (0, 0), 1.0)
    img = c1[None, None, :] * (1 - t[..., None]) + c2[None, None, :] * t[..., None]
    return (img * (1 + 0.03 * rng.standard_normal((height, width, 1), dtype=np.float32))).astype(np.float32)


_GENERATORS = (wood, cloth, marble, plain, pattern)
_WEIGHTS = np.array([0.45, 0.17, 0.1, 0.18, 0.1])


def table_surface(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """One random table surface texture."""
    gen = _GENERATORS[int(rng.choice(len(_GENERATORS), p=_WEIGHTS / _WEIGHTS.sum()))]
    return np.clip(gen(rng, height, width), 0, 1)
