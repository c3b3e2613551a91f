"""Single tile faces: an upright face texture (colour and alpha) for any tile, with seeded variation.

The face is drawn upright in its own pixel frame (`height` tall, `height * aspect` wide); the scene
composer warps it onto the face quad of a tile seen in perspective. Colours are BGR floats in 0-1.
"""

from __future__ import annotations

import colorsys
import functools
from dataclasses import dataclass, field

import cv2
import numpy as np

from assistant.tiles import Color, Tile
from datasets.glyphs import HERSHEY, PILLOW_DEFAULT, available_fonts, joker_mask, number_mask

# Ink as printed, RGB 0-255, measured by eye on real-dev crops (see datasets/README.md, compare_real).
# Red and orange, black and blue, are the hard pairs: their ranges stay realistic and do not overlap.
_INK_HSV: dict[Color, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    # hue range (degrees), saturation range, value range
    Color.BLACK: ((15.0, 60.0), (0.05, 0.3), (0.08, 0.22)),
    Color.BLUE: ((218.0, 236.0), (0.8, 0.97), (0.6, 0.86)),
    Color.RED: ((347.0, 361.0), (0.74, 0.9), (0.85, 0.98)),
    Color.ORANGE: ((17.0, 30.0), (0.72, 0.9), (0.92, 1.0)),
}


# Other editions' inks (issue 11: a teal fourth colour read black; yellow instead of orange; darker or
# lighter reds). Each colour's variants keep clear of the other colours' ranges.
INK_VARIANTS: dict[Color, dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]]] = {
    Color.BLACK: {"black": _INK_HSV[Color.BLACK]},
    Color.BLUE: {
        "blue": _INK_HSV[Color.BLUE],
        "teal": ((180.0, 192.0), (0.6, 0.9), (0.4, 0.7)),
        "cyan": ((192.0, 202.0), (0.75, 0.95), (0.82, 0.98)),
        # Okey sets and some Rummikub editions: a dark blue close to black under warm light (issue 37: read
        # black from outside photos). Only `--variants dark_blue` draws it: never in training renders.
        "navy": ((218.0, 234.0), (0.55, 0.85), (0.24, 0.42)),
    },
    Color.RED: {
        "red": _INK_HSV[Color.RED],
        "dark_red": ((345.0, 358.0), (0.8, 0.95), (0.55, 0.72)),
        "light_red": ((350.0, 362.0), (0.55, 0.7), (0.93, 1.0)),
    },
    Color.ORANGE: {
        "orange": _INK_HSV[Color.ORANGE],
        "yellow_orange": ((33.0, 42.0), (0.8, 0.95), (0.9, 1.0)),
        "yellow": ((46.0, 54.0), (0.8, 0.95), (0.88, 1.0)),
    },
}

FONT_STYLES: tuple[str, ...] = ("bold", "thin", "large", "narrow")
"""bold: the usual print; thin: strokes 9-13 % of the numeral height; large: numerals 46-54 % of the tile;
narrow: numerals squeezed to 62-72 % of their width."""

MARKS: tuple[str, ...] = ("none", "bar", "dot")
"""What some editions print under a 6 and a 9 so they are not confused: nothing, a bar or a dot."""

HOLDOUT_INKS: dict[Color, str] = {Color.BLUE: "cyan", Color.ORANGE: "yellow"}
"""The ink palette reserved for `--variants holdout` (cyan blue with yellow): never in training renders."""

MEASURE_ONLY_INKS: frozenset[str] = frozenset({"navy"})
"""Inks only a measuring run asks for (`--variants dark_blue`): training and the hold-out never draw them."""

HOLDOUT_FONT = "narrow"
"""The font style reserved for `--variants holdout`."""

VARIANTS: tuple[str, ...] = ("train", "holdout", "dark_blue")
"""train: training's editions; holdout: the reserved palette or font; dark_blue: training's editions with a
dark blue ink instead of the fourth colour's (measuring colour read against a photo's own inks)."""


