"""Measure the whole reader (`rummi read`) on real photos of racks with their owner's order.

    python -m vision.evaluation.real_racks ../shared/real-racks [--detector D.onnx] [--only PREFIX ...]
        [--errors] [--json out.json]

The folder holds `images/`, `labels/` (YOLO tile labels, polygons or boxes, in `data.yaml`'s class order)
and `racks.json`: for each photo, each rack's tiles in the owner's order (top tier left to right, then the
bottom tier) with the 0-based label lines of those tiles. Reports, over all photos:

- tiles right: labelled tiles found (IoU >= 0.5) and read as labelled, over all labelled tiles;
- false tiles: reported tiles matching no labelled tile (the logo half of a tile standing on a rack, ...);
- rack tiles in their rack: a labelled rack's tiles reported in the one reported rack holding most of them;
- racks found: labelled racks whose reported rack holds at least half of their tiles;
- racks in order: found racks whose tiles (those found) stand in the owner's order;
- racks read exactly: found racks reported as exactly the labelled tokens in the labelled order;
- false racks: reported racks holding no labelled rack's tiles (or beaten by another for the same rack);
- doubtful tiles: reported tiles marked `doubtful`, and how many of them were read wrong or false.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assistant.tiles import CLASS_NAMES, tile_from_class_name
from vision.evaluation.reading import Counts, image_files, labelled_photos, match_boxes, share


@dataclass
class RackScores(Counts):
    photos: int = 0
    tiles: int = 0
    found: int = 0
    right: int = 0
    false_tiles: int = 0
    rack_tiles: int = 0
    rack_tiles_in_their_rack: int = 0
    racks: int = 0
    racks_found: int = 0
    racks_in_order: int = 0
    racks_read_exactly: int = 0
    false_racks: int = 0
    doubtful: int = 0
    doubtful_wrong: int = 0
    sure_wrong: int = 0

    def figures(self) -> dict[str, Any]:
        return {
            "photos": self.photos,
            "tiles": self.tiles,
            "recall": share(self.found, self.tiles),
            "tiles_right": share(self.right, self.tiles),
            "false_tiles": self.false_tiles,
            "rack_tiles_in_their_rack": share(self.rack_tiles_in_their_rack, self.rack_tiles),
            "racks": self.racks,
            "racks_found": self.racks_found,
            "racks_in_order": self.racks_in_order,
            "racks_read_exactly": self.racks_read_exactly,
            "false_racks": self.false_racks,
            "doubtful": self.doubtful,
            "doubtful_wrong_or_false": self.doubtful_wrong,
            "sure_but_wrong_or_false": self.sure_wrong,
        }


def token_of(class_id: int) -> str:
    return str(tile_from_class_name(CLASS_NAMES[class_id]))


def score_photo(
    true_boxes: np.ndarray,
    true_tokens: list[str],
    truth_racks: list[dict[str, Any]],
    document: dict[str, Any],
    layout_racks: list[list[int]],
) -> tuple[RackScores, list[str]]:
    """One photo's scores and the lines naming its errors. `layout_racks`: each reported rack as the indices
    of its tiles in `document["tiles"]`, in the order reported (the order of `document["racks"]`)."""
    scores = RackScores(photos=1, tiles=len(true_tokens))
    errors: list[str] = []
    reported = document["tiles"]
    boxes = np.array([t["box"] for t in reported], float).reshape(-1, 4)
    pairs = match_boxes(boxes, true_boxes)
    truth_of = dict(pairs)
    scores.found = len(pairs)
    for p, item in enumerate(reported):
        right = p in truth_of and item["tile"] == true_tokens[truth_of[p]]
        scores.right += int(right)
        doubtful = bool(item.get("doubtful"))
        scores.doubtful += int(doubtful)
        scores.doubtful_wrong += int(doubtful and not right)
        scores.sure_wrong += int(not doubtful and not right)
        if p not in truth_of:
            scores.false_tiles += 1
            errors.append(f"false tile {item['tile']} at {[round(v) for v in item['box']]} "
                          f"(confidence {item['confidence']:.2f})")
        elif not right:
            errors.append(f"{true_tokens[truth_of[p]]} read as {item['tile']} "
                          f"(confidence {item['confidence']:.2f})")
    detection_of = {t: p for p, t in pairs}
    for t, token in enumerate(true_tokens):
        if t not in detection_of:
            errors.append(f"missed {token} at {[round(v) for v in true_boxes[t]]}")
    claimed: set[int] = set()
    for number, rack in enumerate(truth_racks, start=1):
        lines = list(rack["label_lines"])
        scores.racks += 1
        scores.rack_tiles += len(lines)
        held = [sum(detection_of.get(t, -1) in members for t in lines) for members in layout_racks]
        if not held or max(held) == 0:
            errors.append(f"rack {number} not found")
            continue
        best = int(np.argmax(held))
        claimed.add(best)
        scores.rack_tiles_in_their_rack += held[best]
        if held[best] * 2 < len(lines):
            errors.append(f"rack {number}: only {held[best]} of {len(lines)} tiles in one reported rack")
            continue
        scores.racks_found += 1
        position = {detection_of[t]: k for k, t in enumerate(lines) if t in detection_of}
        places = [position[i] for i in layout_racks[best] if i in position]
        in_order = places == sorted(places)
        scores.racks_in_order += int(in_order)
        read = [reported[i]["tile"] for i in layout_racks[best]]
        wanted = [str(token) for token in rack["tiles"]]
        scores.racks_read_exactly += int(read == wanted)
        if read != wanted:
            errors.append(f"rack {number} read {' '.join(read)}; labelled {' '.join(wanted)}"
                          + ("" if in_order else " (out of order)"))
    scores.false_racks = len(layout_racks) - len(claimed)
    if scores.false_racks:
        errors.append(f"{scores.false_racks} false rack(s)")
    return scores, errors


def layout_rack_indices(layout: Any) -> list[list[int]]:
    """Each rack of a layout as the indices of its tiles among the reader's detections."""
    return [[placed.index for placed in rack] for rack in layout.racks]


