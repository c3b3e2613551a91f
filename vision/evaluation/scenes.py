"""Measure the whole reader (`rummi read`: detector, classifier, layout) on rendered scenes, per scene kind.

    python -m datasets.render --out data/holdout/texture --count 60 --seed 9101 --kind texture
    python -m vision.evaluation.scenes data/holdout/texture data/holdout/rack_front ... [--json out.json]

Per folder (one kind each, or a mix): tile recall and precision (IoU >= 0.5 against the tiles a detector is
trained to find; a detection on a barely visible tile is neither found nor false), end-to-end accuracy
(and of the tiles found, the share read with a wrong number and with a wrong colour), false tiles per
scene and the share of scenes with none, rack tiles reported in `racks`, table tiles put
on a rack, the table's valid sets kept whole and read exactly (`score_table_sets`), and the reliability
of the reported `confidence` (of tiles reported with confidence about c, the share read right).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from assistant.rules import STANDARD
from assistant.sets import is_valid_set
from assistant.tiles import Tile
from vision.confidence import NO_TILE_BELOW, ConfidenceMap
from vision.detections import box_iou
from vision.evaluation.reading import Counts, match_boxes, share
from vision.read import read_document
from vision.reader import TileReader

RELIABILITY_BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0001)
TOUCHES_A_TILE = 0.3
"""A detection overlapping any placed tile this much (IoU) is not a false tile, even when that tile is too
hidden to be labelled."""


@dataclass
class KindScores(Counts):
    scenes: int = 0
    tiles: int = 0
    found: int = 0
    right: int = 0
    false_tiles: int = 0
    clean_scenes: int = 0
    rack_tiles: int = 0
    rack_tiles_in_racks: int = 0
    table_tiles: int = 0
    table_tiles_in_racks: int = 0
    racks_read: int = 0
    racks_in_owner_order: int = 0
    rack_pairs: int = 0
    rack_pairs_in_order: int = 0
    number_wrong: int = 0
    colour_wrong: int = 0
    table_sets: int = 0
    table_sets_whole: int = 0
    table_sets_exact: int = 0
    reported: list[tuple[float, bool]] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        return {
            "scenes": self.scenes,
            "tiles": self.tiles,
            "recall": share(self.found, self.tiles),
            "precision": share(self.found, self.found + self.false_tiles),
            "end_to_end": share(self.right, self.tiles),
            "found_number_wrong": share(self.number_wrong, self.found),
            "found_colour_wrong": share(self.colour_wrong, self.found),
            "false_tiles_per_scene": share(self.false_tiles, self.scenes),
            "scenes_without_false_tiles": share(self.clean_scenes, self.scenes),
            "rack_tiles": self.rack_tiles,
            "rack_tiles_in_racks": share(self.rack_tiles_in_racks, self.rack_tiles),
            "table_tiles_put_on_racks": share(self.table_tiles_in_racks, self.table_tiles),
            "racks_in_owner_order": share(self.racks_in_owner_order, self.racks_read),
            "rack_pairs_in_order": share(self.rack_pairs_in_order, self.rack_pairs),
            "table_sets": self.table_sets,
            "table_sets_whole": share(self.table_sets_whole, self.table_sets),
            "table_sets_exact": share(self.table_sets_exact, self.table_sets),
        }


def reliability(pairs: list[tuple[float, bool]]) -> list[dict[str, Any]]:
    """Rows of the reliability table: confidence range, tiles, their mean confidence, the share right."""
    rows = []
    confidences = np.array([c for c, _ in pairs], float)
    rights = np.array([r for _, r in pairs], bool)
    for low, high in zip(RELIABILITY_BINS[:-1], RELIABILITY_BINS[1:], strict=True):
        inside = (confidences >= low) & (confidences < high)
        if inside.any():
            rows.append({
                "range": f"{low:.2f}-{min(high, 1.0):.2f}",
                "tiles": int(inside.sum()),
                "mean_confidence": round(float(confidences[inside].mean()), 4),
                "share_right": round(float(rights[inside].mean()), 4),
            })
    return rows


def match_scene(
    tiles: list[dict[str, Any]], reported: list[dict[str, Any]]
) -> tuple[dict[int, int], list[int]]:
    """A scene's reported tiles against its truth's `tiles`: the matched ones (reported index -> index in
    `tiles`, labelled tiles only) and the false ones (matched to none and touching no placed tile either,
    `TOUCHES_A_TILE`)."""
    labelled = [i for i, t in enumerate(tiles) if t.get("labelled", True)]
    true_boxes = np.array([tiles[i]["box"] for i in labelled], float).reshape(-1, 4)
    all_boxes = np.array([t["box"] for t in tiles], float).reshape(-1, 4)
    boxes = np.array([t["box"] for t in reported], float).reshape(-1, 4)
    matched = {p: labelled[t] for p, t in match_boxes(boxes, true_boxes)}
    touching = np.zeros(len(boxes))
    if len(all_boxes) and len(boxes):
        touching = box_iou(boxes, all_boxes).max(axis=1)
    false = [p for p in range(len(reported)) if p not in matched and touching[p] < TOUCHES_A_TILE]
    return matched, false


def misread_parts(truth: str, read: str) -> tuple[bool, bool]:
    """Of a tile read wrong: (the number wrong, the colour wrong). A joker has no number and no colour: taken
    for a numbered tile or the other way round, both are wrong (issue 37: number and colour read apart)."""
    true_tile, read_tile = Tile.parse(truth), Tile.parse(read)
    if true_tile.is_joker or read_tile.is_joker:
        return True, True
    return true_tile.number != read_tile.number, true_tile.color != read_tile.color


def score_scene(scores: KindScores, scene: dict[str, Any], document: dict[str, Any], layout: Any) -> None:
    """Add one scene's reading to `scores`."""
    tiles = scene["tiles"]
    labelled = [i for i, t in enumerate(tiles) if t.get("labelled", True)]
    reported = document["tiles"]
    matched, false = match_scene(tiles, reported)
    scores.scenes += 1
    scores.tiles += len(labelled)
    scores.found += len(matched)
    scores.false_tiles += len(false)
    scores.clean_scenes += int(not false)
    on_racks = {placed.index for rack in layout.racks for placed in rack}
    for p, item in enumerate(reported):
        truth = tiles[matched[p]]["token"] if p in matched else None
        right = truth is not None and item["tile"] == truth
        scores.right += int(right)
        if truth is not None and not right:
            number_wrong, colour_wrong = misread_parts(truth, item["tile"])
            scores.number_wrong += int(number_wrong)
            scores.colour_wrong += int(colour_wrong)
        if p in matched or p in false:
            scores.reported.append((float(item["confidence"]), right))
    for p, index in matched.items():
        if tiles[index].get("on_rack"):
            scores.rack_tiles += 1
            scores.rack_tiles_in_racks += int(p in on_racks)
        else:
            scores.table_tiles += 1
            scores.table_tiles_in_racks += int(p in on_racks)
    # Rack tiles the detector missed count against racks too.
    missed_on_racks = [i for i in labelled if tiles[i].get("on_rack") and i not in matched.values()]
    scores.rack_tiles += len(missed_on_racks)
    score_rack_order(scores, scene, layout, matched)
    score_table_sets(scores, scene, document, layout, matched)


