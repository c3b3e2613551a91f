"""Each frame of a game video from T0 to T1 seconds read by the shipped reader: the tiles whose middle lies
between X1 and X2 (pixels), with the detector's score and the reading. Shows whether a tile the referee left
out was found at all, and how its box lay (photo game zoom18 3221-p3: a red 2 boxed off its place).

    python docs/experiments/scripts-s21/frame_reads.py GAME.mp4 T0 T1 X1 X2
"""

from __future__ import annotations

import sys

import cv2

from vision.classifier import CLASS_NAMES
from vision.reader import load_reader


def main(video: str, start_s: float, end_s: float, left: float, right: float) -> None:
    capture = cv2.VideoCapture(video)
    fps = capture.get(cv2.CAP_PROP_FPS)
    reader = load_reader()
    index = int(start_s * fps)
    capture.set(cv2.CAP_PROP_POS_FRAMES, index)
    while index <= end_s * fps:
        ok, frame = capture.read()
        index += 1
        if not ok:
            break
        found = reader.read(frame)
        tiles = sorted(
            (int(box[0]), int(box[2]), round(float(score), 2), CLASS_NAMES[ids[0]])
            for box, score, ids in zip(found.xyxy, found.confidence, found.topk_class_ids, strict=True)
            if left <= (box[0] + box[2]) / 2 <= right
        )
        print(f"{index / fps:5.1f} s, {len(found)} tiles:", tiles)


if __name__ == "__main__":
    main(sys.argv[1], *(float(value) for value in sys.argv[2:6]))