def _hsv_to_bgr(h_deg: float, s: float, v: float) -> np.ndarray:
    r, g, b = colorsys.hsv_to_rgb((h_deg % 360.0) / 360.0, s, v)
    return np.array([b, g, r], np.float32)


@dataclass(frozen=True)
class Edition:
    """What stays the same for all tiles of one physical set: ink palette, tile colour, font, logo."""

    inks: dict[Color, np.ndarray]
    joker_inks: tuple[np.ndarray, np.ndarray]
    tile_bgr: np.ndarray
    side_bgr: np.ndarray
    font_key: str
    digit_height: float  # fraction of tile height
    digit_center_y: float  # fraction of tile height from the top
    stroke_weight: float  # numeral stroke width (twice area over outline) as a fraction of its height
    dimple: bool
    logo: str  # "word", "dot" or "none"
    aspect: float  # width / height of the face
    corner_radius: float  # fraction of width
    joker_variant: int
    ink_names: dict[Color, str] = field(default_factory=lambda: {c: c.name.lower() for c in _INK_HSV})
    font_style: str = "bold"
    mark: str = "none"  # under 6 and 9
    squeeze: float = 1.0  # numeral width factor (narrow fonts)

    @classmethod
    def sample(cls, rng: np.random.Generator, variants: str = "train", other: float = 0.25) -> Edition:
        """A random edition. With probability `other` (always when `other` is 1) some inks or the font
        differ from the usual print; `variants="holdout"` always uses the reserved palette or font (or
        both), which "train" never does."""
        if variants not in VARIANTS:
            raise ValueError(f"unknown variants {variants!r} (use train or holdout)")
        ink_names = {c: c.name.lower() for c in _INK_HSV}
        font_style = "bold"
        if variants == "holdout":
            roll = rng.random()
            if roll < 0.7:
                ink_names.update(HOLDOUT_INKS)
            if roll >= 0.35:
                font_style = HOLDOUT_FONT
            if rng.random() < 0.3:  # the other colours may vary as in training
                ink_names[Color.RED] = str(rng.choice(["red", "dark_red", "light_red"]))
        elif variants == "dark_blue":
            ink_names[Color.BLUE] = "navy"
        elif rng.random() < other:
            while True:
                if rng.random() < 0.45:
                    ink_names[Color.BLUE] = "teal"
                if rng.random() < 0.4:
                    ink_names[Color.ORANGE] = "yellow_orange"
                if rng.random() < 0.4:
                    ink_names[Color.RED] = str(rng.choice(["dark_red", "light_red"]))
                if rng.random() < 0.45:
                    font_style = str(rng.choice(["thin", "large"]))
                if font_style != "bold" or any(ink_names[c] != c.name.lower() for c in ink_names):
                    break
        inks = {}
        for color, name in ink_names.items():
            hue, sat, val = INK_VARIANTS[color][name]
            inks[color] = _hsv_to_bgr(rng.uniform(*hue), rng.uniform(*sat), rng.uniform(*val))
        joker_inks = (
            _hsv_to_bgr(rng.uniform(348, 360), rng.uniform(0.75, 0.9), rng.uniform(0.75, 0.9)),
            _hsv_to_bgr(rng.uniform(200, 260), rng.uniform(0.0, 0.2), rng.uniform(0.08, 0.2)),
        )
        # Ivory / cream / off-white: warm hue, low saturation.
        tile = _hsv_to_bgr(rng.uniform(32, 50), rng.uniform(0.04, 0.15), rng.uniform(0.9, 0.99))
        side = tile * rng.uniform(0.78, 0.9)
        # Pillow's bundled font and the Hershey strokes are fallbacks: their 5, 6 and 9 look unlike the
        # print, so they are used only when the machine has no bold TrueType font.
        fonts = tuple(f for f in available_fonts() if f not in (PILLOW_DEFAULT, HERSHEY)) or available_fonts()
        weights = np.array([3.0 if "Sans-Bold" in f else 1.0 for f in fonts])
        font_key = fonts[int(rng.choice(len(fonts), p=weights / weights.sum()))]
        logo = str(rng.choice(["word", "dot", "none"], p=[0.75, 0.22, 0.03]))
        mark = str(rng.choice(MARKS, p=[0.6, 0.25, 0.15]))
        digit_height = float(rng.uniform(0.31, 0.40))
        digit_center_y = float(rng.uniform(0.36, 0.44))
        stroke = float(rng.uniform(0.175, 0.215))
        squeeze = 1.0
        if font_style == "thin":
            stroke = float(rng.uniform(0.09, 0.13))
        elif font_style == "large":
            digit_height = float(rng.uniform(0.46, 0.54))
            digit_center_y = float(rng.uniform(0.38, 0.42))
        elif font_style == "narrow":
            squeeze = float(rng.uniform(0.62, 0.72))
        return cls(
            inks=inks,
            joker_inks=joker_inks,
            tile_bgr=tile,
            side_bgr=side,
            font_key=font_key,
            digit_height=digit_height,
            digit_center_y=digit_center_y,
            stroke_weight=stroke,
            dimple=bool(rng.random() < 0.75),
            logo=logo,
            aspect=float(rng.uniform(0.70, 0.78)),
            corner_radius=float(rng.uniform(0.08, 0.16)),
            joker_variant=int(rng.integers(0, 4)),
            ink_names=ink_names,
            font_style=font_style,
            mark=mark,
            squeeze=squeeze,
        )

    def to_json(self) -> dict[str, object]:
        """What the scene json records of the edition."""
        return {
            "inks": {c.name.lower(): n for c, n in self.ink_names.items()},
            "font": self.font_style,
            "font_file": self.font_key.rsplit("/", 1)[-1],
            "mark": self.mark,
            "logo": self.logo,
            "digit_height": round(self.digit_height, 3),
            "stroke": round(self.stroke_weight, 3),
        }

    @property
    def is_holdout(self) -> bool:
        """Whether this edition uses a variant reserved for `--variants holdout`."""
        reserved = any(self.ink_names.get(c) == n for c, n in HOLDOUT_INKS.items())
        return reserved or self.font_style == HOLDOUT_FONT


