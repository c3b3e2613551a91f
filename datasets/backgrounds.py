"""Procedural table surfaces (no downloaded images): wood, cloth, marble, plain grey, patterns, dark tops.

Each generator returns a BGR float32 texture in 0-1 of the size asked for. Colours stay in natural casts
(browns, greys, muted cloth) because saturated tints were a visible render/real difference.
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable

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


def _grid(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    return yy, xx


def _warped_grid(
    rng: np.random.Generator, height: int, width: int, amount: float
) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates bent by smooth noise (`amount` pixels): hand-made cloth is never a perfect grid."""
    yy, xx = _grid(height, width)
    if amount > 0:
        xx += fractal_noise(rng, height, width, 2, 3) * np.float32(amount)
        yy += fractal_noise(rng, height, width, 2, 3) * np.float32(amount)
    return yy, xx


def _fibres(rng: np.random.Generator, height: int, width: int, strength: float) -> np.ndarray:
    noise = rng.standard_normal((height, width), dtype=np.float32) * np.float32(strength)
    return cv2.GaussianBlur(noise, (0, 0), 0.8)


def _strand_colors(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Light and dark strands: mostly greys (the rug of issue 11), else natural fibre or muted colour."""
    roll = rng.random()
    if roll < 0.55:
        hue, sat = rng.uniform(0, 360), rng.uniform(0.0, 0.07)
    elif roll < 0.85:
        hue, sat = rng.uniform(25, 45), rng.uniform(0.15, 0.4)
    else:
        hue, sat = float(rng.choice([0.0, 120.0, 210.0, 30.0])) + rng.uniform(-10, 10), rng.uniform(0.15, 0.4)
    light = _bgr(hue, sat, rng.uniform(0.55, 0.85))
    dark = _bgr(hue + rng.uniform(-8, 8), sat * rng.uniform(0.8, 1.3), rng.uniform(0.2, 0.45))
    return light, dark


def _strand_shade(f: np.ndarray) -> np.ndarray:
    """Across a strand (0-1): a rounded profile, darker at the edges where strands meet."""
    return (0.7 + 0.3 * np.sin(np.pi * np.clip(f, 0, 1))).astype(np.float32)


def _mix(c0: np.ndarray, c1: np.ndarray, t: np.ndarray) -> np.ndarray:
    t3 = t.astype(np.float32)[..., None]
    return c0[None, None, :] * (1 - t3) + c1[None, None, :] * t3


def weave_basket(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """Basket weave: blocks of 2-4 parallel strands, turned 90 degrees block to block, light and dark
    strands about a fifth of a tile wide (the grey rug of issue 11)."""
    s = unit * rng.uniform(0.14, 0.26)
    n = int(rng.integers(2, 5))
    block = s * n
    yy, xx = _warped_grid(rng, height, width, s * 0.25)
    horizontal = ((np.floor(xx / block) + np.floor(yy / block)) % 2) == 0
    across = np.where(horizontal, yy, xx) / s
    index = np.floor(across)
    light, dark = _strand_colors(rng)
    alternate = rng.random() < 0.7
    t = (index % 2) if alternate else np.where(horizontal, 1.0, 0.0)
    img = _mix(light, dark, t)
    shade = _strand_shade(across - index)
    along = np.where(horizontal, xx, yy) / s
    ridge = 1.0 - 0.12 * (np.abs(np.sin(along * np.pi * rng.uniform(0.8, 1.5))) ** 4)
    img *= (shade * ridge * (1 + _fibres(rng, height, width, 0.05)))[..., None]
    return img


def weave_plain(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """Plain over-under weave (burlap, place mats): warp and weft strands alternating cell by cell."""
    s = unit * rng.uniform(0.08, 0.25)
    yy, xx = _warped_grid(rng, height, width, s * 0.2)
    i, j = np.floor(xx / s), np.floor(yy / s)
    warp_on_top = ((i + j) % 2) == 0
    light, dark = _strand_colors(rng)
    if rng.random() < 0.5:
        dark = light * rng.uniform(0.75, 0.95)
    img = _mix(light, dark, ~warp_on_top)
    across = np.where(warp_on_top, xx, yy) / s
    img *= (_strand_shade(across - np.floor(across)) * (1 + _fibres(rng, height, width, 0.05)))[..., None]
    return img


def weave_twill(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """Herringbone twill: diagonal ribs that reverse every few strands (reserved for --variants holdout)."""
    s = unit * rng.uniform(0.1, 0.22)
    yy, xx = _warped_grid(rng, height, width, s * 0.2)
    i, j = np.floor(xx / s), np.floor(yy / s)
    band = int(rng.integers(3, 7))
    flip = (np.floor(i / band) % 2) * 2 - 1
    on_top = (((i + flip * j) // 2) % 2) == 0
    light, dark = _strand_colors(rng)
    img = _mix(light, dark, on_top)
    across = np.where(on_top, yy, xx) / s
    img *= (_strand_shade(across - np.floor(across)) * (1 + _fibres(rng, height, width, 0.05)))[..., None]
    return img


def knit(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """Knitted cloth: columns of V-shaped stitches, sometimes with coloured bands of rows."""
    sw = unit * rng.uniform(0.1, 0.25)
    sh = sw * rng.uniform(0.6, 0.85)
    yy, xx = _warped_grid(rng, height, width, sw * 0.15)
    col, row = np.floor(xx / sw), np.floor(yy / sh)
    fx, fy = xx / sw - col, yy / sh - row
    # Each stitch is two legs slanting from the top corners towards the bottom middle.
    leg_x = np.where(fx < 0.5, 0.5 * fy, 1.0 - 0.5 * fy)
    d = np.abs(fx - leg_x) / 0.25
    shade = np.clip(1.0 - d, 0, 1) ** 0.7
    base = _bgr(rng.uniform(0, 360), rng.uniform(0.05, 0.45), rng.uniform(0.35, 0.85))
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    if rng.random() < 0.4:
        other = _bgr(rng.uniform(0, 360), rng.uniform(0.1, 0.5), rng.uniform(0.3, 0.9))
        period = int(rng.integers(3, 12))
        img[:] = _mix(base, other, (row % (2 * period)) < period)
    img *= ((0.55 + 0.45 * shade) * (1 + _fibres(rng, height, width, 0.04)))[..., None]
    return img


def gingham(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """Gingham: white and one colour, stripes both ways, darkest where they cross; squares 0.2-1 tile."""
    period = unit * rng.uniform(0.2, 1.0)
    yy, xx = _warped_grid(rng, height, width, period * 0.05)
    a = (np.floor(xx / period) % 2).astype(np.float32)
    b = (np.floor(yy / period) % 2).astype(np.float32)
    hue = float(rng.choice([0.0, 215.0, 130.0, 40.0, 280.0, 0.0])) + rng.uniform(-8, 8)
    dark = _bgr(hue, rng.uniform(0.45, 0.85), rng.uniform(0.35, 0.75))
    if rng.random() < 0.15:
        dark = _bgr(hue, 0.05, rng.uniform(0.1, 0.25))  # black and white
    white = _bgr(rng.uniform(30, 50), rng.uniform(0.0, 0.06), rng.uniform(0.85, 0.97))
    t = cv2.GaussianBlur((a + b) / 2, (0, 0), 0.8)
    img = _mix(white, dark, t)
    img *= (1 + _fibres(rng, height, width, 0.04))[..., None]
    return img


def stripes(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """Striped cloth: bands of 2-4 colours and widths of 0.05-1 tile."""
    colors = [
        _bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.6), rng.uniform(0.2, 0.95))
        for _ in range(int(rng.integers(2, 5)))
    ]
    widths = [unit * rng.uniform(0.05, 1.0) for _ in colors]
    yy, xx = _warped_grid(rng, height, width, unit * 0.03)
    period = float(sum(widths))
    pos = np.mod(xx, period)
    img = np.empty((height, width, 3), np.float32)
    edge = 0.0
    for color, w in zip(colors, widths, strict=True):
        img[(pos >= edge) & (pos < edge + w)] = color
        edge += w
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    img *= (1 + _fibres(rng, height, width, 0.04))[..., None]
    return img


def printed(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """A printed cloth: dots, rings and petals of 0.1-0.6 tile in 1-3 colours on a plain ground."""
    base = _bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.4), rng.uniform(0.5, 0.95))
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    inks = [
        _bgr(rng.uniform(0, 360), rng.uniform(0.2, 0.8), rng.uniform(0.15, 0.9))
        for _ in range(int(rng.integers(1, 4)))
    ]
    size = unit * rng.uniform(0.1, 0.5)
    spacing = size * rng.uniform(1.6, 3.5)
    count = int(min(6000, height * width / max(1.0, spacing**2)))
    xs = rng.uniform(0, width, count)
    ys = rng.uniform(0, height, count)
    shapes = rng.integers(0, 3, count)
    radii = size * rng.uniform(0.5, 1.0, count)
    colors = rng.integers(0, len(inks), count)
    angles = rng.uniform(0, 180, count)
    for x, y, shape, r, c, a in zip(xs, ys, shapes, radii, colors, angles, strict=True):
        color = inks[int(c)].tolist()
        centre = (int(x), int(y))
        if shape == 0:
            cv2.circle(img, centre, max(1, int(r)), color, -1, cv2.LINE_AA)
        elif shape == 1:
            cv2.circle(img, centre, max(1, int(r)), color, max(1, int(r * 0.3)), cv2.LINE_AA)
        else:
            axes = (max(1, int(r)), max(1, int(r * 0.4)))
            cv2.ellipse(img, centre, axes, a, 0, 360, color, -1, cv2.LINE_AA)
    img *= (1 + _fibres(rng, height, width, 0.03))[..., None]
    return img


def carpet(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """Carpet: strong fine pile noise (loops a few hundredths of a tile) over a mottled colour."""
    base = _bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.35), rng.uniform(0.2, 0.7))
    pile = rng.standard_normal((height, width), dtype=np.float32)
    pile = cv2.GaussianBlur(pile, (0, 0), max(0.6, unit * rng.uniform(0.01, 0.04)))
    pile *= np.float32(rng.uniform(0.15, 0.35) / max(1e-6, float(pile.std())))
    mottle = fractal_noise(rng, height, width, 3, 4) * rng.uniform(0.05, 0.15)
    img = base[None, None, :] * (1 + pile + mottle)[..., None]
    if rng.random() < 0.35:  # loop-pile rows
        yy, xx = _grid(height, width)
        f = 2 * np.pi / max(2.0, unit * rng.uniform(0.05, 0.12))
        img *= (1 + 0.08 * np.sin(xx * f) * np.sin(yy * f))[..., None]
    return img.astype(np.float32)


def stone(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """Stone counters and floors: granite speckles of several sizes, marble veins, light or dark."""
    dark_stone = rng.random() < 0.35
    value = rng.uniform(0.15, 0.35) if dark_stone else rng.uniform(0.6, 0.92)
    base = _bgr(rng.uniform(0, 60), rng.uniform(0.0, 0.15), value)
    if not dark_stone and rng.random() < 0.5:  # veined marble with speckles
        img = marble(rng, height, width)
    else:
        img = np.empty((height, width, 3), np.float32)
        img[:] = base
        img *= (1 + fractal_noise(rng, height, width, 4, 3) * 0.08)[..., None]
    for _ in range(int(rng.integers(1, 4))):
        sigma = max(0.5, unit * rng.uniform(0.01, 0.06))
        n = cv2.GaussianBlur(rng.standard_normal((height, width), dtype=np.float32), (0, 0), sigma)
        n /= max(1e-6, float(n.std()))
        spots = np.clip((n - rng.uniform(1.2, 2.2)) * 2.0, 0, 1)
        color = _bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.4), rng.uniform(0.0, 1.0))
        img = img * (1 - spots[..., None]) + color[None, None, :] * spots[..., None]
    return img.astype(np.float32)


def wood_knots(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """Wood grain with knots: dark oval cores with rings, the grain bending around them."""
    base = _bgr(rng.uniform(18, 38), rng.uniform(0.3, 0.65), rng.uniform(0.4, 0.85))
    dark = base * rng.uniform(0.5, 0.75)
    yy, xx = _grid(height, width)
    yy = yy + fractal_noise(rng, height, width, 3, 3) * np.float32(unit * 0.3)
    freq = 2 * np.pi / max(2.0, unit * rng.uniform(0.08, 0.3))
    phase = yy * freq
    core = np.zeros((height, width), np.float32)
    for _ in range(int(rng.integers(1, 2 + int(height * width / max(1.0, (unit * 6) ** 2))))):
        kx, ky = rng.uniform(0, width), rng.uniform(0, height)
        r = unit * rng.uniform(0.15, 0.6)
        d = np.hypot((xx - kx) / (r * rng.uniform(1.5, 3.0)), (yy - ky) / r)
        weight = np.exp(-((d / 2.0) ** 2))
        phase = phase * (1 - weight) + weight * d * r * freq * 0.8
        core = np.maximum(core, np.clip(1.4 - d * 2.0, 0, 1))
    grain = (0.5 + 0.5 * np.sin(phase)) ** rng.uniform(1.5, 3.5)
    t = np.clip(0.6 * grain + 0.2 * fractal_noise(rng, height, width, 3, 2) + 0.9 * core, 0, 1)
    img = _mix(base, dark, t)
    img *= (1 - 0.35 * core)[..., None]
    return img.astype(np.float32)


def wall(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """What stands behind a counter: a painted wall or a tiled splashback."""
    color = _bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.2), rng.uniform(0.35, 0.95))
    img = np.empty((height, width, 3), np.float32)
    img[:] = color
    img *= (1 + fractal_noise(rng, height, width, 3, 2) * 0.06)[..., None]
    if rng.random() < 0.5:
        yy, xx = _grid(height, width)
        size = unit * rng.uniform(1.5, 5.0)
        grout = (np.mod(xx, size) < 2) | (np.mod(yy, size * rng.choice([1.0, 0.5])) < 2)
        img[grout] *= 0.75
    return img


SurfaceGenerator = Callable[[np.random.Generator, int, int, float], np.ndarray]


def _old(gen: Callable[[np.random.Generator, int, int], np.ndarray]) -> SurfaceGenerator:
    """The first generators, which do not scale with the tile."""

    def wrapped(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
        return gen(rng, height, width)

    return wrapped


SURFACES: dict[str, SurfaceGenerator] = {
    "wood": _old(wood),
    "cloth": _old(cloth),
    "marble": _old(marble),
    "plain": _old(plain),
    "pattern": _old(pattern),
    "weave_basket": weave_basket,
    "weave_plain": weave_plain,
    "knit": knit,
    "gingham": gingham,
    "stripes": stripes,
    "printed": printed,
    "carpet": carpet,
    "stone": stone,
    "wood_knots": wood_knots,
    "weave_twill": weave_twill,
}
"""Surface name -> generator(rng, height, width, unit), unit = texture pixels per tile height."""

HOLDOUT_SURFACES: frozenset[str] = frozenset({"weave_twill"})
"""Reserved for `--variants holdout`: never drawn in training renders."""

PLAIN_WEIGHTS = {"wood": 0.45, "cloth": 0.17, "marble": 0.1, "plain": 0.18, "pattern": 0.1}
"""The everyday tables of the first renders (real-dev's kind of table)."""

TEXTURED_WEIGHTS = {
    "weave_basket": 0.22,
    "weave_plain": 0.1,
    "knit": 0.08,
    "gingham": 0.12,
    "stripes": 0.08,
    "printed": 0.1,
    "carpet": 0.1,
    "stone": 0.12,
    "wood_knots": 0.08,
}
"""Strongly textured surfaces that fooled the detector (issue 11)."""

GLOSSY = frozenset({"marble", "plain", "stone", "wood", "wood_knots"})


def pick_surface(rng: np.random.Generator, textured: float, variants: str = "train") -> str:
    """A surface name: a textured one with probability `textured`; holdout runs use reserved ones."""
    if variants == "holdout" and rng.random() < 0.6:
        return str(sorted(HOLDOUT_SURFACES)[int(rng.integers(0, len(HOLDOUT_SURFACES)))])
    weights = TEXTURED_WEIGHTS if rng.random() < textured else PLAIN_WEIGHTS
    names = list(weights)
    p = np.array([weights[n] for n in names])
    return names[int(rng.choice(len(names), p=p / p.sum()))]


def table_surface(
    rng: np.random.Generator, height: int, width: int, unit: float = 20.0, name: str | None = None
) -> np.ndarray:
    """A table surface texture: the named one, or one of the everyday tables."""
    if name is None:
        name = pick_surface(rng, 0.0)
    gen = SURFACES[name]
    return np.clip(gen(rng, height, width, unit), 0, 1).astype(np.float32)
