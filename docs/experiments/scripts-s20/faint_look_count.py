"""How often the faint-tile look fires (forward passes it adds) on folders of photos or renders.

    python docs/experiments/scripts-s20/faint_look_count.py DIR...   (DIR/images/*.jpg|png)
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from vision.detections import Detections
from vision.detector import TileDetector


class Counting(TileDetector):
    """The shipped detector, counting the forward passes its faint-tile looks make."""

    looks = 0

    def _with_faint_looks(self, image: np.ndarray, found: Detections, faint: np.ndarray,
                          confidence: float | None) -> Detections:
        self.counting = True
        try:
            return super()._with_faint_looks(image, found, faint, confidence)
        finally:
            self.counting = False

    def detect_once(self, image: np.ndarray, confidence: float | None = None) -> Detections:
        self.looks += int(getattr(self, "counting", False))
        return super().detect_once(image, confidence)


def main(folders: list[str]) -> None:
    detector = Counting(threads=1)
    for folder in folders:
        images = sorted(p for p in (Path(folder) / "images").iterdir()
                        if p.suffix.lower() in (".jpg", ".png"))
        firing, detector.looks = [], 0
        for path in images:
            before = detector.looks
            detector.detect(cv2.imread(str(path)))
            if detector.looks > before:
                firing.append(path.name)
        print(f"{folder}: {len(images)} frames, the look fired on {len(firing)}, {detector.looks} passes "
              f"({detector.looks / max(len(images), 1):.2f} a frame); fired on: {' '.join(firing[:8])}")


if __name__ == "__main__":
    main(sys.argv[1:])
