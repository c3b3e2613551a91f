"""Numeral and joker masks for tile faces: system bold fonts when present, drawn glyphs otherwise.

Masks are float32 in 0-1, cached per (font, text, height), and have heavy, rounded strokes like the
numerals printed on real tiles. The "1" is always drawn here: real tiles have a long flag that stock
fonts lack.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import cv2
import numpy as np

# Bold sans fonts from Debian packages (fonts-dejavu-core, fonts-liberation, fonts-freefont-ttf). None is
# required: without them the Pillow bundled font (dilated) or drawn Hershey strokes are used.
_FONT_CANDIDATES: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
)

HERSHEY = "hershey"
PILLOW_DEFAULT = "pillow-default"


@functools.cache
def available_fonts() -> tuple[str, ...]:
    """Font keys usable on this machine: existing font files, then the two fallbacks that always work."""
    keys: list[str] = []
    try:
        from PIL import ImageFont

        ImageFont.load_default(size=20)
    except (ImportError, TypeError, OSError):
        return (HERSHEY,)  # no Pillow (or one without FreeType): drawn strokes only
    keys += [p for p in _FONT_CANDIDATES if os.path.exists(p)]
    extra = os.environ.get("RUMMI_FONT_DIR")
    if extra:
        keys += sorted(str(p) for p in Path(extra).glob("*.ttf"))
    keys.append(PILLOW_DEFAULT)
    keys.append(HERSHEY)
    return tuple(keys)


def _tight(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 0.5)
    if len(xs) == 0:
        return mask
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _round_strokes(mask: np.ndarray, height: int, weight: float) -> np.ndarray:
    """Grow (thin, if negative) by `weight` of the glyph height and round the corners: blur, re-threshold."""
    pad = max(2, int(height * 0.15))
    mask = cv2.copyMakeBorder(mask, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    radius = int(round(height * abs(weight)))
    if radius > 0:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        mask = cv2.dilate(mask, kernel) if weight > 0 else cv2.erode(mask, kernel)
    sigma = max(0.6, height * 0.025)
    mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    # A soft threshold keeps an antialiased edge.
    mask = np.clip((mask - 0.5) * 3.0 + 0.5, 0.0, 1.0)
    return _tight(mask)


def _pillow_digit(font_key: str, char: str, height: int) -> np.ndarray:
    from PIL import Image, ImageDraw, ImageFont

    size = int(height * 1.45)
    if font_key == PILLOW_DEFAULT:
        font = ImageFont.load_default(size=size)
    else:
        font = ImageFont.truetype(font_key, size=size)
    canvas = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(canvas).text((size // 3, size // 4), char, fill=255, font=font)
    mask = _tight(np.asarray(canvas, dtype=np.float32) / 255.0)
    scale = height / max(1, mask.shape[0])
    return cv2.resize(mask, (max(1, int(round(mask.shape[1] * scale))), height), interpolation=cv2.INTER_AREA)


def _drawn_zero(height: int) -> np.ndarray:
    """A heavy oval ring (Hershey's zero has a slash that the tiles' does not)."""
    scale = 4
    h = height * scale
    w = int(h * 0.62)
    canvas = np.zeros((h, w), np.uint8)
    stroke = int(h * 0.16)
    cv2.ellipse(
        canvas,
        (w // 2, h // 2),
        (w // 2 - stroke // 2, h // 2 - stroke // 2),
        0,
        0,
        360,
        255,
        stroke,
        cv2.LINE_AA,
    )
    mask = _tight(canvas.astype(np.float32) / 255.0)
    return cv2.resize(mask, (max(1, mask.shape[1] // scale), height), interpolation=cv2.INTER_AREA)


def _hershey_digit(char: str, height: int) -> np.ndarray:
    if char == "0":
        return _drawn_zero(height)
    scale = height / 22.0
    thickness = max(2, int(height * 0.13))
    (w, h), base = cv2.getTextSize(char, cv2.FONT_HERSHEY_DUPLEX, scale, thickness)
    canvas = np.zeros((h + base + 2 * thickness, w + 2 * thickness), np.uint8)
    cv2.putText(
        canvas, char, (thickness, h + thickness), cv2.FONT_HERSHEY_DUPLEX, scale, 255, thickness, cv2.LINE_AA
    )
    mask = _tight(canvas.astype(np.float32) / 255.0)
    s = height / max(1, mask.shape[0])
    return cv2.resize(mask, (max(1, int(round(mask.shape[1] * s))), height), interpolation=cv2.INTER_AREA)


def _drawn_one(height: int, flag: float, stroke: float) -> np.ndarray:
    """The tile "1": a heavy stem with a long flag sloping down to the left from its top, no foot."""
    scale = 4  # draw large, then downsample for antialiasing
    h = height * scale
    sw = stroke * h  # stem width
    flag_len = flag * h
    width = int(sw + flag_len) + 2
    canvas = np.zeros((h, width), np.uint8)
    x_right = width - 1
    x_left = x_right - sw
    stem = np.array([[x_left, 0], [x_right, 0], [x_right, h - 1], [x_left, h - 1]], np.float32)
    # The flag is a slanted band (about 40 degrees) from the stem's top down to the left; its top edge
    # starts at the stem's top-right corner so the glyph's top is a point, as on the tiles.
    drop = flag_len * 0.85
    band = sw * 0.75
    flag_poly = np.array(
        [
            [x_right, 0],
            [x_left, sw * 0.9 + band],
            [x_left - flag_len, drop + band],
            [x_left - flag_len, drop],
            [x_left, 0],
        ],
        np.float32,
    )
    cv2.fillPoly(canvas, [np.round(stem).astype(np.int32)], 255, cv2.LINE_AA)
    cv2.fillPoly(canvas, [np.round(flag_poly).astype(np.int32)], 255, cv2.LINE_AA)
    mask = canvas.astype(np.float32) / 255.0
    mask = _tight(mask)
    return cv2.resize(mask, (max(1, mask.shape[1] // scale), height), interpolation=cv2.INTER_AREA)


def _drawn_seven(height: int, stroke: float) -> np.ndarray:
    """The tile "7": a full-width bar and a straight, steep stem (no curve, no crossbar), as printed."""
    scale = 4
    h = height * scale
    t = stroke * h
    w = int(h * 0.6)
    canvas = np.zeros((h, w), np.uint8)
    cv2.fillPoly(
        canvas, [np.round(np.array([[0, 0], [w, 0], [w, t], [0, t]])).astype(np.int32)], 255, cv2.LINE_AA
    )
    # The stem leaves the bar's right end and lands about a third of the way across: ~20 degrees off vertical.
    foot = w * 0.36
    stem = np.array(
        [[w - t * 1.15, 0], [w, 0], [w, t * 1.2], [foot + t * 0.55, h], [foot - t * 0.55, h]], np.float32
    )
    cv2.fillPoly(canvas, [np.round(stem).astype(np.int32)], 255, cv2.LINE_AA)
    mask = _tight(canvas.astype(np.float32) / 255.0)
    return cv2.resize(mask, (max(1, mask.shape[1] // scale), height), interpolation=cv2.INTER_AREA)


def _stroke_of(mask: np.ndarray) -> float:
    """Mean stroke width of a glyph in pixels: twice its area over its outline length."""
    binary = (mask > 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    perimeter = sum(cv2.arcLength(c, True) for c in contours)
    return 2.0 * float(binary.sum()) / max(1.0, perimeter)


@functools.cache
def font_stroke(font_key: str) -> float:
    """The font's own numeral stroke width as a fraction of the numeral height (median over 0, 2-9)."""
    reference = 160
    widths = []
    for char in "023456789":
        raw = (
            _hershey_digit(char, reference)
            if font_key == HERSHEY
            else _pillow_digit(font_key, char, reference)
        )
        widths.append(_stroke_of(raw) / reference)
    return float(np.median(widths))


