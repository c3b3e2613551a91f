"""Where to draw the lines of `vision.confidence`: below what calibrated confidence a reported tile is surely
no tile (left out), and below what it is doubtful (reported, marked, counted apart).

    python -m vision.evaluation.doubt --scenes RENDER_FOLDERS... --real-dev ../shared/real-dev \\
        --real-racks ../shared/real-racks [--thresholds 0.1 0.2 0.3 ...] [--json out.json]

Every tile the reader reports (with the floor off) is sorted into right (found and read as labelled),
misread (found, read otherwise) or false (no labelled tile under it; on renders, none it even touches).
For each threshold t: how many of each lie under t, so that (a floor) dropping what lies under t costs
`right + misread` real tiles and clears `false` false ones, and (a doubt line) marking it flags
`misread + false` errors among `right` good readings.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

THRESHOLDS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def scene_statuses(folder: Path, reader: Any) -> Iterable[tuple[float, str]]:
    """(confidence, status) of each tile the reader reports on a render folder."""
    from assistant.rules import STANDARD
    from vision.evaluation.scenes import match_scene, rendered_scenes
    from vision.read import read_document

    for image_path, scene, frame in rendered_scenes(folder):
        document, _ = read_document(image_path.stem, frame, reader.read(frame), STANDARD, floor=0.0)
        tiles = scene["tiles"]
        matched, false = match_scene(tiles, document["tiles"])
        for p, item in enumerate(document["tiles"]):
            if p in matched:
                right = item["tile"] == tiles[matched[p]]["token"]
                yield item["confidence"], "right" if right else "misread"
            elif p in false:
                yield item["confidence"], "false"


def photo_statuses(folder: Path, reader: Any, fix_known_errors: bool = True) -> Iterable[tuple[float, str]]:
    """(confidence, status) of each tile the reader reports on labelled real photos."""
    from assistant.rules import STANDARD
    from vision.evaluation.reading import image_files, labelled_photos, match_boxes
    from vision.evaluation.real_racks import token_of
    from vision.read import read_document

    photos = image_files(folder / "images")
    for photo, frame, truth, ids in labelled_photos(photos, folder / "labels", folder / "data.yaml",
                                                    fix_known_errors):
        document, _ = read_document(photo.name, frame, reader.read(frame), STANDARD, floor=0.0)
        boxes = np.array([t["box"] for t in document["tiles"]], float).reshape(-1, 4)
        matched = dict(match_boxes(boxes, truth))
        for p, item in enumerate(document["tiles"]):
            if p in matched:
                right = item["tile"] == token_of(int(ids[matched[p]]))
                yield item["confidence"], "right" if right else "misread"
            else:
                yield item["confidence"], "false"


def table(statuses: list[tuple[float, str]], thresholds: Iterable[float]) -> list[dict[str, Any]]:
    confidences = np.array([c for c, _ in statuses], float)
    kinds = np.array([s for _, s in statuses])
    rows = []
    for t in thresholds:
        under = confidences < t
        counts = {k: int((under & (kinds == k)).sum()) for k in ("right", "misread", "false")}
        rows.append({"under": t, **counts})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.evaluation.doubt", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--scenes", nargs="*", type=Path, default=[], help="renderer output folders")
    parser.add_argument("--real-dev", type=Path, default=None)
    parser.add_argument("--real-racks", type=Path, default=None)
    parser.add_argument("--detector", type=Path, default=None)
    parser.add_argument("--thresholds", nargs="*", type=float, default=list(THRESHOLDS))
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    from vision.detector import TileDetector
    from vision.reader import TileReader

    reader = TileReader(detector=TileDetector(args.detector) if args.detector else None)
    sets: dict[str, list[tuple[float, str]]] = {}
    if args.scenes:
        sets["renders"] = [s for folder in args.scenes for s in scene_statuses(folder, reader)]
    if args.real_dev:
        sets["real-dev"] = list(photo_statuses(args.real_dev, reader))
    if args.real_racks:
        sets["real-racks"] = list(photo_statuses(args.real_racks, reader, fix_known_errors=False))
    report = {}
    for name, statuses in sets.items():
        counts = {k: sum(s == k for _, s in statuses) for k in ("right", "misread", "false")}
        print(f"{name}: {len(statuses)} reported tiles, {counts}")
        print(f"  {'under':>6} {'right':>7} {'misread':>8} {'false':>6}")
        rows = table(statuses, args.thresholds)
        for row in rows:
            print(f"  {row['under']:>6} {row['right']:>7} {row['misread']:>8} {row['false']:>6}")
        report[name] = {"totals": counts, "under": rows}
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
