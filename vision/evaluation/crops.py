"""Measure the crop classifier alone on labelled photos: crops cut at the label boxes, no detector.

    python -m vision.evaluation.crops --real ../shared/real-dev \
        [--model models/tile_classifier.onnx] [--errors DIR]

Labels are YOLO polygon lines (`class x1 y1 x2 y2 ...`, normalised) in the class order of `data.yaml`
(the same as `assistant.tiles.CLASS_NAMES`); each polygon's bounding box is the crop's box, as a detector
box would be. Reports crop accuracy (colour and number right), colour and number accuracy, joker recall and
the main confusions, overall and per series (the photo name up to its first `-`).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from vision.classifier import TileClassifier
from vision.crops import cut_crop

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
JOKER_ID = CLASS_INDEX["joker"]


def polygon_label_boxes(label_text: str, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Class ids (n,) and pixel xyxy boxes (n,4) from YOLO polygon (or box) label lines.

    Raises:
        ValueError: a line is neither `class cx cy w h` nor `class x1 y1 x2 y2 x3 y3 ...`.
    """
    class_ids: list[int] = []
    boxes: list[list[float]] = []
    for number, line in enumerate(label_text.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        values = [float(v) for v in fields[1:]]
        if len(values) == 4:
            cx, cy, w, h = values
            box = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]
        elif len(values) >= 6 and len(values) % 2 == 0:
            xs, ys = values[0::2], values[1::2]
            box = [min(xs), min(ys), max(xs), max(ys)]
        else:
            raise ValueError(f"label line {number} is neither a box nor a polygon: {line!r}")
        class_ids.append(int(fields[0]))
        boxes.append([box[0] * width, box[1] * height, box[2] * width, box[3] * height])
    return np.array(class_ids, dtype=np.int64), np.array(boxes, dtype=np.float64).reshape(-1, 4)


