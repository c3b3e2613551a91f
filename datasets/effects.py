"""Photographic effects applied to a whole rendered frame: light, colour cast, glare, blur, noise.

All functions take and return BGR float32 images in 0-1 (values may exceed 1 before the final clip).
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.backgrounds import fractal_noise


def soft_blur(mask: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur of a float mask; wide blurs run on a downsampled copy (same look, far faster)."""
    if sigma <= 3.0:
        return cv2.GaussianBlur(mask, (0, 0), max(0.3, sigma))
    h, w = mask.shape[:2]
    factor = min(8, int(sigma / 1.5))
    small = cv2.resize(mask, (max(1, w // factor), max(1, h // factor)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / factor)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def light_falloff(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a gradient across the frame, a vignette and low-frequency variation."""
    h, w = img.shape[:2]
    # Light varies slowly: compute the gain on a grid 8x coarser and upsample it.
    sh, sw = h // 8 + 1, w // 8 + 1
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) * 8.0
    a = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * np.cos(a) + (yy - h / 2) * np.sin(a)) / max(h, w)
    gain = 1.0 + ramp * rng.uniform(0.0, 0.5)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (0.25 * (w * w + h * h))
    gain *= 1.0 - rng.uniform(0.0, 0.25) * r2
    gain *= 1.0 + 0.08 * fractal_noise(rng, sh, sw, octaves=2, base_cells=2)
    gain = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return img * gain[..., None]


def color_cast(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """White balance of warm indoor light or cold daylight, and exposure."""
    temperature = rng.normal(0.03, 0.06)  # >0 warm; indoor photos lean warm
    gains = np.array([1 - temperature, 1.0 + rng.normal(0, 0.015), 1 + temperature], np.float32)
    exposure = rng.uniform(0.82, 1.1)
    return img * (gains * exposure)


HARSH_LIGHT_CHANCE = 0.1
"""The training recipe's chance of each kind of light a phone does not correct (`harsh_light`; `python -m
datasets.render --harsh-light 0.1`): a dim room, a washed-out veil, a strong colour cast. Real-dev photos made
dim, hazy, warmer or cooler by `docs/experiments/scripts-s34/photometric.py` (47 photos, at 0.55 of their
size) lost tiles and, dim, got false racks on 13 photos (1 as they are); the renders had no such light."""


def harsh_light(img: np.ndarray, rng: np.random.Generator, chance: float = HARSH_LIGHT_CHANCE) -> np.ndarray:
    """Light a phone's automatic exposure and white balance leave in the photo: a dim room (under-exposed,
    the camera's gamma lifting the shadows less than the light), a veil of haze or glare over the whole frame
    (low contrast), or a strong cast (a tungsten bulb, a cold LED, a green fluorescent tube)."""
    dim, veil, cast = rng.random(3) < chance
    if dim:
        img = np.power(np.clip(img, 0, None), rng.uniform(1.1, 1.7)) * rng.uniform(0.35, 0.7)
    if veil:
        amount = rng.uniform(0.15, 0.45)
        level = rng.uniform(0.55, 0.95) * (1 + rng.normal(0, 0.04, 3)).astype(np.float32)
        img = img * (1 - amount) + amount * level
    if cast:
        temperature = rng.choice([-1, 1]) * rng.uniform(0.1, 0.22)
        green = rng.uniform(-0.08, 0.08)
        img = img * np.array([1 - temperature, 1 + green, 1 + temperature], np.float32)
    return img.astype(np.float32)


def hand_shadow(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The soft shadow of a hand or phone falling across part of the table."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    axes = (int(rng.uniform(0.1, 0.4) * w), int(rng.uniform(0.05, 0.2) * h))
    cv2.ellipse(mask, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 255, -1)
    soft = soft_blur(mask.astype(np.float32) / 255.0, rng.uniform(15, 45))
    return img * (1.0 - rng.uniform(0.2, 0.5) * soft)[..., None]


def glare(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lamp's reflection: a bright soft spot."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(
        mask,
        (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
        (int(rng.uniform(0.03, 0.15) * w), int(rng.uniform(0.02, 0.1) * h)),
        rng.uniform(0, 180),
        0,
        360,
        255,
        -1,
    )
    soft = soft_blur(mask.astype(np.float32) / 255.0, rng.uniform(8, 30))
    return img + rng.uniform(0.15, 0.45) * soft[..., None]


def glare_spots(
    img: np.ndarray, rng: np.random.Generator, tile_px: float, where: np.ndarray | None = None
) -> int:
    """Specular reflections on a glossy table or stone floor, in place: small bright blobs and window-like
    panes a tile or a few across, nearly white at the core (glare on stone gave false tiles), only where
    the mask `where` is set (the table's own pixels). Returns how many were drawn."""
    h, w = img.shape[:2]
    count = int(rng.integers(1, 4))
    mask = np.zeros((h, w), np.float32)
    for _ in range(count):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        size = tile_px * rng.uniform(0.4, 3.0)
        if rng.random() < 0.5:
            axes = (max(1, int(size * rng.uniform(0.3, 1.0))), max(1, int(size * rng.uniform(0.15, 0.6))))
            cv2.ellipse(mask, c, axes, rng.uniform(0, 180), 0, 360, 1.0, -1, cv2.LINE_AA)
        else:  # a window: panes split by dark bars
            pw, ph = size * rng.uniform(0.6, 1.2), size * rng.uniform(0.8, 1.6)
            cols, rows = int(rng.integers(1, 4)), int(rng.integers(1, 3))
            bar = max(1.0, size * 0.06)
            angle = np.radians(rng.uniform(-30, 30))
            rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
            for i in range(cols):
                for j in range(rows):
                    x0 = -pw / 2 + i * pw / cols + bar / 2
                    y0 = -ph / 2 + j * ph / rows + bar / 2
                    x1, y1 = x0 + pw / cols - bar, y0 + ph / rows - bar
                    quad = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) @ rot.T + np.array(c)
                    cv2.fillPoly(mask, [np.round(quad * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.8, tile_px * rng.uniform(0.02, 0.12)))
    halo = soft_blur(mask, max(2.0, tile_px * 0.5))
    gain = rng.uniform(0.5, 1.0)
    light = gain * mask + 0.25 * gain * halo
    if where is not None:
        light *= where
    img += light[..., None]
    return count


def blur(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Defocus or hand shake."""
    if rng.random() < 0.6:
        return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    length = int(rng.integers(3, 7))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    kernel /= max(1e-6, kernel.sum())
    return cv2.filter2D(img, -1, kernel)


def sensor_noise(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Luma and chroma noise, stronger in dark areas."""
    h, w = img.shape[:2]
    sigma = float(rng.uniform(0.003, 0.03))
    # OpenCV's generator (seeded from ours, so still reproducible) is several times faster than numpy's.
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
    luma = np.empty((h, w), np.float32)
    cv2.randn(luma, 0.0, sigma)
    chroma = np.empty((h // 2 + 1, w // 2 + 1, 3), np.float32)
    cv2.randn(chroma, (0.0, 0.0, 0.0), (sigma * 0.5,) * 3)
    noise = cv2.resize(chroma, (w, h))
    noise += luma[..., None]
    weight = np.clip(img, 0, 1)
    np.subtract(np.float32(1.2), weight, out=weight)
    noise *= weight
    noise += img
    return noise


def low_resolution(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A webcam's soft image: down- then upsample."""
    h, w = img.shape[:2]
    f = rng.uniform(0.45, 0.8)
    small = cv2.resize(img, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def photograph(img: np.ndarray, rng: np.random.Generator, harsh: float = 0.0) -> np.ndarray:
    """Apply a random chain of the effects above, as a phone or webcam would; `harsh`: the chance of each
    kind of `harsh_light` (0: none, and the generator is drawn from as before the thirty-fourth session, so
    every earlier seed renders as it did)."""
    img = light_falloff(img, rng)
    if rng.random() < 0.25:
        img = hand_shadow(img, rng)
    if rng.random() < 0.2:
        img = glare(img, rng)
    img = color_cast(img, rng)
    if harsh > 0:
        img = harsh_light(img, rng, harsh)
    if rng.random() < 0.1:
        img = low_resolution(img, rng)
    if rng.random() < 0.35:
        img = blur(img, rng)
    img = sensor_noise(img, rng)
    return np.clip(img, 0.0, 1.0)
