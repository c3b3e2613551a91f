"""Things on a game table that are not tiles: hands, playing cards, cups, score pads, pens, coins.

Each draws itself into the frame (BGR float32 0-1) and into the owner map with `OCCLUDER`, so tiles it
covers lose visible area.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.effects import soft_blur

OCCLUDER = -2


def _fill(img: np.ndarray, owner: np.ndarray, poly: np.ndarray, color: np.ndarray) -> None:
    pts = [np.round(poly * 4).astype(np.int32)]
    cv2.fillPoly(img, pts, color.tolist(), cv2.LINE_AA, shift=2)
    cv2.fillPoly(owner, pts, OCCLUDER, cv2.LINE_8, shift=2)


def _shadow(img: np.ndarray, poly: np.ndarray, offset: np.ndarray, blur: float) -> None:
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly + offset).astype(np.int32)], 255)
    soft = soft_blur(mask.astype(np.float32) / 255.0, max(1.0, blur))
    img *= (1.0 - 0.35 * soft)[..., None]


def _rect(center: np.ndarray, w: float, h: float, deg: float) -> np.ndarray:
    r = np.radians(deg)
    rot = np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return pts @ rot.T + center


def card(img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float) -> None:
    h, w = img.shape[:2]
    c = rng.uniform([0, 0], [w, h])
    poly = _rect(c, scale * 1.6, scale * 2.3, rng.uniform(0, 360))
    _shadow(img, poly, np.array([scale * 0.05, scale * 0.08]), scale * 0.08)
    _fill(img, owner, poly, np.array([0.93, 0.94, 0.95]) * rng.uniform(0.85, 1.0))
    ink = np.array([0.15, 0.1, 0.75]) if rng.random() < 0.5 else np.array([0.1, 0.1, 0.1])
    for _ in range(int(rng.integers(1, 4))):
        p = c + rng.normal(0, scale * 0.35, 2)
        cv2.circle(img, (int(p[0]), int(p[1])), max(2, int(scale * 0.15)), ink.tolist(), -1, cv2.LINE_AA)


def cup(img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float) -> None:
    h, w = img.shape[:2]
    c = rng.uniform([0, 0], [w, h])
    r = scale * rng.uniform(1.6, 2.6)
    outer = cv2.ellipse2Poly(
        (int(c[0]), int(c[1])),
        (int(r), int(r * rng.uniform(0.75, 1.0))),
        int(rng.uniform(0, 180)),
        0,
        360,
        10,
    ).astype(np.float64)
    body = np.array([rng.uniform(0.2, 0.95)] * 3) * rng.uniform(0.85, 1.0, 3)
    _shadow(img, outer, np.array([r * 0.15, r * 0.2]), r * 0.2)
    _fill(img, owner, outer, body)
    inner = (outer - c) * 0.82 + c
    drink = np.array([0.05, 0.12, 0.2]) * rng.uniform(0.5, 1.5)
    cv2.fillPoly(img, [np.round(inner).astype(np.int32)], drink.tolist(), cv2.LINE_AA)


def score_pad(img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float) -> None:
    h, w = img.shape[:2]
    c = rng.uniform([0, 0], [w, h])
    deg = rng.uniform(0, 360)
    pw, ph = scale * rng.uniform(3, 5), scale * rng.uniform(4, 6)
    poly = _rect(c, pw, ph, deg)
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


def pen(img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float) -> None:
    h, w = img.shape[:2]
    c = rng.uniform([0, 0], [w, h])
    poly = _rect(c, scale * 4, scale * 0.25, rng.uniform(0, 360))
    _fill(img, owner, poly, rng.uniform(0.05, 0.8, 3))


def coin(img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float) -> None:
    h, w = img.shape[:2]
    c = rng.uniform([0, 0], [w, h])
    r = scale * rng.uniform(0.35, 0.6)
    poly = cv2.ellipse2Poly((int(c[0]), int(c[1])), (int(r), int(r)), 0, 0, 360, 15).astype(np.float64)
    color = np.array([0.35, 0.6, 0.75]) if rng.random() < 0.5 else np.array([0.6, 0.62, 0.65])
    _fill(img, owner, poly, color * rng.uniform(0.7, 1.1))


def hand(img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, scale: float) -> None:
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


_KINDS = (card, cup, score_pad, pen, coin, hand)
_WEIGHTS = np.array([0.2, 0.15, 0.15, 0.15, 0.15, 0.2])


def add_distractors(
    img: np.ndarray, owner: np.ndarray, rng: np.random.Generator, tile_px: float, count: int
) -> None:
    """Draw `count` random distractors sized relative to a tile's height in pixels."""
    for _ in range(count):
        kind = _KINDS[int(rng.choice(len(_KINDS), p=_WEIGHTS / _WEIGHTS.sum()))]
        kind(img, owner, rng, max(8.0, tile_px * rng.uniform(0.8, 1.3)))