def digit_mask(font_key: str, char: str, height: int, stroke: float = 0.165) -> np.ndarray:
    """One numeral, `height` pixels tall, with strokes `stroke` of its height wide, corners rounded.

    Real tiles' numerals are heavy: strokes 15-18 % of the numeral height. Fonts are brought to the
    requested stroke by growing or thinning their outline, so every edition is as bold as the real print
    whatever its font; the open "5" stays open because no font needs much growing.
    """
    return _digit_mask_cached(font_key, char, int(height), round(stroke, 3))


@functools.cache
def _digit_mask_cached(font_key: str, char: str, height: int, stroke: float) -> np.ndarray:
    if char == "1":
        raw, own = _drawn_one(height, flag=0.3, stroke=stroke * 1.15), stroke
    elif char == "7":
        raw, own = _drawn_seven(height, stroke), stroke
    elif font_key == HERSHEY:
        raw = _hershey_digit(char, height)
        own = _stroke_of(raw) / height if char == "0" else font_stroke(font_key)  # the 0 is drawn here
    else:
        raw, own = _pillow_digit(font_key, char, height), font_stroke(font_key)
    # Growing the outline by r on each side makes the glyph 2r taller, and it is scaled back to `height`
    # after: r solves (own + 2r) / (1 + 2r) = stroke.
    grow = (stroke - own) / (2.0 * (1.0 - stroke))
    mask = _round_strokes(raw, height, grow)
    if mask.shape[0] != height:
        width = max(1, int(round(mask.shape[1] * height / mask.shape[0])))
        mask = cv2.resize(mask, (width, height), interpolation=cv2.INTER_AREA)
    mask.setflags(write=False)
    return mask