@functools.cache
def _face_geometry(height: int, width: int, radius: int, bevel: int) -> tuple[np.ndarray, np.ndarray]:
    """Rounded-rectangle alpha and a bevel shading map (1 flat, <1 shaded, >1 lit), cached per size."""
    alpha = np.zeros((height, width), np.uint8)
    r = max(1, radius)
    cv2.rectangle(alpha, (r, 0), (width - 1 - r, height - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (width - 1, height - 1 - r), 255, -1)
    for cx, cy in ((r, r), (width - 1 - r, r), (r, height - 1 - r), (width - 1 - r, height - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    dist = cv2.distanceTransform((alpha > 127).astype(np.uint8), cv2.DIST_L2, 3)
    edge = np.clip(1.0 - dist / max(1, bevel), 0.0, 1.0)
    # Light from the top-left: the upper and left bevels catch it, the others fall off.
    gy, gx = np.gradient(dist)
    facing = -(gx * -0.6 + gy * -0.8)
    shade = 1.0 - 0.12 * edge + 0.1 * edge * np.clip(-facing, -1, 1)
    alpha_f = alpha.astype(np.float32) / 255.0
    alpha_f.setflags(write=False)
    shade = shade.astype(np.float32)
    shade.setflags(write=False)
    return alpha_f, shade


def _paste(
    canvas: np.ndarray, mask: np.ndarray, color: np.ndarray, cx: float, cy: float, strength: float = 1.0
) -> None:
    """Blend `color` into `canvas` through `mask`, centred at (cx, cy), clipped at the edges."""
    h, w = mask.shape
    x0 = int(round(cx - w / 2))
    y0 = int(round(cy - h / 2))
    x1, y1 = max(0, x0), max(0, y0)
    x2, y2 = min(canvas.shape[1], x0 + w), min(canvas.shape[0], y0 + h)
    if x2 <= x1 or y2 <= y1:
        return
    m = mask[y1 - y0 : y2 - y0, x1 - x0 : x2 - x0, None] * strength
    region = canvas[y1:y2, x1:x2]
    region *= 1.0 - m
    region += m * color


_LOGO_WORDS = ("Rummikub", "Rummikub", "Rummi", "RUMMY")


def render_face(
    tile: Tile, edition: Edition, height: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The upright face of `tile`: (BGR float32 image, alpha float32), `height` pixels tall."""
    width = max(8, int(round(height * edition.aspect)))
    radius = int(round(width * edition.corner_radius))
    bevel = max(2, int(round(height * 0.06)))
    alpha, shade = _face_geometry(height, width, radius, bevel)

    base = (
        edition.tile_bgr * np.float32(rng.uniform(0.97, 1.03)) * rng.uniform(0.99, 1.01, 3).astype(np.float32)
    )
    face = np.empty((height, width, 3), np.float32)
    face[:] = base
    # A faint gradient across the face: the plastic is not evenly lit even on a flat table.
    ramp = np.linspace(-1.0, 1.0, height, dtype=np.float32)[:, None, None]
    face *= 1.0 + ramp * rng.uniform(-0.03, 0.03)

    cx = width / 2.0
    cy = height * edition.digit_center_y
    if edition.dimple:
        dimple_r = width * rng.uniform(0.33, 0.38)
        dimple_u8 = np.zeros((height, width), np.uint8)
        cv2.circle(dimple_u8, (int(cx), int(cy)), int(dimple_r), 255, -1, cv2.LINE_AA)
        dimple = dimple_u8.astype(np.float32) / 255.0
        # Shading of a shallow dish lit from the top-left: the upper-left rim is in shadow,
        # the lower-right one catches light.
        offset = max(1, int(dimple_r * 0.08))
        shifted = np.roll(np.roll(dimple, offset, axis=0), offset, axis=1)
        rim_dark = np.clip(dimple - shifted, 0, 1)
        rim_light = np.clip(shifted - dimple, 0, 1)
        blur = max(1.0, dimple_r * 0.05)
        rim_dark = cv2.GaussianBlur(rim_dark, (0, 0), blur)
        rim_light = cv2.GaussianBlur(rim_light, (0, 0), blur)
        depth = rng.uniform(-0.02, 0.06)  # lit from some angles the dish looks lighter, mostly darker
        rim = rng.uniform(0.08, 0.2)
        face *= (1.0 - depth * dimple - rim * rim_dark + 0.6 * rim * rim_light)[:, :, None]

    if tile.is_joker:
        ink = edition.joker_inks[0 if rng.random() < 0.6 else 1]  # red jokers are the more common print
        size = int(width * rng.uniform(0.62, 0.72))
        _paste(face, joker_mask(max(8, size), edition.joker_variant), ink, cx, cy)
    else:
        assert tile.color is not None and tile.number is not None
        ink = edition.inks[tile.color] * rng.uniform(0.95, 1.05)
        glyph_h = max(6, int(round(height * edition.digit_height * rng.uniform(0.96, 1.04))))
        mask = number_mask(edition.font_key, tile.number, glyph_h, int(width * 0.86), edition.stroke_weight)
        if edition.squeeze != 1.0:
            squeezed = max(2, int(round(mask.shape[1] * edition.squeeze)))
            mask = cv2.resize(mask, (squeezed, mask.shape[0]), interpolation=cv2.INTER_AREA)
        dx = cx + width * rng.uniform(-0.02, 0.02)
        _paste(face, mask, np.clip(ink, 0, 1), dx, cy)
        if tile.number in (6, 9) and edition.mark != "none":
            _paste_mark(face, edition, mask, np.clip(ink, 0, 1), dx, cy, glyph_h)

    logo_y = height * rng.uniform(0.76, 0.82)
    if edition.logo == "word":
        _emboss_word(face, _LOGO_WORDS[int(rng.integers(0, len(_LOGO_WORDS)))], cx, logo_y, width * 0.7)
    elif edition.logo == "dot":
        r = max(1, int(width * 0.05))
        dot_u8 = np.zeros((2 * r + 3, 2 * r + 3), np.uint8)
        cv2.circle(dot_u8, (r + 1, r + 1), r, 255, -1, cv2.LINE_AA)
        dot = dot_u8.astype(np.float32) / 255.0
        _paste(face, dot, base * 0.8, cx, logo_y, strength=0.8)

    _wear(face, rng, height, width)
    face *= shade[:, :, None]
    np.clip(face, 0.0, 1.0, out=face)
    return face, alpha


def _paste_mark(
    face: np.ndarray,
    edition: Edition,
    numeral: np.ndarray,
    ink: np.ndarray,
    cx: float,
    cy: float,
    glyph_h: int,
) -> None:
    """The bar or dot some editions print under a 6 and a 9, in the numeral's ink."""
    stroke = max(1.0, glyph_h * edition.stroke_weight)
    y = cy + numeral.shape[0] / 2 + max(1.0, glyph_h * 0.08) + stroke * 0.5
    if edition.mark == "bar":
        w, h = max(2, int(round(numeral.shape[1] * 0.7))), max(1, int(round(stroke * 0.8)))
        mark = np.ones((h + 2, w + 2), np.float32)
        mark[0], mark[-1], mark[:, 0], mark[:, -1] = 0.5, 0.5, 0.5, 0.5
    else:
        r = max(1, int(round(stroke * 0.6)))
        dot = np.zeros((2 * r + 3, 2 * r + 3), np.uint8)
        cv2.circle(dot, (r + 1, r + 1), r, 255, -1, cv2.LINE_AA)
        mark = dot.astype(np.float32) / 255.0
    _paste(face, mark, ink, cx, y)


def render_back(edition: Edition, height: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The plain back of a tile lying face down: the body colour, bevels, no numeral, no logo."""
    width = max(8, int(round(height * edition.aspect)))
    radius = int(round(width * edition.corner_radius))
    alpha, shade = _face_geometry(height, width, radius, max(2, int(round(height * 0.06))))
    face = np.empty((height, width, 3), np.float32)
    face[:] = edition.tile_bgr * np.float32(rng.uniform(0.93, 1.02))
    ramp = np.linspace(-1.0, 1.0, height, dtype=np.float32)[:, None, None]
    face *= 1.0 + ramp * rng.uniform(-0.04, 0.04)
    _wear(face, rng, height, width)
    face *= shade[:, :, None]
    np.clip(face, 0.0, 1.0, out=face)
    return face, alpha


def _emboss_word(face: np.ndarray, word: str, cx: float, cy: float, max_width: float) -> None:
    """A small embossed logo: a darker stroke with a lighter one offset, like moulded lettering."""
    scale = max_width / 160.0
    thickness = max(1, int(round(scale * 1.6)))
    (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, thickness)
    ratio = min(1.0, max_width / max(1, tw))
    scale *= ratio
    (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, thickness)
    canvas = np.zeros(face.shape[:2], np.uint8)
    org = (int(cx - tw / 2), int(cy + th / 2))
    cv2.putText(canvas, word, org, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, 255, thickness, cv2.LINE_AA)
    mask = canvas.astype(np.float32) / 255.0
    light = np.roll(mask, -1, axis=0)
    face *= (1.0 - 0.10 * mask + 0.04 * light)[:, :, None]


def _wear(face: np.ndarray, rng: np.random.Generator, height: int, width: int) -> None:
    """Specks and smudges of a used tile: small soft round spots."""
    n = int(rng.integers(0, 6))
    for _ in range(n):
        x, y = int(rng.integers(0, width)), int(rng.integers(0, height))
        r = max(1, width // 60)
        y0, y1 = max(0, y - 2 * r), min(height, y + 2 * r + 1)
        x0, x1 = max(0, x - 2 * r), min(width, x + 2 * r + 1)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        spot = np.clip(1.0 - np.hypot(yy - y, xx - x) / (r + 0.5), 0.0, 1.0).astype(np.float32)[..., None]
        face[y0:y1, x0:x1] *= 1.0 - spot * np.float32(rng.uniform(0.05, 0.2))
