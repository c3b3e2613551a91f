"""Every rack box the shipped detector finds from a low floor, with its detector score and the rack check's
score (thirty-fifth session, issue 37): on photos with no rack (every box is false) and on rack renders (a
box is true where it covers a labelled rack's tiles), so that the floor and the check's bar are chosen
together.

    python docs/experiments/scripts-s35/rack_box_scores.py OUT.tsv --photos DIR... --scenes DIR... \
        [--floor 0.1]

Photos: a folder with images/, or FOLDER:SCALE for its photos resized by SCALE (no rack in any: real-dev).
Scenes: render folders (truth per scene). One row a box: set, image, detector score, check score, and for
scenes how many rack tiles have their centre inside the box (0 for photos).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.detector import TileDetector
from vision.evaluation.scenes import rendered_scenes
from vision.rack_check import load_rack_check


def rack_tile_boxes(scene: dict) -> np.ndarray:
    boxes = [tile["box"] for tile in scene.get("tiles", []) if tile.get("on_rack")]
    return np.asarray(boxes, np.float64).reshape(-1, 4)


def covered_tiles(box: np.ndarray, tiles: np.ndarray) -> int:
    """How many of the tiles have their centre inside the box."""
    if not len(tiles):
        return 0
    cx, cy = (tiles[:, 0] + tiles[:, 2]) / 2, (tiles[:, 1] + tiles[:, 3]) / 2
    return int(((cx >= box[0]) & (cx <= box[2]) & (cy >= box[1]) & (cy <= box[3])).sum())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--photos", nargs="*", default=[])
    parser.add_argument("--scenes", nargs="*", default=[])
    parser.add_argument("--floor", type=float, default=0.1)
    args = parser.parse_args()
    detector = TileDetector(rack_check=None)
    detector.rack_confidence = args.floor
    check = load_rack_check()
    rows = []

    def add(set_name: str, name: str, image: np.ndarray, rack_tiles: np.ndarray | None) -> None:
        found = detector.detect(image)
        boxes = found.rack_xyxy if found.rack_xyxy is not None else np.zeros((0, 4))
        scores = check.scores(image, boxes) if len(boxes) else []
        detector_scores = found.rack_confidence if len(boxes) else []
        for box, det_score, check_score in zip(boxes, detector_scores, scores, strict=True):
            on = covered_tiles(box, rack_tiles) if rack_tiles is not None else 0
            rows.append(f"{set_name}\t{name}\t{det_score:.3f}\t{check_score:.3f}\t{on}")

    for spec in args.photos:  # DIR or DIR:SCALE (the photo resized by SCALE first)
        folder, _, scale = spec.partition(":")
        for path in sorted((Path(folder) / "images").iterdir()):
            image = cv2.imread(str(path))
            if scale:
                image = cv2.resize(image, None, fx=float(scale), fy=float(scale),
                                   interpolation=cv2.INTER_AREA)
            add(f"{Path(folder).name}{':' + scale if scale else ''}", path.name, image, None)
    for folder in map(Path, args.scenes):
        for image_path, scene, frame in rendered_scenes(folder):
            add(folder.name, image_path.name, frame, rack_tile_boxes(scene))
    Path(args.out).write_text("set\timage\tdetector\tcheck\track_tiles_inside\n" + "\n".join(rows) + "\n")
    print(f"{len(rows)} rack boxes -> {args.out}")


if __name__ == "__main__":
    main()