def score_table_sets(
    scores: KindScores, scene: dict[str, Any], document: dict[str, Any], layout: Any, matched: dict[int, int]
) -> None:
    """The scene's true table sets the rules accept (rows of loose tiles laid tight are no set): each kept
    whole (every tile found, and one set of the layout's table holding exactly them) and read exactly (also
    every tile read right). Issue 36: tiles touching in a row are one set, whatever their faces."""
    tiles = scene["tiles"]
    set_of = {placed.index: k for k, placed_tiles in enumerate(layout.table) for placed in placed_tiles}
    found_as = {index: p for p, index in matched.items()}
    for true_set in scene.get("sets", []):
        members = [tiles[i] for i in true_set]
        if any(m.get("on_rack") or not m.get("labelled", True) for m in members):
            continue
        if not is_valid_set([Tile.parse(m["token"]) for m in members], STANDARD):
            continue
        scores.table_sets += 1
        places = {set_of.get(found_as.get(i, -1)) for i in true_set}
        if len(places) != 1 or None in places or len(layout.table[places.pop()]) != len(true_set):
            continue
        scores.table_sets_whole += 1
        read = [document["tiles"][found_as[i]]["tile"] for i in true_set]
        scores.table_sets_exact += read == [tiles[i]["token"] for i in true_set]


def owner_places(scene: dict[str, Any], layout: Any, matched: dict[int, int]) -> list[list[int]]:
    """For each rack the layout reports, the places of the true rack tiles it holds in their owner's order
    on their own rack (the scene's `rack_rows`: upper tier, then lower, each left to right), as read."""
    place = {index: k for rows in scene.get("rack_rows", []) for k, index in
             enumerate(i for row in rows for i in row)}
    return [[place[matched[t.index]] for t in rack if t.index in matched and matched[t.index] in place]
            for rack in layout.racks]


def score_rack_order(scores: KindScores, scene: dict[str, Any], layout: Any, matched: dict[int, int]) -> None:
    """How each rack the layout reports orders the rack tiles it holds, against the owner's order
    (`owner_places`): racks of at least two such tiles in that order, and pairs of them in order."""
    for places in owner_places(scene, layout, matched):
        if len(places) < 2:
            continue
        scores.racks_read += 1
        scores.racks_in_owner_order += int(places == sorted(places))
        scores.rack_pairs += len(places) * (len(places) - 1) // 2
        scores.rack_pairs_in_order += sum(a < b for k, a in enumerate(places) for b in places[k + 1 :])


