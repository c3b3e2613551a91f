"""Why a true rack gets no rack box (thirty-third session): for each rack of a rendered scene that the shipped
reader boxes nowhere (no reported rack box overlapping its part inside the frame 0.3), the best raw rack box
the detector gives with no rack check and a floor of 0.05 (its IoU with the true rack, its score, the rack
check's score on it), counted in the rack's labelled tiles. Tuning renders only.

    python docs/experiments/scripts-s33/unboxed_racks.py FOLDER...
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

from vision.detections import box_iou
from vision.evaluation.scenes import rendered_scenes
from vision.rack_check import load_rack_check
from vision.reader import load_reader


def main() -> None:
    reader = load_reader()
    check = load_rack_check()
    assert check is not None
    for folder in map(Path, sys.argv[1:]):
        why: Counter[str] = Counter()
        lines = []
        for path, scene, frame in rendered_scenes(folder):
            detector = reader.detector
            detector.rack_check, floor = check, detector.rack_confidence
            shipped = np.asarray(reader.read(frame).rack_xyxy, float).reshape(-1, 4)
            detector.rack_check, detector.rack_confidence = None, 0.05
            raw = reader.read(frame)
            detector.rack_check, detector.rack_confidence = check, floor
            boxes = np.asarray(raw.rack_xyxy, float).reshape(-1, 4)
            scores = np.asarray(raw.rack_confidence, float).reshape(-1)
            for r, box in enumerate(scene["rack_boxes"]):
                tiles = sum(scene["tiles"][i].get("labelled", True)
                            for row in scene["rack_rows"][r] for i in row)
                if not tiles:
                    continue
                true = np.clip(np.array([box], float), 0, [[frame.shape[1], frame.shape[0]] * 2])
                if len(shipped) and box_iou(true, shipped).max() >= 0.3:
                    continue
                if not len(boxes) or box_iou(true, boxes).max() < 0.3:
                    why["no raw box"] += tiles
                    lines.append(f"{path.name} rack {r} ({tiles} tiles, visible "
                                 f"{scene['rack_visible'][r]}): no raw box")
                    continue
                best = int(box_iou(true, boxes)[0].argmax())
                checked = float(check.scores(frame, boxes[best : best + 1])[0])
                kind = ("under the rack floor" if scores[best] < floor else
                        "the rack check said no" if checked < check.threshold else "boxed, lost later")
                why[kind] += tiles
                lines.append(f"{path.name} rack {r} ({tiles} tiles, visible {scene['rack_visible'][r]}): "
                             f"raw {scores[best]:.2f} iou {box_iou(true, boxes)[0, best]:.2f} "
                             f"check {checked:.2f}")
        print(folder.name, dict(why))
        print("\n".join("    " + line for line in lines))


if __name__ == "__main__":
    main()
