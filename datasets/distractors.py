"""Things on a game table that are not tiles: hands, playing cards, cups, score pads, pens, coins, dice,
bottles and stickers.

Each draws itself into the frame (BGR float32 0-1) and into the owner map with `OCCLUDER`, so tiles it
covers lose visible area; each returns what it drew as (kind, clipped box) for the scene's `objects`.
"""

from __future__ import annotations

import colorsys

import cv2
import numpy as np

from datasets.effects import soft_blur

OCCLUDER = -2


def _fill(img: np.ndarray, owner: np.ndarray, poly: np.ndarray, color: np.ndarray) -> None:
    pts = [np.round(poly * 4).astype(np.int32)]
    cv2.fillPoly(img, pts, color.tolist(), cv2.LINE_AA, shift=2)
    cv2.fillPoly(owner, pts, OCCLUDER, cv2.LINE_8, shift=2)


Found = list[tuple[str, tuple[float, float, float, float]]]
"""(kind, [x1, y1, x2, y2] clipped to the frame) of each object drawn."""


def _box(img: np.ndarray, points: np.ndarray) -> tuple[float, float, float, float] | None:
    h, w = img.shape[:2]
    pts = np.asarray(points, float).reshape(-1, 2)
    x1, y1 = np.clip(pts.min(axis=0), 0, [w, h])
    x2, y2 = np.clip(pts.max(axis=0), 0, [w, h])
    if x2 - x1 < 2 or y2 - y1 < 2:
        return None
    return float(x1), float(y1), float(x2), float(y2)


def _found(img: np.ndarray, kind: str, points: np.ndarray) -> Found:
    box = _box(img, points)
    return [] if box is None else [(kind, box)]


def _shadow(img: np.ndarray, poly: np.ndarray, offset: np.ndarray, blur: float) -> None:
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly + offset).astype(np.int32)], 255)
    soft = soft_blur(mask.astype(np.float32) / 255.0, max(1.0, blur))
    img *= (1.0 - 0.35 * soft)[..., None]


Spot = tuple[np.ndarray, np.ndarray]
"""Where a flat object lies: its centre in pixels and the 2x2 map that squashes shapes drawn around it as
the table is foreshortened there (identity for a camera looking straight down)."""

_FLAT = np.eye(2)


def _where(img: np.ndarray, rng: np.random.Generator, spot: Spot | None) -> Spot:
    if spot is not None:
        return spot
    h, w = img.shape[:2]
    return rng.uniform([0, 0], [w, h]), _FLAT


def _squash(poly: np.ndarray, center: np.ndarray, squash: np.ndarray) -> np.ndarray:
    return (np.asarray(poly, float) - center) @ squash.T + center


def _rect(center: np.ndarray, w: float, h: float, deg: float, squash: np.ndarray = _FLAT) -> np.ndarray:
    r = np.radians(deg)
    rot = np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return pts @ rot.T @ squash.T + center


def card(
    img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float, spot: Spot | None = None
) -> Found:
    """A playing card face up: corner indices and pips (two dots on a card were read as a black 9)."""
    h, w = img.shape[:2]
    c, sq = _where(img, rng, spot)
    cw, ch = scale * 1.6, scale * 2.3
    deg = rng.uniform(0, 360)
    poly = _rect(c, cw, ch, deg, sq)
    _shadow(img, poly, np.array([scale * 0.05, scale * 0.08]), scale * 0.08)
    _fill(img, owner, poly, np.array([0.93, 0.94, 0.95]) * rng.uniform(0.85, 1.0))
    if rng.random() < 0.2:  # the back: a pattern, no pips
        inner = _rect(c, cw * 0.85, ch * 0.88, deg, sq)
        back = np.array([0.5, 0.15, 0.1]) if rng.random() < 0.5 else np.array([0.1, 0.1, 0.6])
        cv2.fillPoly(img, [np.round(inner).astype(np.int32)], back.tolist(), cv2.LINE_AA)
        return _found(img, "card", poly)
    ink = np.array([0.15, 0.1, 0.75]) if rng.random() < 0.5 else np.array([0.1, 0.1, 0.1])
    pips = int(rng.integers(1, 11))
    layouts = {
        1: [(0, 0)], 2: [(0, -0.3), (0, 0.3)], 3: [(0, -0.3), (0, 0), (0, 0.3)],
        4: [(-0.22, -0.3), (0.22, -0.3), (-0.22, 0.3), (0.22, 0.3)],
    }
    spots = layouts.get(pips)
    if spots is None:
        cols = [-0.22, 0.22]
        per = (pips + 1) // 2
        spots = [(cols[k % 2], -0.32 + 0.64 * (k // 2) / max(1, per - 1)) for k in range(pips)]
    r = np.radians(deg)
    rot = np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])
    radius = max(2, int(scale * rng.uniform(0.08, 0.14)))
    for sx, sy in spots:
        p = c + sq @ rot @ np.array([sx * cw, sy * ch])
        cv2.circle(img, (int(p[0]), int(p[1])), radius, ink.tolist(), -1, cv2.LINE_AA)
    for corner in (-1, 1):  # the rank in two corners
        p = c + sq @ rot @ np.array([corner * -0.38 * cw, corner * -0.4 * ch])
        text = str(rng.choice(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]))
        _text(img, text, p, max(0.3, scale / 60), ink, max(1, int(scale / 30)))
    return _found(img, "card", poly)