def number_mask(
    font_key: str, number: int, height: int, max_width: int, stroke: float = 0.165, spacing: float = 0.06
) -> np.ndarray:
    """The whole numeral of a tile (one or two digits side by side), squeezed to fit `max_width`."""
    parts = [digit_mask(font_key, ch, height, stroke) for ch in str(number)]
    gap = int(round(height * spacing))
    total_w = sum(p.shape[1] for p in parts) + gap * (len(parts) - 1)
    total_h = max(p.shape[0] for p in parts)
    canvas = np.zeros((total_h, total_w), np.float32)
    x = 0
    for part in parts:
        y = (total_h - part.shape[0]) // 2
        canvas[y : y + part.shape[0], x : x + part.shape[1]] = np.maximum(
            canvas[y : y + part.shape[0], x : x + part.shape[1]], part
        )
        x += part.shape[1] + gap
    if total_w > max_width:
        canvas = cv2.resize(canvas, (max_width, total_h), interpolation=cv2.INTER_AREA)
    return canvas


@functools.cache
def joker_mask(size: int, variant: int) -> np.ndarray:
    """The joker's moon face in a ring, `size` pixels square; `variant` (0-3) picks small differences.

    Drawn after real-dev crops: a thick ring filling most of the tile width, slanted brows, almond eyes
    with dark pupils, a nose line with a nostril hook, a wide crescent grin with upturned corners and a
    short chin line. The face is dense ink, not a thin smiley: at 30 px it must still read as a face.
    """
    scale = 4  # draw large, then downsample for antialiasing
    s = size * scale
    canvas = np.zeros((s, s), np.uint8)
    c = s / 2.0
    ring = s * (0.05 + 0.012 * (variant % 2))
    r = s / 2.0 - ring / 2.0 - 1
    bold = 1.0 + 0.15 * (variant // 2)  # some prints are heavier

    def pt(x: float, y: float) -> tuple[int, int]:
        return int(round(c + x * r)), int(round(c + y * r))

    def line_w(frac: float) -> int:
        return max(2, int(round(frac * r * bold)))

    def arc(cx: float, cy: float, ax: float, ay: float, a0: float, a1: float, width: float) -> None:
        cv2.ellipse(
            canvas,
            pt(cx, cy),
            (max(1, int(ax * r)), max(1, int(ay * r))),
            0,
            a0,
            a1,
            255,
            line_w(width),
            cv2.LINE_AA,
        )

    cv2.circle(canvas, pt(0, 0), int(round(r)), 255, max(2, int(round(ring))), cv2.LINE_AA)
    for side in (-1, 1):
        ex = side * 0.33
        # Brows: thick strokes, higher at the nose end.
        brow = np.array([pt(side * 0.12, -0.40), pt(side * 0.34, -0.44), pt(side * 0.56, -0.34)], np.int32)
        cv2.polylines(canvas, [brow], False, 255, line_w(0.085), cv2.LINE_AA)
        # Almond eye: heavy upper lid, thinner lower lid, a filled pupil.
        arc(ex, -0.12, 0.2, 0.1, 180, 360, 0.07)
        arc(ex, -0.14, 0.18, 0.07, 10, 170, 0.04)
        pupil_dx = 0.03 * side if variant in (1, 2) else 0.0
        cv2.circle(canvas, pt(ex + pupil_dx, -0.15), int(r * 0.085 * bold), 255, -1, cv2.LINE_AA)
        # Cheek creases at the corners of the grin.
        arc(side * 0.55, 0.3, 0.08, 0.14, 270 - side * 60, 270 + side * 10, 0.045)
    nose = np.array([pt(0.02, -0.22), pt(0.05, 0.1), pt(0.12, 0.15), pt(0.02, 0.2)], np.int32)
    cv2.polylines(canvas, [nose], False, 255, line_w(0.06), cv2.LINE_AA)
    # Grin: a filled crescent between two arcs, wide and upturned at the corners.
    mouth_w = 0.5 if variant < 2 else 0.44
    upper = cv2.ellipse2Poly(pt(0, 0.18), (int(mouth_w * r), int(0.2 * r)), 0, 5, 175, 4)
    lower = cv2.ellipse2Poly(pt(0, 0.14), (int(mouth_w * r * 0.92), int(0.36 * r)), 0, 5, 175, 4)[::-1]
    cv2.fillPoly(canvas, [np.vstack([upper, lower]).astype(np.int32)], 255, cv2.LINE_AA)
    cv2.polylines(canvas, [upper.astype(np.int32)], False, 255, line_w(0.06), cv2.LINE_AA)
    arc(0, 0.66, 0.14, 0.05, 20, 160, 0.05)  # chin
    mask = canvas.astype(np.float32) / 255.0
    mask = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA)
    mask.setflags(write=False)
    return mask
