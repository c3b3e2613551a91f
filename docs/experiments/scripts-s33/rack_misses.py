"""Where the rack tiles that do not reach a rack go, on rendered scenes (thirty-third session): for each true
rack tile, one of: in a rack; not found (the detector missed it); found but on the table while the layout
reports a rack over its own rack (a rack box found, the tile left out of it); found but on the table and no
rack reported over its rack (the rack itself missed). Tuning renders only (the hold-outs stay unseen).

    python docs/experiments/scripts-s33/rack_misses.py FOLDER...   (the shipped models)
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import numpy as np

from assistant.rules import STANDARD
from vision.confidence import NO_TILE_BELOW
from vision.detections import box_iou
from vision.evaluation.scenes import match_scene, rendered_scenes
from vision.read import read_document
from vision.reader import load_reader


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args()
    reader = load_reader()
    for folder in args.folders:
        where: Counter[str] = Counter()
        by_visible: Counter[tuple[str, str]] = Counter()
        for _, scene, frame in rendered_scenes(folder):
            detections = reader.read(frame)
            document, layout = read_document("x", frame, detections, STANDARD, None, NO_TILE_BELOW)
            matched, _ = match_scene(scene["tiles"], document["tiles"])
            found = {index: p for p, index in matched.items()}
            on_racks = {placed.index for rack in layout.racks for placed in rack}
            rack_boxes = np.asarray(detections.rack_xyxy, float).reshape(-1, 4)
            for r, (rows, box) in enumerate(zip(scene["rack_rows"], scene["rack_boxes"], strict=True)):
                visible = scene["rack_visible"][r]
                band = "cut" if visible < 0.9 else "whole"
                inside = np.clip(np.array([box], float), 0, [[frame.shape[1], frame.shape[0]] * 2])
                boxed = bool(len(rack_boxes)) and float(box_iou(inside, rack_boxes).max()) >= 0.3
                mates = [i for row in rows for i in row if i in found and found[i] in on_racks]
                for index in (i for row in rows for i in row):
                    if not scene["tiles"][index].get("labelled", True):
                        continue
                    if index not in found:
                        kind = "not found"
                    elif found[index] in on_racks:
                        kind = "in a rack"
                    elif mates:
                        kind = "on the table, rack mates in a rack"
                    elif boxed:
                        kind = "on the table, its rack boxed, no mate in a rack"
                    else:
                        kind = "on the table, its rack not boxed"
                    where[kind] += 1
                    by_visible[(band, kind)] += 1
        total = sum(where.values())
        print(folder.name, total, {k: f"{v} ({100 * v / total:.1f} %)" for k, v in where.most_common()})
        print("   ", dict(sorted(by_visible.items())))


if __name__ == "__main__":
    main()