def _text(
    img: np.ndarray, text: str, center: np.ndarray, font_scale: float, color: np.ndarray, thickness: int
) -> None:
    """Text centred at `center` on a float image (OpenCV writes text on 8-bit images only)."""
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
    pad = thickness + 2
    canvas = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(
        canvas, text, (pad, th + pad), cv2.FONT_HERSHEY_SIMPLEX, font_scale, 255, thickness, cv2.LINE_AA
    )
    h, w = img.shape[:2]
    x0, y0 = int(center[0] - canvas.shape[1] / 2), int(center[1] - canvas.shape[0] / 2)
    x1, y1 = max(0, x0), max(0, y0)
    x2, y2 = min(w, x0 + canvas.shape[1]), min(h, y0 + canvas.shape[0])
    if x2 <= x1 or y2 <= y1:
        return
    m = canvas[y1 - y0 : y2 - y0, x1 - x0 : x2 - x0, None].astype(np.float32) / 255.0
    img[y1:y2, x1:x2] = img[y1:y2, x1:x2] * (1 - m) + color.astype(np.float32) * m


def die(
    img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float, spot: Spot | None = None
) -> Found:
    """A die seen from above, one side showing: a rounded square with 1-6 pips."""
    h, w = img.shape[:2]
    c, sq = _where(img, rng, spot)
    size = scale * rng.uniform(0.45, 0.75)
    deg = rng.uniform(0, 90)
    body = rng.choice([0, 1, 2], p=[0.6, 0.25, 0.15])
    color = [np.array([0.92, 0.93, 0.94]), np.array([0.15, 0.15, 0.75]), np.array([0.1, 0.1, 0.1])][int(body)]
    pip = np.array([0.1, 0.1, 0.1]) if body == 0 else np.array([0.95, 0.95, 0.95])
    side = _rect(c + rng.normal(0, 1, 2) * size * 0.15, size, size, deg, sq)
    _shadow(img, side, np.array([size * 0.15, size * 0.2]), size * 0.15)
    _fill(img, owner, side, color * 0.7)
    top = _rect(c, size, size, deg, sq)
    _fill(img, owner, top, color * rng.uniform(0.85, 1.0))
    n = int(rng.integers(1, 7))
    grid = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[n]
    r = np.radians(deg)
    rot = np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])
    for gx, gy in grid:
        p = c + sq @ rot @ (np.array([gx, gy]) * size * 0.27)
        cv2.circle(img, (int(p[0]), int(p[1])), max(1, int(size * 0.09)), pip.tolist(), -1, cv2.LINE_AA)
    return _found(img, "die", np.concatenate([side, top]))


