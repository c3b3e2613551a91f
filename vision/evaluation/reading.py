"""Measure the tile reader on labelled photos (YOLO polygon or box labels).

    python -m vision.evaluation.reading --images ../shared/real-dev/images --labels ../shared/real-dev/labels
        [--turn 90] [--scale 0.5] [--jpeg-quality 70]   # each photo as a camera held otherwise takes it

Reports, overall and per series (the file-name prefix before the number: `rummy-*`, `rummy2-*`): detection
recall and precision at IoU >= 0.5, end-to-end tile accuracy (found and read right / all labelled tiles),
colour and number accuracy of the found tiles, joker recall, false tiles per photo, the share of photos read
perfectly, and the most frequent confusions. Without a classifier it reports detection only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from assistant.tiles import CLASS_INDEX, CLASS_NAMES, tile_from_class_name
from vision.confidence import NO_TILE_BELOW, without_no_tiles
from vision.detections import UNKNOWN_CLASS, Detections, box_iou

IOU_THRESHOLD = 0.5
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
JOKER_ID = CLASS_INDEX["joker"]

# Label errors found in ../shared/real-dev (see its README). `--fix-known-errors` corrects them.
KNOWN_LABEL_ERRORS = {
    "rummy-2": "the bottom row of black tiles is labelled blue 1-13 (the real blue row is at the top)",
}


def read_class_names(data_yaml: Path) -> list[str]:
    """The `names` of a YOLO data.yaml (block list, inline list or `i: name` mapping), read without yaml."""
    text = data_yaml.read_text()
    inline = re.search(r"^names:\s*\[(.*?)\]", text, flags=re.MULTILINE | re.DOTALL)
    if inline:
        return [n.strip().strip("'\"") for n in inline.group(1).split(",") if n.strip()]
    names: list[str] = []
    in_names = False
    for line in text.splitlines():
        if line.startswith("names:"):
            in_names = True
            continue
        if in_names:
            item = re.match(r"^\s+(?:-\s*|\d+:\s*)(.+?)\s*$", line)
            if not item:
                break
            names.append(item.group(1).strip("'\""))
    if not names:
        raise ValueError(f"{data_yaml}: no class names found")
    return names


def parse_label_polygons(text: str, width: int, height: int) -> list[tuple[int, np.ndarray]]:
    """YOLO label lines (`class cx cy w h` or `class x1 y1 x2 y2 ...` polygons, normalised) as (class index in
    the label file's own order, (k, 2) pixel polygon); a box is its four corners."""
    found = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        coords = np.array(parts[1:], dtype=np.float64)
        if len(coords) == 4:
            cx, cy, w, h = coords
            points = np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2],
                               [cx - w / 2, cy + h / 2]])
        else:
            points = coords[: len(coords) // 2 * 2].reshape(-1, 2)
        found.append((int(parts[0]), points * [width, height]))
    return found


def parse_label_text(text: str, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """YOLO label lines (`class cx cy w h` or `class x1 y1 x2 y2 ...` polygons, normalised) -> pixel boxes.

    Returns:
        (m, 4) xyxy boxes and (m,) label class indices (in the label file's own class order).
    """
    found = parse_label_polygons(text, width, height)
    boxes = [np.concatenate([points.min(axis=0), points.max(axis=0)]) for _, points in found]
    return (np.array(boxes, dtype=np.float64).reshape(-1, 4),
            np.array([label for label, _ in found], dtype=np.int64))


def fix_known_label_errors(photo: str, boxes: np.ndarray, class_ids: np.ndarray) -> np.ndarray:
    """Corrected class ids (project order) for the photos in `KNOWN_LABEL_ERRORS`."""
    fixed = class_ids.copy()
    if series_and_number(photo) == ("rummy", 2):
        centre_y = (boxes[:, 1] + boxes[:, 3]) / 2
        for number in range(1, 14):
            same = np.flatnonzero(class_ids == CLASS_INDEX[f"blue_{number}"])
            if len(same) == 2:
                lower = same[np.argmax(centre_y[same])]
                fixed[lower] = CLASS_INDEX[f"black_{number}"]
    return fixed


def image_files(folder: Path) -> list[Path]:
    """The images in `folder` (`IMAGE_SUFFIXES`), sorted by name."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def labelled_photos(
    photos: Iterable[Path], labels: Path, data_yaml: Path | None, fix_known_errors: bool = False
) -> Iterator[tuple[Path, np.ndarray, np.ndarray, np.ndarray]]:
    """(photo, its frame, its labelled boxes in pixels, their class ids in the project's order) for each
    photo: labels in `labels/STEM.txt` (none there: no tiles), classes in `data_yaml`'s order (None: the
    project's), the `KNOWN_LABEL_ERRORS` corrected when `fix_known_errors`."""
    from vision.frames import load_image

    label_names = read_class_names(data_yaml) if data_yaml else list(CLASS_NAMES)
    to_project = np.array([CLASS_INDEX[name] for name in label_names], dtype=np.int64)
    for photo in photos:
        frame = load_image(photo)
        label_file = labels / f"{photo.stem}.txt"
        text = label_file.read_text() if label_file.exists() else ""
        true_boxes, label_ids = parse_label_text(text, frame.shape[1], frame.shape[0])
        true_ids = to_project[label_ids]
        if fix_known_errors:
            true_ids = fix_known_label_errors(photo.name, true_boxes, true_ids)
        yield photo, frame, true_boxes, true_ids


def series_and_number(photo: str) -> tuple[str, int | None]:
    """`rummy2-14_jpeg.rf.x.jpg` -> ('rummy2', 14); a name without `-N` is in series `other`."""
    match = re.match(r"^(.*?)-(\d+)(?:_|\.|$)", photo)
    if not match:
        return "other", None
    return match.group(1), int(match.group(2))


def match_boxes(
    predicted: np.ndarray, truth: np.ndarray, threshold: float = IOU_THRESHOLD
) -> list[tuple[int, int]]:
    """Greedy one-to-one matching by IoU, best pair first: (predicted index, true index) pairs."""
    if len(predicted) == 0 or len(truth) == 0:
        return []
    iou = box_iou(predicted, truth)
    pairs = []
    used_pred, used_true = set(), set()
    for flat in np.argsort(-iou, axis=None, kind="stable"):
        p, t = np.unravel_index(flat, iou.shape)
        if iou[p, t] < threshold:
            break
        if p in used_pred or t in used_true:
            continue
        used_pred.add(int(p))
        used_true.add(int(t))
        pairs.append((int(p), int(t)))
    return pairs


@dataclass
class PhotoResult:
    """One photo's comparison of readings against labels."""

    photo: str
    series: str
    true_ids: np.ndarray
    predicted_ids: np.ndarray
    pairs: list[tuple[int, int]]
    read: bool
    on_racks: int = 0
    """Tiles the layout put on racks (the labels say nothing of racks: on photos without racks, as in
    ../shared/real-dev, every one is a table tile taken off the table)."""

    @property
    def missed(self) -> int:
        return len(self.true_ids) - len(self.pairs)

    @property
    def false_tiles(self) -> int:
        return len(self.predicted_ids) - len(self.pairs)

    @property
    def correct(self) -> int:
        return sum(1 for p, t in self.pairs if self.predicted_ids[p] == self.true_ids[t])

    @property
    def perfect(self) -> bool:
        found_all = self.missed == 0 and self.false_tiles == 0
        return found_all and (not self.read or self.correct == len(self.true_ids))


def compare(
    photo: str,
    detections: Detections,
    true_boxes: np.ndarray,
    true_ids: np.ndarray,
    read: bool | None = None,
) -> PhotoResult:
    """Match one photo's detections to its labels; `read`: whether faces were read (default: guessed)."""
    if read is None:
        read = bool(len(detections) == 0 or detections.is_read.all())
    pairs = match_boxes(detections.xyxy, true_boxes)
    return PhotoResult(
        photo=photo,
        series=series_and_number(photo)[0],
        true_ids=true_ids,
        predicted_ids=detections.class_id,
        pairs=pairs,
        read=read,
    )


def _ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def share(numerator: int, denominator: int) -> float | None:
    """numerator / denominator rounded to 4 places, as the evaluations report it; None over 0."""
    return round(numerator / denominator, 4) if denominator else None


@dataclass
class Counts:
    """Base of an evaluation's counts (a dataclass of numbers, and lists of what was seen)."""

    def add(self, other: Counts) -> None:
        """Count `other`'s in with these: numbers summed, lists joined."""
        for name in (f.name for f in fields(self)):
            mine = getattr(self, name)
            if isinstance(mine, list):
                mine.extend(getattr(other, name))
            else:
                setattr(self, name, mine + getattr(other, name))


def _color_letter(class_id: int) -> str:
    if class_id == UNKNOWN_CLASS:
        return "?"
    tile = tile_from_class_name(CLASS_NAMES[class_id])
    return "J" if tile.color is None else tile.color.letter


def _number(class_id: int) -> int | None:
    if class_id == UNKNOWN_CLASS:
        return None
    return tile_from_class_name(CLASS_NAMES[class_id]).number


@dataclass
class Summary:
    photos: int = 0
    tiles: int = 0
    found: int = 0
    predicted: int = 0
    correct: int = 0
    color_right: int = 0
    number_right: int = 0
    read_non_joker: int = 0
    jokers: int = 0
    jokers_read: int = 0
    perfect_photos: int = 0
    on_racks: int = 0
    photos_with_racks: int = 0
    read: bool = True
    confusions: Counter = field(default_factory=Counter)
    color_confusion: Counter = field(default_factory=Counter)

    def add(self, result: PhotoResult) -> None:
        self.photos += 1
        self.tiles += len(result.true_ids)
        self.found += len(result.pairs)
        self.predicted += len(result.predicted_ids)
        self.read = self.read and result.read
        self.perfect_photos += int(result.perfect)
        self.on_racks += result.on_racks
        self.photos_with_racks += int(result.on_racks > 0)
        self.jokers += int((result.true_ids == JOKER_ID).sum())
        for p, t in result.pairs:
            truth, guess = int(result.true_ids[t]), int(result.predicted_ids[p])
            self.correct += int(truth == guess)
            if truth == JOKER_ID:
                self.jokers_read += int(guess == JOKER_ID)
            else:
                self.read_non_joker += 1
                self.color_right += int(_color_letter(truth) == _color_letter(guess))
                self.number_right += int(_number(truth) == _number(guess))
            self.color_confusion[(_color_letter(truth), _color_letter(guess))] += 1
            if truth != guess and guess != UNKNOWN_CLASS:
                self.confusions[(CLASS_NAMES[truth], CLASS_NAMES[guess])] += 1

    def figures(self) -> dict[str, float | int | None]:
        figures: dict[str, float | int | None] = {
            "photos": self.photos,
            "tiles": self.tiles,
            "detection_recall": _ratio(self.found, self.tiles),
            "detection_precision": _ratio(self.found, self.predicted),
            "false_tiles_per_photo": _ratio(self.predicted - self.found, self.photos),
            "missed_tiles": self.tiles - self.found,
            "false_tiles": self.predicted - self.found,
        }
        if self.read:
            figures.update(
                end_to_end_accuracy=_ratio(self.correct, self.tiles),
                read_accuracy_of_found=_ratio(self.correct, self.found),
                color_accuracy=_ratio(self.color_right, self.read_non_joker),
                number_accuracy=_ratio(self.number_right, self.read_non_joker),
                joker_recall=_ratio(self.jokers_read, self.jokers),
            )
        figures["perfect_photos_share"] = _ratio(self.perfect_photos, self.photos)
        figures["tiles_put_on_racks"] = self.on_racks
        figures["photos_with_a_rack"] = self.photos_with_racks
        return figures


def summarize(results: Iterable[PhotoResult]) -> dict[str, Summary]:
    """Summaries keyed by series, plus `all`."""
    by_series: dict[str, Summary] = defaultdict(Summary)
    for result in results:
        by_series["all"].add(result)
        by_series[result.series].add(result)
    return dict(by_series)


def _format_value(value: float | int | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}" if value <= 1.0 else f"{value:.2f}"
    return str(value)


def format_report(summaries: dict[str, Summary], details: list[str]) -> str:
    names = ["all"] + sorted(k for k in summaries if k != "all")
    rows = list(summaries["all"].figures())
    lines = [f"{'':24}" + "".join(f"{n:>12}" for n in names)]
    for row in rows:
        lines.append(
            f"{row:24}" + "".join(f"{_format_value(summaries[n].figures().get(row)):>12}" for n in names)
        )
    overall = summaries["all"]
    if overall.read:
        letters = ["k", "b", "r", "o", "J"]
        lines.append("")
        lines.append("colour confusion (rows: label, columns: reading; found tiles only)")
        lines.append("      " + "".join(f"{c:>6}" for c in letters))
        for truth in letters:
            lines.append(
                f"{truth:>6}" + "".join(f"{overall.color_confusion[(truth, g)]:>6}" for g in letters)
            )
        lines.append("")
        lines.append("most frequent misreadings (label -> reading: count)")
        for (truth, guess), count in overall.confusions.most_common(15):
            lines.append(f"  {truth} -> {guess}: {count}")
    if details:
        lines.append("")
        lines.extend(details)
    return "\n".join(lines)


def describe_errors(result: PhotoResult, detections: Detections, true_boxes: np.ndarray) -> list[str]:
    """Lines naming each miss, false tile and misreading of one photo."""
    lines = []
    matched_true = {t for _, t in result.pairs}
    matched_pred = {p for p, _ in result.pairs}
    for t in range(len(result.true_ids)):
        if t not in matched_true:
            box = np.round(true_boxes[t]).astype(int).tolist()
            lines.append(f"  {result.photo}: missed {CLASS_NAMES[result.true_ids[t]]} at {box}")
    for p in range(len(detections)):
        if p not in matched_pred:
            box = np.round(detections.xyxy[p]).astype(int).tolist()
            lines.append(f"  {result.photo}: false tile at {box} (score {detections.confidence[p]:.2f})")
    for p, t in result.pairs:
        guess = int(result.predicted_ids[p])
        if guess != UNKNOWN_CLASS and guess != result.true_ids[t]:
            lines.append(f"  {result.photo}: {CLASS_NAMES[result.true_ids[t]]} read as {CLASS_NAMES[guess]}")
    return lines


def taken_otherwise(
    frame: np.ndarray, boxes: np.ndarray, turn: int = 0, scale: float = 1.0, jpeg_quality: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The photo as a camera held otherwise would give it, with its labelled boxes (x1 y1 x2 y2) moved
    alike: turned `turn` degrees counter-clockwise (a multiple of 90: a phone held upright or upside
    down), scaled by `scale` (a smaller camera, area resize) and saved as JPEG at `jpeg_quality`.

    Raises:
        ValueError: `turn` is not a multiple of 90, `scale` not in (0, 1], `jpeg_quality` not in 1-100.
    """
    if turn % 90:
        raise ValueError(f"turn must be a multiple of 90 degrees, got {turn}")
    if not 0.0 < scale <= 1.0:
        raise ValueError(f"scale must be in (0, 1], got {scale}")
    if jpeg_quality is not None and not 1 <= jpeg_quality <= 100:
        raise ValueError(f"JPEG quality must be 1-100, got {jpeg_quality}")
    import cv2

    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    for _ in range((turn // 90) % 4):  # a quarter turn counter-clockwise: (x, y) -> (y, W - x)
        width = frame.shape[1]
        frame = np.ascontiguousarray(np.rot90(frame))
        x1, y1, x2, y2 = boxes.T
        boxes = np.stack([y1, width - x2, y2, width - x1], axis=1)
    if scale != 1.0:
        size = (max(1, round(frame.shape[1] * scale)), max(1, round(frame.shape[0] * scale)))
        boxes = boxes * np.array([size[0] / frame.shape[1], size[1] / frame.shape[0]] * 2)
        frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    if jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
        frame = cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else frame
    return frame, boxes


def evaluate(
    images: Path,
    labels: Path,
    data_yaml: Path | None,
    reader: object,
    fix_known_errors: bool = False,
    confidence: float | None = None,
    turn: int = 0,
    scale: float = 1.0,
    jpeg_quality: int | None = None,
    floor: float = 0.0,
) -> tuple[list[PhotoResult], list[str], float]:
    """Run `reader` over every labelled photo; returns results, error lines and the median read time in ms.
    `turn`, `scale`, `jpeg_quality`: each photo as `taken_otherwise` gives it. `floor`: tiles under this
    calibrated confidence are left out, as `rummi read` leaves them (`vision.confidence.NO_TILE_BELOW`)."""
    from assistant.rules import STANDARD
    from vision.layout import rebuild

    photos = image_files(images)
    if not photos:
        raise SystemExit(f"no images in {images}")
    results, details, times = [], [], []
    for photo, frame, true_boxes, true_ids in labelled_photos(photos, labels, data_yaml, fix_known_errors):
        if turn or scale != 1.0 or jpeg_quality is not None:
            frame, true_boxes = taken_otherwise(frame, true_boxes, turn, scale, jpeg_quality)
        started = time.perf_counter()
        detections = reader.read(frame, confidence)  # type: ignore[attr-defined]
        times.append((time.perf_counter() - started) * 1000)
        if floor and reader.reads_faces:  # type: ignore[attr-defined]
            detections = without_no_tiles(detections, floor=floor)
        result = compare(photo.name, detections, true_boxes, true_ids, reader.reads_faces)  # type: ignore[attr-defined]
        layout = rebuild(detections, STANDARD, image_size=(frame.shape[1], frame.shape[0]), frame=frame)
        result.on_racks = sum(len(rack) for rack in layout.racks)
        results.append(result)
        details.extend(describe_errors(result, detections, true_boxes))
    return results, details, float(np.median(times))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m vision.evaluation.reading", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--images", required=True, type=Path, help="folder of photos")
    parser.add_argument("--labels", required=True, type=Path, help="folder of YOLO label files (same stems)")
    parser.add_argument("--profile", type=Path, help="read with this calibration profile (rummi calibrate)")
    parser.add_argument(
        "--data-yaml", type=Path, help="class order of the labels (default: LABELS/../data.yaml)"
    )
    parser.add_argument("--rack-conf", type=float, default=None,
                        help="keep racks from this score (default: vision.detector.DEFAULT_RACK_CONFIDENCE)")
    parser.add_argument("--detector", type=Path, help="detector ONNX file (default: the shipped one)")
    parser.add_argument(
        "--one-look", action="store_true",
        help="one forward pass a frame: the detector's extra looks at racks off (TileDetector extra_looks)",
    )
    parser.add_argument("--detection-only", action="store_true", help="do not run the crop classifier")
    parser.add_argument("--conf", type=float, default=None, help="detector score threshold")
    parser.add_argument(
        "--fix-known-errors", action="store_true", help="correct the known label errors before scoring"
    )
    parser.add_argument("--turn", type=int, choices=(0, 90, 180, 270), default=0,
                        help="read each photo turned this many degrees counter-clockwise")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="read each photo scaled down by this, (0, 1]")
    parser.add_argument("--jpeg-quality", type=int,
                        help="read each photo saved again as JPEG at this quality")
    parser.add_argument("--errors", action="store_true", help="list every miss, false tile and misreading")
    parser.add_argument("--no-floor", action="store_true",
                        help="keep the tiles `rummi read` leaves out as surely no tile (confidence floor)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from vision.detector import TileDetector
    from vision.reader import TileReader

    data_yaml = args.data_yaml or args.labels.parent / "data.yaml"
    reader = TileReader(
        detector=TileDetector(args.detector, extra_looks=not args.one_look),
        **({"classifier": None} if args.detection_only else {}),
    )
    if args.rack_conf is not None:
        reader.detector.rack_confidence = args.rack_conf
    if args.profile:
        from vision.profile import load_profile

        reader.use_profile(load_profile(args.profile))
    if not 0.0 < args.scale <= 1.0 or (args.jpeg_quality is not None and not 1 <= args.jpeg_quality <= 100):
        print("error: --scale must be in (0, 1] and --jpeg-quality in 1-100", file=sys.stderr)
        return 2
    results, details, median_ms = evaluate(
        args.images,
        args.labels,
        data_yaml if data_yaml.exists() else None,
        reader,
        args.fix_known_errors,
        args.conf,
        turn=args.turn,
        scale=args.scale,
        jpeg_quality=args.jpeg_quality,
        floor=0.0 if args.no_floor else NO_TILE_BELOW,
    )
    summaries = summarize(results)
    print(format_report(summaries, details if args.errors else []))
    classifier = "yes" if reader.reads_faces else "no"
    print(f"\nmedian read time {median_ms:.1f} ms per photo; classifier: {classifier}")
    if not args.fix_known_errors:
        for photo, error in KNOWN_LABEL_ERRORS.items():
            print(f"known label error, not corrected (use --fix-known-errors): {photo}: {error}")
    if args.json:
        figures = {name: summary.figures() for name, summary in summaries.items()}
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