def evaluate(folder: Path, reader: Any, only: list[str] | None = None) -> tuple[RackScores, list[str]]:
    from assistant.rules import STANDARD
    from vision.read import read_document

    racks = json.loads((folder / "racks.json").read_text())
    photos = image_files(folder / "images")
    if only:
        photos = [p for p in photos if p.name.startswith(tuple(only))]
    if not photos:
        raise SystemExit(f"no photos in {folder / 'images'}")
    total, details = RackScores(), []
    labelled = labelled_photos(photos, folder / "labels", folder / "data.yaml")
    for photo, frame, true_boxes, true_ids in labelled:
        true_tokens = [token_of(int(i)) for i in true_ids]
        detections = reader.read(frame)
        document, layout = read_document(photo.name, frame, detections, STANDARD)
        truth = racks.get(photo.name, {}).get("racks", [])
        scores, errors = score_photo(true_boxes, true_tokens, truth, document, layout_rack_indices(layout))
        total.add(scores)
        details.extend(f"  {photo.name[:10]}: {line}" for line in errors)
    return total, details


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.evaluation.real_racks", description=__doc__.splitlines()[0]
    )
    parser.add_argument("folder", type=Path, help="images/, labels/, data.yaml, racks.json")
    parser.add_argument("--rack-conf", type=float, default=None,
                        help="keep racks from this score (default: vision.detector.DEFAULT_RACK_CONFIDENCE)")
    parser.add_argument("--detector", type=Path, default=None, help="detector ONNX (default: shipped)")
    parser.add_argument(
        "--one-look", action="store_true",
        help="one forward pass a frame: the detector's extra looks at racks off (TileDetector extra_looks)",
    )
    parser.add_argument("--only", nargs="*", default=None, help="only photos whose names start so")
    parser.add_argument("--errors", action="store_true", help="list each photo's errors")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    from vision.detector import TileDetector
    from vision.reader import TileReader

    reader = TileReader(detector=TileDetector(args.detector, extra_looks=not args.one_look))
    if args.rack_conf is not None:
        reader.detector.rack_confidence = args.rack_conf
    scores, details = evaluate(args.folder, reader, args.only)
    figures = scores.figures()
    for name, value in figures.items():
        print(f"{name:28}{value}")
    if args.errors:
        print("\n".join(details))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
