"""Measure calibration (`rummi calibrate`) on rendered tables (`vision.evaluation.tables`): per table, the
reader's figures on the game photos without a profile, with one learned from the empty photo, and with one
learned from the empty and the calibration photo.

    python -m vision.evaluation.tables --out data/tables --tables 8 --photos 8 --seed 5
    python -m vision.evaluation.calibration data/tables [--detector D.onnx --classifier C.onnx] \
        [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2

from vision.calibration import STANDARD_LAYOUT, CalibrationError, calibrate, calibrate_photos
from vision.evaluation.scenes import KindScores, evaluate_folder
from vision.reader import TileReader

MODES = ("none", "empty", "empty+tiles")
SUMMED = ("scenes", "tiles", "found", "right", "false_tiles", "clean_scenes", "rack_tiles",
          "rack_tiles_in_racks", "table_tiles", "table_tiles_in_racks")


def evaluate_tables(root: Path, reader: TileReader, limit: int | None = None) -> dict[str, Any]:
    totals = {mode: KindScores() for mode in MODES}
    # Without a profile on the tables where each mode could be measured (a refused calibration photo
    # leaves a table out of "empty+tiles"): the fair comparison for that mode.
    plain_alike = {mode: KindScores() for mode in MODES}
    report: dict[str, Any] = {"tables": {}}
    for folder in sorted(p for p in root.iterdir() if (p / "empty.jpg").is_file()):
        empty = cv2.imread(str(folder / "empty.jpg"), cv2.IMREAD_COLOR)
        tiles_photo = cv2.imread(str(folder / "calibration.jpg"), cv2.IMREAD_COLOR)
        reader.use_profile(None)
        started = time.perf_counter()
        profiles: dict[str, Any] = {"none": None, "empty": calibrate(reader, [empty])}
        seconds = {"empty": time.perf_counter() - started}
        started = time.perf_counter()
        try:
            profiles["empty+tiles"] = calibrate_photos(reader, [empty], [(tiles_photo, STANDARD_LAYOUT)])
        except CalibrationError as error:
            profiles["empty+tiles"] = None
            print(f"{folder.name}: calibration photo refused: {error}", flush=True)
        seconds["empty+tiles"] = time.perf_counter() - started
        entry: dict[str, Any] = {"surface": json.loads((folder / "table.json").read_text())["surface"]}
        plain = KindScores()
        for mode in MODES:
            if mode != "none" and profiles[mode] is None:
                continue
            reader.use_profile(profiles[mode])
            scores = evaluate_folder(folder, reader, limit)
            plain = scores if mode == "none" else plain
            for name in SUMMED:
                setattr(plain_alike[mode], name, getattr(plain_alike[mode], name) + getattr(plain, name))
            entry[mode] = scores.figures()
            if profiles[mode] is not None:
                entry[mode]["calibration_s"] = round(seconds[mode], 2)
                entry[mode]["profile"] = {k: v for k, v in profiles[mode].to_json().items()
                                          if k in ("false_radius", "min_score", "map_inks", "notes")}
            for name in SUMMED:
                setattr(totals[mode], name, getattr(totals[mode], name) + getattr(scores, name))
        reader.use_profile(None)
        report["tables"][folder.name] = entry
        line = " | ".join(
            f"{mode}: R {entry[mode]['recall']} P {entry[mode]['precision']} acc {entry[mode]['end_to_end']} "
            f"false/photo {entry[mode]['false_tiles_per_scene']}" for mode in MODES if mode in entry
        )
        print(f"{folder.name} ({entry['surface']}): {line}", flush=True)
    report["all"] = {mode: totals[mode].figures() for mode in MODES}
    report["without_profile_on_the_same_tables"] = {mode: plain_alike[mode].figures() for mode in MODES}
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.evaluation.calibration", description=__doc__.splitlines()[0]
    )
    parser.add_argument("root", type=Path, help="folder of tables written by vision.evaluation.tables")
    parser.add_argument("--limit", type=int, default=None, help="first N game photos of each table")
    parser.add_argument("--detector", type=Path, default=None)
    parser.add_argument("--classifier", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    from vision.classifier import TileClassifier
    from vision.detector import TileDetector

    reader = TileReader(  # without --classifier: the classifiers `rummi read` loads
        TileDetector(args.detector) if args.detector else None,
        **({"classifier": TileClassifier(args.classifier)} if args.classifier else {}),
    )
    report = evaluate_tables(args.root, reader, args.limit)
    for mode in MODES:
        figures = report["all"][mode]
        print(f"all, {mode:12}: recall {figures['recall']} precision {figures['precision']} "
              f"end-to-end {figures['end_to_end']} false tiles/photo {figures['false_tiles_per_scene']} "
              f"photos without false tiles {figures['scenes_without_false_tiles']}")
        plain = report["without_profile_on_the_same_tables"][mode]
        if mode != "none" and plain["scenes"] != report["all"]["none"]["scenes"]:
            print(f"     {'':12}  without a profile on the same {plain['scenes']} photos: recall "
                  f"{plain['recall']} precision {plain['precision']} end-to-end {plain['end_to_end']} "
                  f"false tiles/photo {plain['false_tiles_per_scene']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