def bottle(
    img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float, spot: Spot | None = None
) -> Found:
    """A bottle lying or seen from aside, with a printed sticker (a sticker was read as a tile)."""
    h, w = img.shape[:2]
    c, sq = _where(img, rng, spot)
    length, girth = scale * rng.uniform(4, 7), scale * rng.uniform(1.2, 2.0)
    deg = rng.uniform(0, 360)
    glass = [np.array([0.2, 0.45, 0.2]), np.array([0.1, 0.25, 0.4]), np.array([0.75, 0.75, 0.7])][
        int(rng.integers(0, 3))
    ]
    body = _rect(c, length, girth, deg, sq)
    r = np.radians(deg)
    axis = np.array([np.cos(r), np.sin(r)])
    neck = _rect(c + sq @ axis * length * 0.62, length * 0.3, girth * 0.4, deg, sq)
    _shadow(img, body, np.array([scale * 0.2, scale * 0.25]), scale * 0.25)
    _fill(img, owner, body, glass * rng.uniform(0.7, 1.1))
    _fill(img, owner, neck, glass * rng.uniform(0.6, 0.9))
    # A highlight along the glass.
    hl = _rect(c - sq @ np.array([-axis[1], axis[0]]) * girth * 0.25, length * 0.9, girth * 0.08, deg, sq)
    cv2.fillPoly(img, [np.round(hl).astype(np.int32)], (glass * 0.5 + 0.5).tolist(), cv2.LINE_AA)
    found = _found(img, "bottle", np.concatenate([body, neck]))
    found += sticker(img, owner, rng, scale, (c, sq), deg=deg, size=(length * 0.45, girth * 0.85))
    return found


