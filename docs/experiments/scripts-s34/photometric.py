"""Real photos under other light and optics (thirty-fourth session, issue 37: "it must work on anyone's
table"): each photo of a labelled folder written again warmer, cooler, dimmer, hazier, blurred, noisier, so
the reader can be measured on each (`python -m vision.evaluation.reading --images OUT/NAME/images --labels
OUT/NAME/labels`). The labels do not change (YOLO labels are in shares of the photo's size), so they are
linked; SCALE (default 1) writes each photo that much smaller too (area resize), as a camera further away
takes it.

    .venv/bin/python docs/experiments/scripts-s34/photometric.py PHOTOS LABELS OUT [SCALE]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np


def _gains(blue: float, green: float, red: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda image: np.clip(image * np.array([blue, green, red]), 0, 255)


def _dim(image: np.ndarray) -> np.ndarray:  # a dim room: darker, gamma, sensor noise lifted by the camera
    dark = 255 * (image / 255) ** 1.6 * 0.55
    return dark + np.random.default_rng(0).normal(0, 4, image.shape)


def _blur(image: np.ndarray) -> np.ndarray:  # out of focus by about a tenth of a tile's width
    sigma = max(image.shape[:2]) / 600
    return cv2.GaussianBlur(image, (0, 0), sigma)


def _haze(image: np.ndarray) -> np.ndarray:  # glare or a washed-out phone photo
    return image * 0.6 + 95


def _noise(image: np.ndarray) -> np.ndarray:
    return image + np.random.default_rng(1).normal(0, 10, image.shape)


TRANSFORMS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "warm": _gains(0.7, 0.95, 1.15),  # tungsten bulb
    "cool": _gains(1.15, 1.0, 0.8),  # shade, cold LED
    "dim": _dim,
    "blur": _blur,
    "haze": _haze,
    "noise": _noise,
}


def main(photos: Path, labels: Path, out: Path, scale: float = 1.0) -> None:
    for name, transform in TRANSFORMS.items():
        (out / name / "images").mkdir(parents=True, exist_ok=True)
        link = out / name / "labels"
        if not link.exists():
            link.symlink_to(labels.resolve())
        data_yaml = labels.parent / "data.yaml"
        if data_yaml.exists() and not (out / name / "data.yaml").exists():
            (out / name / "data.yaml").symlink_to(data_yaml.resolve())
        for photo in sorted(photos.iterdir()):
            image = cv2.imread(str(photo))
            if image is None:
                continue
            if scale != 1.0:
                size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
                image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
            changed = np.clip(transform(image.astype(np.float32)), 0, 255).astype(np.uint8)
            cv2.imwrite(str(out / name / "images" / (photo.stem + ".png")), changed)


if __name__ == "__main__":
    scale = float(sys.argv[4]) if len(sys.argv) > 4 else 1.0
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), scale)