def fix_known_label_errors(image_name: str, class_ids: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Class ids with the label errors that real-dev's README lists corrected.

    `rummy-2`: the row of black tiles is labelled blue 1-13, so each blue number is labelled twice; the
    lower of the two (the black row lies below the blue one) is black.
    """
    fixed = class_ids.copy()
    if image_name.startswith("rummy-2_"):
        centre_y = (boxes[:, 1] + boxes[:, 3]) / 2
        for number in range(1, 14):
            same = np.flatnonzero(class_ids == CLASS_INDEX[f"blue_{number}"])
            if len(same) == 2:
                fixed[same[np.argmax(centre_y[same])]] = CLASS_INDEX[f"black_{number}"]
    return fixed


def _colour(class_id: int) -> str:
    return CLASS_NAMES[class_id].split("_")[0]


def _number(class_id: int) -> str:
    return CLASS_NAMES[class_id].split("_")[-1]


@dataclass
class CropScores:
    """Counts for one group of photos."""

    tiles: int = 0
    right: int = 0
    faces: int = 0  # non-joker tiles
    colour_right: int = 0
    number_right: int = 0
    jokers: int = 0
    jokers_found: int = 0
    in_top3: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, truth: int, predicted_top: np.ndarray) -> None:
        predicted = int(predicted_top[0])
        self.tiles += 1
        self.right += predicted == truth
        self.in_top3 += truth in predicted_top[:3]
        if truth == JOKER_ID:
            self.jokers += 1
            self.jokers_found += predicted == JOKER_ID
        else:
            self.faces += 1
            self.colour_right += predicted != JOKER_ID and _colour(predicted) == _colour(truth)
            self.number_right += predicted != JOKER_ID and _number(predicted) == _number(truth)
        if predicted != truth:
            self.confusions[(CLASS_NAMES[truth], CLASS_NAMES[predicted])] += 1

    def summary(self) -> str:
        def share(part: int, whole: int) -> str:
            return f"{part / whole:.2%} ({part}/{whole})" if whole else "n/a"

        return (
            f"crop accuracy {share(self.right, self.tiles)}, colour {share(self.colour_right, self.faces)}, "
            f"number {share(self.number_right, self.faces)}, "
            f"joker recall {share(self.jokers_found, self.jokers)}, "
            f"top-3 {share(self.in_top3, self.tiles)}"
        )


def labelled_photos(
    real_dir: Path, raw_labels: bool = False
) -> Iterator[tuple[Path, np.ndarray, np.ndarray, np.ndarray]]:
    """(image path, BGR image, class ids, pixel xyxy boxes) of each photo of a folder with images/ and labels/
    (as ../shared/real-dev), by name; known label errors corrected unless `raw_labels`.

    Raises:
        SystemExit: no images, a photo without its label file, or one that cannot be read.
    """
    images = sorted(p for p in (real_dir / "images").glob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
    if not images:
        raise SystemExit(f"no images under {real_dir / 'images'}")
    for image_path in images:
        label_path = real_dir / "labels" / (image_path.stem + ".txt")
        if not label_path.is_file():
            raise SystemExit(f"no label file {label_path.name} for {image_path.name}")
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"cannot read {image_path}")
        height, width = image.shape[:2]
        truth, boxes = polygon_label_boxes(label_path.read_text(), width, height)
        if not raw_labels:
            truth = fix_known_label_errors(image_path.name, truth, boxes)
        yield image_path, image, truth, boxes


def evaluate(
    real_dir: Path, classifier: TileClassifier, errors_dir: Path | None = None, raw_labels: bool = False
) -> dict[str, CropScores]:
    """Scores per series and under "all"; known label errors corrected unless `raw_labels`.

    Raises:
        SystemExit: the folder has no images/ and labels/.
    """
    scores: dict[str, CropScores] = {"all": CropScores()}
    if errors_dir is not None:
        errors_dir.mkdir(parents=True, exist_ok=True)
    for image_path, image, truth, boxes in labelled_photos(real_dir, raw_labels):
        topk, _, _ = classifier.classify(image, boxes)
        series = image_path.name.split("-")[0]
        group = scores.setdefault(series, CropScores())
        for index, (true_id, predicted) in enumerate(zip(truth, topk, strict=True)):
            scores["all"].add(int(true_id), predicted)
            group.add(int(true_id), predicted)
            if errors_dir is not None and int(predicted[0]) != int(true_id):
                crop = cut_crop(image, boxes[index], size=classifier.crop_size, margin=classifier.crop_margin)
                read_as = CLASS_NAMES[predicted[0]]
                name = f"{image_path.stem[:20]}_{index}_{CLASS_NAMES[true_id]}_as_{read_as}.png"
                cv2.imwrite(str(errors_dir / name), cv2.resize(crop, None, fx=2, fy=2))
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.evaluation.crops", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--real", type=Path, required=True, help="folder with images/ and labels/")
    parser.add_argument("--model", type=Path, default=None, help="classifier ONNX (default: the shipped one)")
    parser.add_argument("--errors", type=Path, default=None, help="write misread crops here as PNG")
    parser.add_argument("--top", type=int, default=15, help="confusions to list")
    parser.add_argument("--raw-labels", action="store_true", help="keep the known label errors (rummy-2)")
    parser.add_argument(
        "--turns", type=int, default=4, choices=(1, 2, 4), help="quarter turns read per doubt"
    )
    parser.add_argument("--recheck-below", type=float, default=0.8, help="reread crops scoring below this")
    args = parser.parse_args(argv)

    classifier = TileClassifier(args.model, turns=args.turns, recheck_below=args.recheck_below)
    scores = evaluate(args.real, classifier, args.errors, raw_labels=args.raw_labels)
    for name, group in scores.items():
        print(f"{name}: {group.summary()}")
    print("main confusions (truth -> read):")
    for (truth, predicted), count in scores["all"].confusions.most_common(args.top):
        print(f"  {count:3d}  {truth} -> {predicted}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