def sticker(
    img: np.ndarray,
    owner: np.ndarray,
    rng: np.random.Generator,
    scale: float,
    spot: Spot | None = None,
    deg: float | None = None,
    size: tuple[float, float] | None = None,
) -> Found:
    """A printed label: a light or coloured rectangle with a big number, words and a frame."""
    h, w = img.shape[:2]
    c, sq = _where(img, rng, spot)
    deg = rng.uniform(0, 360) if deg is None else deg
    sw, sh = size if size is not None else (scale * rng.uniform(1.0, 2.5), scale * rng.uniform(0.8, 1.6))
    poly = _rect(c, sw, sh, deg, sq)
    paper = _ink_or_paper(rng, light=rng.random() < 0.7)
    _fill(img, owner, poly, paper)
    canvas = np.zeros((max(4, int(sh)), max(4, int(sw))), np.uint8)
    ch, cw = canvas.shape
    cv2.rectangle(canvas, (2, 2), (cw - 3, ch - 3), 255, max(1, ch // 25))
    words = ["BIO", "ECO", "Cola", "0,5L"]
    text = str(int(rng.integers(0, 100))) if rng.random() < 0.6 else str(rng.choice(words))
    fs = ch / 40.0
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, fs, max(1, ch // 12))
    if tw > cw * 0.9:
        fs *= cw * 0.9 / tw
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, fs, max(1, ch // 12))
    cv2.putText(canvas, text, ((cw - tw) // 2, (ch + th) // 2), cv2.FONT_HERSHEY_DUPLEX, fs, 255,
                max(1, ch // 12), cv2.LINE_AA)
    src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
    m = cv2.getPerspectiveTransform(src, poly.astype(np.float32))
    mask = cv2.warpPerspective(canvas, m, (w, h)).astype(np.float32) / 255.0
    ink = _ink_or_paper(rng, light=False)
    img[:] = img * (1 - mask[..., None]) + ink * mask[..., None]
    return _found(img, "sticker", poly)


def _ink_or_paper(rng: np.random.Generator, light: bool) -> np.ndarray:
    hue = rng.uniform(0, 1)
    if light:
        r, g, b = colorsys.hsv_to_rgb(hue, rng.uniform(0.0, 0.3), rng.uniform(0.8, 0.98))
    else:
        r, g, b = colorsys.hsv_to_rgb(hue, rng.uniform(0.3, 0.9), rng.uniform(0.1, 0.7))
    return np.array([b, g, r])


def cup(
    img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float, spot: Spot | None = None
) -> Found:
    h, w = img.shape[:2]
    c, sq = _where(img, rng, spot)
    r = scale * rng.uniform(1.6, 2.6)
    outer = cv2.ellipse2Poly(
        (int(c[0]), int(c[1])),
        (int(r), int(r * rng.uniform(0.75, 1.0))),
        int(rng.uniform(0, 180)),
        0,
        360,
        10,
    ).astype(np.float64)
    outer = _squash(outer, c, sq)
    body = np.array([rng.uniform(0.2, 0.95)] * 3) * rng.uniform(0.85, 1.0, 3)
    _shadow(img, outer, np.array([r * 0.15, r * 0.2]), r * 0.2)
    _fill(img, owner, outer, body)
    inner = (outer - c) * 0.82 + c
    drink = np.array([0.05, 0.12, 0.2]) * rng.uniform(0.5, 1.5)
    cv2.fillPoly(img, [np.round(inner).astype(np.int32)], drink.tolist(), cv2.LINE_AA)
    return _found(img, "cup", outer)


def score_pad(
    img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float, spot: Spot | None = None
) -> Found:
    h, w = img.shape[:2]
    c, sq = _where(img, rng, spot)
    deg = rng.uniform(0, 360)
    pw, ph = scale * rng.uniform(3, 5), scale * rng.uniform(4, 6)
    poly = _rect(c, pw, ph, deg, sq)
    _shadow(img, poly, np.array([scale * 0.05, scale * 0.08]), scale * 0.1)
    _fill(img, owner, poly, np.array([0.88, 0.93, 0.95]) * rng.uniform(0.85, 1.0))
    # Ruled lines and handwritten scores: digits that are not tiles.
    canvas = np.zeros((int(ph), int(pw)), np.uint8)
    step = max(6, int(ph / 10))
    for y in range(step, int(ph), step):
        cv2.line(canvas, (0, y), (int(pw), y), 90, 1)
        if rng.random() < 0.7:
            text = str(int(rng.integers(-80, 200)))
            cv2.putText(
                canvas,
                text,
                (int(pw * rng.uniform(0.05, 0.5)), y - 2),
                cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                step / 30.0,
                255,
                max(1, step // 12),
                cv2.LINE_AA,
            )
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    m = cv2.getPerspectiveTransform(src, poly.astype(np.float32))
    ink_mask = cv2.warpPerspective(canvas, m, (w, h)).astype(np.float32) / 255.0
    ink = np.array([0.5, 0.2, 0.1]) if rng.random() < 0.5 else np.array([0.15, 0.15, 0.15])
    img[:] = img * (1 - ink_mask[..., None]) + ink * ink_mask[..., None]
    return _found(img, "score_pad", poly)


def pen(
    img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float, spot: Spot | None = None
) -> Found:
    h, w = img.shape[:2]
    c, sq = _where(img, rng, spot)
    poly = _rect(c, scale * 4, scale * 0.25, rng.uniform(0, 360), sq)
    _fill(img, owner, poly, rng.uniform(0.05, 0.8, 3))
    return _found(img, "pen", poly)


def coin(
    img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float, spot: Spot | None = None
) -> Found:
    h, w = img.shape[:2]
    c, sq = _where(img, rng, spot)
    r = scale * rng.uniform(0.35, 0.6)
    poly = cv2.ellipse2Poly((int(c[0]), int(c[1])), (int(r), int(r)), 0, 0, 360, 15).astype(np.float64)
    poly = _squash(poly, c, sq)
    color = np.array([0.35, 0.6, 0.75]) if rng.random() < 0.5 else np.array([0.6, 0.62, 0.65])
    _fill(img, owner, poly, color * rng.uniform(0.7, 1.1))
    # The rim and a worn relief.
    cv2.polylines(img, [np.round(poly).astype(np.int32)], True, (color * 0.6).tolist(), max(1, int(r * 0.08)),
                  cv2.LINE_AA)
    relief = max(1, int(r * 0.1))
    centre = (int(c[0]), int(c[1]))
    ring = _squash(cv2.ellipse2Poly(centre, (max(1, int(r * 0.5)),) * 2, 0, 0, 360, 20), c, sq)
    cv2.polylines(img, [np.round(ring).astype(np.int32)], True, (color * 0.85).tolist(), relief, cv2.LINE_AA)
    return _found(img, "coin", poly)


def hand(img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float) -> Found:
    """A hand reaching in from the frame's edge: palm and fingers as capsules, skin tones of all kinds."""
    h, w = img.shape[:2]
    side = int(rng.integers(0, 4))
    edge = {
        0: (rng.uniform(0, w), -scale),
        1: (w + scale, rng.uniform(0, h)),
        2: (rng.uniform(0, w), h + scale),
        3: (-scale, rng.uniform(0, h)),
    }[side]
    inward = np.array([[0, 1], [-1, 0], [0, -1], [1, 0]][side], float)
    inward = cv2.Rodrigues(np.array([0, 0, rng.normal(0, 0.4)]))[0][:2, :2] @ inward
    reach = scale * rng.uniform(3, 7)
    palm_c = np.array(edge) + inward * reach
    tone = np.array([0.55, 0.68, 0.85]) * rng.uniform(0.35, 1.05)
    skin = np.clip(tone, 0, 1)
    mask = np.zeros((h, w), np.uint8)
    arm_w = int(scale * 2.0)
    cv2.line(mask, tuple(np.int32(edge - inward * scale * 4)), tuple(np.int32(palm_c)), 255, arm_w)
    cv2.circle(mask, tuple(np.int32(palm_c)), int(scale * 1.3), 255, -1)
    perp = np.array([-inward[1], inward[0]])
    for k in range(4):
        base = palm_c + perp * (k - 1.5) * scale * 0.55 + inward * scale * 0.9
        tip = base + inward * scale * rng.uniform(1.0, 1.8) + perp * rng.normal(0, 0.2) * scale
        cv2.line(mask, tuple(np.int32(base)), tuple(np.int32(tip)), 255, max(2, int(scale * 0.45)))
    thumb_base = palm_c + perp * scale * 1.1
    cv2.line(
        mask,
        tuple(np.int32(thumb_base)),
        tuple(np.int32(thumb_base + (perp + inward) * scale)),
        255,
        max(2, int(scale * 0.5)),
    )
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.2)
    shadow = soft_blur(np.roll(np.roll(soft, int(scale * 0.4), 0), int(scale * 0.3), 1), scale * 0.5)
    img *= (1 - 0.45 * shadow)[..., None]
    shade = 1.0 + 0.15 * soft_blur(soft, scale * 0.4) - 0.1
    img[:] = img * (1 - soft[..., None]) + (skin * shade[..., None]) * soft[..., None]
    owner[mask > 127] = OCCLUDER
    ys, xs = np.nonzero(mask > 127)
    if len(xs) == 0:
        return []
    return _found(img, "hand", np.array([[xs.min(), ys.min()], [xs.max() + 1, ys.max() + 1]], float))


_KINDS = (card, cup, score_pad, pen, coin, hand, die, bottle, sticker)
_WEIGHTS = np.array([0.2, 0.1, 0.15, 0.1, 0.12, 0.15, 0.1, 0.05, 0.05])


def add_distractors(
    img: np.ndarray,
    owner: np.ndarray,
    rng: np.random.Generator,
    tile_px: float,
    count: int,
    table: np.ndarray | None = None,
    on_table: np.ndarray | None = None,
) -> Found:
    """Draw `count` random distractors about a tile's size; returns what was drawn and is in the frame, as
    (kind, box).

    Given the table's homography (`table`: table plane in tile units -> pixels) flat objects lie on the
    table: sized and foreshortened as a tile lying there would be, placed where `on_table` (a mask of the
    pixels showing the table, not a wall behind it) is set. Otherwise they are `tile_px` across, unsquashed.
    """
    found: Found = []
    # Objects are about a tile's size, but no card or hand covers the whole frame when tiles fill it.
    largest = 0.12 * min(img.shape[:2])
    for _ in range(count):
        kind = _KINDS[int(rng.choice(len(_KINDS), p=_WEIGHTS / _WEIGHTS.sum()))]
        size = tile_px
        spot = None
        if table is not None and kind is not hand:
            spot, size = _table_spot(img, rng, table, on_table, tile_px)
        scale = max(8.0, min(largest, size * rng.uniform(0.8, 1.3)))
        found += kind(img, owner, rng, scale) if spot is None else kind(img, owner, rng, scale, spot)
    return found


def _table_spot(
    img: np.ndarray, rng: np.random.Generator, table: np.ndarray, on_table: np.ndarray | None, tile_px: float
) -> tuple[Spot | None, float]:
    """A random pixel showing the table, the local squash of the table there and a tile's size there."""
    h, w = img.shape[:2]
    inverse = np.linalg.inv(table)
    for _ in range(20):
        c = rng.uniform([0, 0], [w, h])
        if on_table is not None and not on_table[min(h - 1, int(c[1])), min(w - 1, int(c[0]))]:
            continue
        q = inverse @ np.array([c[0], c[1], 1.0])
        if abs(q[2]) < 1e-12:
            continue
        q = q / q[2]
        u, v, depth = table @ q
        if depth <= 0:  # above the horizon
            continue
        jac = (table[:2, :2] * depth - np.outer([u, v], table[2, :2])) / depth**2
        sigma = float(np.linalg.svd(jac, compute_uv=False)[0])
        if sigma <= 1e-6:
            continue
        return (c, jac / sigma), sigma
    return None, tile_px
