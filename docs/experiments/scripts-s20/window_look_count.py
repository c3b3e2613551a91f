"""How a frame's looks go (first look only, the four windows for small tiles, a faint tile's closer look) on
folders of photos or renders, and on the turns of photo game videos: how many frames each look fires on.

    python docs/experiments/scripts-s20/window_look_count.py DIR...   (DIR/images/* or DIR/game-*.mp4)
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import cv2

from vision.detector import TileDetector


def frames(folder: Path):  # type: ignore[no-untyped-def]
    images = folder / "images"
    if images.is_dir():
        for path in sorted(images.iterdir()):
            if path.suffix.lower() in (".jpg", ".png"):
                yield cv2.imread(str(path))
        return
    for game in sorted(folder.glob("game-*.json")):
        data = json.loads(game.read_text())
        capture = cv2.VideoCapture(str(game.with_suffix(".mp4")))
        for turn in data["turns"]:
            capture.set(cv2.CAP_PROP_POS_FRAMES, int(turn["time_s"] * data["fps"]))
            ok, frame = capture.read()
            if ok:
                yield frame


def main(folders: list[str]) -> None:
    detector = TileDetector(threads=1)
    for folder in folders:
        fired: Counter[str] = Counter()
        for frame in frames(Path(folder)):
            found, _, faint = detector._look(frame)
            if detector._tiles_are_small(frame, found):
                fired["windows"] += 1
            elif len(faint):
                fired["faint"] += 1
            fired["frames"] += 1
        print(f"{folder}: {dict(fired)}")


if __name__ == "__main__":
    main(sys.argv[1:])