def rendered_scenes(
    folder: Path, limit: int | None = None
) -> Iterator[tuple[Path, dict[str, Any], np.ndarray]]:
    """(image path, truth, frame) of each scene of a render folder (the first `limit`).

    Raises:
        SystemExit: the folder has no scenes, or an image cannot be read.
    """
    scene_files = sorted((folder / "scenes").glob("*.json"))[:limit]
    if not scene_files:
        raise SystemExit(f"no scenes/*.json under {folder}")
    for scene_file in scene_files:
        image_path = folder / "images" / f"{scene_file.stem}.jpg"
        frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if frame is None:
            raise SystemExit(f"cannot read {image_path}")
        yield image_path, json.loads(scene_file.read_text()), frame


def evaluate_folder(
    folder: Path, reader: TileReader, limit: int | None = None, confidence_map: ConfidenceMap | None = None
) -> KindScores:
    scores = KindScores()
    for image_path, scene, frame in rendered_scenes(folder, limit):
        detections = reader.read(frame)
        # Fitting a map (`confidence_map` given) sees every tile, also those the shipped floor leaves out.
        floor = 0.0 if confidence_map is not None else NO_TILE_BELOW
        document, layout = read_document(str(image_path), frame, detections, STANDARD, confidence_map, floor)
        score_scene(scores, scene, document, layout)
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.evaluation.scenes", description=__doc__.splitlines()[0]
    )
    parser.add_argument("folders", nargs="+", type=Path, help="renderer output folders")
    parser.add_argument("--limit", type=int, default=None, help="first N scenes of each folder")
    parser.add_argument("--rack-conf", type=float, default=None,
                        help="keep racks from this score (default: vision.detector.DEFAULT_RACK_CONFIDENCE)")
    parser.add_argument("--detector", type=Path, default=None)
    parser.add_argument(
        "--one-look", action="store_true",
        help="one forward pass a frame: the detector's extra looks at racks off (TileDetector extra_looks)",
    )
    parser.add_argument("--classifier", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--fit-confidence",
        type=Path,
        default=None,
        metavar="JSON",
        help="fit the confidence map on these scenes' raw scores and write it here (tuning scenes only)",
    )
    args = parser.parse_args(argv)
    from vision.classifier import TileClassifier
    from vision.detector import TileDetector
    from vision.reader import load_classifier

    reader = TileReader(
        TileDetector(args.detector, extra_looks=not args.one_look),
        TileClassifier(args.classifier) if args.classifier else load_classifier(),
    )
    if args.rack_conf is not None:
        reader.detector.rack_confidence = args.rack_conf
    report: dict[str, Any] = {}
    everything = KindScores()
    for folder in args.folders:
        scores = evaluate_folder(folder, reader, args.limit, ConfidenceMap() if args.fit_confidence else None)
        report[folder.name] = scores.figures()
        everything.add(scores)
    report["all"] = everything.figures()
    report["reliability"] = reliability(everything.reported)
    columns = ["scenes", "tiles", "recall", "precision", "end_to_end", "found_number_wrong",
               "found_colour_wrong", "false_tiles_per_scene",
               "scenes_without_false_tiles", "rack_tiles", "rack_tiles_in_racks", "table_tiles_put_on_racks",
               "racks_in_owner_order", "rack_pairs_in_order", "table_sets", "table_sets_whole",
               "table_sets_exact"]
    names = [n for n in report if n != "reliability"]
    print(f"{'':28}" + "".join(f"{n[:14]:>15}" for n in names))
    for column in columns:
        cells = ["-" if report[n][column] is None else str(report[n][column]) for n in names]
        print(f"{column:28}" + "".join(f"{c:>15}" for c in cells))
    print("\nreliability of `confidence` (all folders): range, tiles, mean confidence, share right")
    for row in report["reliability"]:
        print(f"  {row['range']:>10} {row['tiles']:>7} {row['mean_confidence']:>8} {row['share_right']:>8}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    if args.fit_confidence:
        raw = np.array([c for c, _ in everything.reported])
        right = np.array([r for _, r in everything.reported])
        fitted = ConfidenceMap.fit(raw, right)
        args.fit_confidence.write_text(json.dumps(fitted.to_json(), indent=1) + "\n")
        print(f"confidence map fitted on {len(raw)} reported tiles -> {args.fit_confidence}")
        print("reliability after the map (same scenes):")
        for row in reliability([(float(fitted(c)), r) for c, r in everything.reported]):
            print(f"  {row['range']:>10} {row['tiles']:>7} {row['mean_confidence']:>8} "
                  f"{row['share_right']:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
