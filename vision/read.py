"""`rummi read IMAGE...`: the tiles in photos of a table, one JSON object per image per line.

Plug-in of `assistant.cli` (see CONTRACT.md): `configure(parser)` adds the arguments, `run(args, rules)`
prints and returns the exit code: 0, or 2 when an image cannot be read (the others are still read; with
`--json` the unreadable one gets its line too, `{"image", "error"}`, in its place).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import InputError, shorten_long_runs
from vision.confidence import NO_TILE_BELOW, ConfidenceMap, calibrated, doubtful, without_no_tiles
from vision.detections import Detections
from vision.detector import DEFAULT_CONFIDENCE
from vision.frames import ImageError
from vision.layout import rebuild
from vision.onnx_models import ModelLoadError
from vision.path import read_photos
from vision.reader import TileReader, load_reader

EXIT_OK = 0
EXIT_UNREADABLE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (JPEG, PNG, WebP, BMP)")
    parser.add_argument(
        "--conf",
        type=float,
        default=DEFAULT_CONFIDENCE,
        metavar="SCORE",
        help=f"detector score a tile needs, 0-1 (default {DEFAULT_CONFIDENCE})",
    )
    parser.add_argument(
        "--profile", metavar="PROFILE", help="read with what `rummi calibrate` learned of the table and tiles"
    )
    parser.add_argument(
        "--annotate",
        metavar="PATH",
        help=(
            "also draw the reading: a file for one image (.png, .jpg, ...), or a folder for several, made if"
            " missing, with one PNG per image named after it (images of the same name get -1, -2, ... in the"
            " order given); never over an input image"
        ),
    )


def tiles_to_json(
    detections: Detections,
    confidence_map: ConfidenceMap | None = None,
    scale: tuple[float, float] = (1.0, 1.0),
) -> list[dict[str, Any]]:
    """The contract's `tiles` list: token (`?` where not read), box in pixels (of the frame times `scale`,
    (x, y)), the confidence that the tile is there and read right (the shipped calibration,
    `vision.confidence`, unless one is given), and whether that confidence is under the doubt line
    (`vision.confidence.DOUBTFUL_BELOW`)."""
    confidences = calibrated(detections, confidence_map)
    boxes = np.asarray(detections.xyxy, dtype=np.float64).reshape(-1, 4)
    if scale != (1.0, 1.0):
        boxes = boxes * np.array([scale[0], scale[1], scale[0], scale[1]])
    boxes = boxes.round(1).tolist()
    return [
        {"tile": "?" if tile is None else str(tile), "box": box, "confidence": round(float(confidence), 4),
         "doubtful": bool(doubt)}
        for tile, box, confidence, doubt in zip(
            detections.tiles(), boxes, confidences, doubtful(confidences), strict=True
        )
    ]


def read_document(
    path: str,
    frame: np.ndarray,
    detections: Detections,
    rules: Any,
    confidence_map: ConfidenceMap | None = None,
    floor: float = NO_TILE_BELOW,
    size: tuple[int, int] | None = None,
) -> tuple[dict[str, Any], Any]:
    """One image's JSON object, and its layout. What is surely no tile (calibrated confidence under
    `floor`) is in neither; `rack_doubtful` gives the positions of each rack's doubtful tiles in `racks`.
    `size` is the (width, height) of the image as given where the frame is smaller (a 48 MP photo is decoded
    at half size, `vision.frames.decode_scaled`): the width, height and boxes are then in its pixels."""
    tiles = without_no_tiles(detections, confidence_map, floor)
    height, width = frame.shape[:2]
    layout = rebuild(tiles, rules, image_size=(width, height), frame=frame)
    return photo_document(path, tiles, layout, frame, confidence_map, size), layout


def photo_document(path: str, tiles: Detections, layout: Any, frame: np.ndarray,
                   confidence_map: ConfidenceMap | None = None,
                   size: tuple[int, int] | None = None) -> dict[str, Any]:
    """The contract's JSON object of a photo read (`vision.path.PhotoReading`'s tiles and layout)."""
    height, width = frame.shape[:2]
    shown_width, shown_height = size or (width, height)
    document: dict[str, Any] = {
        "image": path,
        "width": int(shown_width),
        "height": int(shown_height),
        "tiles": tiles_to_json(tiles, confidence_map, (shown_width / width, shown_height / height)),
        "table": [],
        "racks": [],
    }
    document.update(layout.to_json())
    marked = [t["doubtful"] for t in document["tiles"]]
    document["rack_doubtful"] = [
        [position for position, placed in enumerate(rack) if marked[placed.index]] for rack in layout.racks
    ]
    return document


def error_document(path: str, error: object) -> dict[str, Any]:
    """The JSON line of an image that could not be read: `{"image", "error"}`, the message on stderr too."""
    return {"image": path, "error": shorten_long_runs(str(error))}


def describe(document: dict[str, Any], rules: Any = None) -> str:
    """The reading of one image for a person: the tiles, then the sets and racks."""
    tiles = " ".join(t["tile"] + ("?" if t.get("doubtful") else "") for t in document["tiles"]) or "(none)"
    lines = [f"{document['image']}: {len(document['tiles'])} tiles: {tiles}"]
    for number, entry in enumerate(document["table"], start=1):
        verdict = "valid" if entry.get("valid") else f"not valid ({entry.get('reason') or 'unknown'})"
        lines.append(f"  set {number}: {' '.join(entry['tiles'])}: {verdict}")
        for suggestion in entry.get("suggestions", []):
            lines.append(f"    ? {suggestion['raw']} may be {suggestion['proposed']}: {suggestion['reason']}")
    doubts = document.get("rack_doubtful") or [[] for _ in document["racks"]]
    for number, (rack, doubt) in enumerate(zip(document["racks"], doubts, strict=False), start=1):
        tokens = [f"{t}?" if k in doubt else t for k, t in enumerate(rack)]
        line = f"  rack {number}: {' '.join(tokens)}"
        if rules is not None:
            line += f" · {rack_points(rack, doubt, rules)} points"
        if doubt:
            line += f" + {len(doubt)} doubtful"
        lines.append(line)
    lines.extend(f"  problem: {problem}" for problem in document.get("problems", []))
    return "\n".join(lines)


def rack_points(rack: list[str], doubtful_positions: list[int], rules: Any) -> int:
    """A rack's points at the end of a round over its sure tiles (its doubtful ones are counted apart)."""
    from assistant.rules import rack_value
    from assistant.tiles import Tile

    apart = set(doubtful_positions)
    sure = [t for k, t in enumerate(rack) if k not in apart and t != "?"]
    return rack_value([Tile.parse(t) for t in sure], rules)


class AnnotationError(InputError):
    """An --annotate target that cannot be written, or that would be written over an input image."""


def annotation_targets(target: str, images: Sequence[str]) -> list[Path]:
    """The file each image's drawing is written to: `target` itself for one image, else (several
    images, or `target` an existing folder) `target/NAME.png` (`annotation_names`). Nothing is written.

    Raises:
        AnnotationError: a file target whose suffix names no format OpenCV writes or whose folder is
            missing; a file where a folder is needed; a target that is one of the input images.
    """
    try:
        targets = _annotation_targets(target, images)
        inputs = _input_images(images)
        for image, out in zip(images, targets, strict=True):
            overwritten = inputs.get(out.resolve()) or inputs.get(_file_id(out))
            if overwritten is not None:
                raise AnnotationError(
                    f"--annotate {target}: the drawing of {image} would be written over the input image "
                    f"{overwritten}; give another file or folder"
                )
    except OSError as error:  # a name too long for the file system, a folder that cannot be listed
        raise AnnotationError(f"--annotate {target}: {error.strerror or error}") from error
    return targets


def _file_id(path: Path) -> tuple[int, int] | None:
    """(device, inode) of an existing file: the same file under another name (a hard link, another case
    on a case-insensitive disk) has the same."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _input_images(images: Sequence[str]) -> dict[Any, str]:
    """Each input image by its resolved path and by its file id."""
    found: dict[Any, str] = {}
    for image in images:
        if not image:  # Path("") is the current folder, not an image
            continue
        try:
            found.setdefault(Path(image).resolve(), image)
        except OSError:  # a name the file system refuses: no file to overwrite (load_image says why)
            continue
        if (key := _file_id(Path(image))) is not None:
            found.setdefault(key, image)
    return found


def _annotation_targets(target: str, images: Sequence[str]) -> list[Path]:
    from vision.annotate import can_write, writable_suffixes

    path = Path(target)
    if len(images) > 1 or path.is_dir():
        existing = next((above for above in [path, *path.parents] if above.exists()), None)
        if existing is not None and not existing.is_dir():
            raise AnnotationError(
                f"--annotate {target}: {existing} is a file, not a folder; "
                "for several images give a folder (one PNG per image)"
            )
        return [path / name for name in annotation_names(images)]
    if not path.parent.is_dir():
        what = "is a file, not a folder" if path.parent.exists() else "no such folder"
        raise AnnotationError(f"--annotate {target}: {path.parent}: {what}")
    if not can_write(path):
        suffix = f"a file ending in {path.suffix!r}" if path.suffix else "a file name without a suffix"
        raise AnnotationError(
            f"--annotate {target}: cannot write an image to {suffix}; "
            f"give a file ending in {', '.join(writable_suffixes())}, or a folder"
        )
    return [path]


def annotation_names(images: Sequence[str]) -> list[str]:
    """One PNG name per image in a folder: the image's name (`table.jpg` -> `table.png`), and where
    several images have the same name (`a/table.jpg b/table.jpg`), `table-1.png`, `table-2.png`, ...
    in the order given, skipping a number another image's name already has."""
    stems = [Path(image).stem or "image" for image in images]
    # casefold: on a case-insensitive disk `Table.png` and `table.png` are one file.
    uses = Counter(stem.casefold() for stem in stems)
    taken = {stem.casefold() for stem in stems if uses[stem.casefold()] == 1}
    counters: Counter[str] = Counter()
    names = []
    for stem in stems:
        key = stem.casefold()
        if uses[key] > 1:
            while True:
                counters[key] += 1
                numbered = f"{stem}-{counters[key]}"
                if numbered.casefold() not in taken:
                    break
            taken.add(numbered.casefold())
            stem = numbered
        names.append(f"{stem}.png")
    return names


def _annotate(target: Path, frame: np.ndarray, layout: Any) -> None:
    if layout is None:
        return
    from vision.annotate import save_annotated

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        folder = str(target.parent)
        raise OSError(f"could not make the folder {folder!r}: {error.strerror or error}") from error
    save_annotated(str(target), frame, layout)


def _error(message: object) -> None:
    # A name of thousands of characters is not echoed back whole (as `assistant.cli` does its messages).
    print(f"rummi read: error: {shorten_long_runs(str(message))}", file=sys.stderr)


def run(args: argparse.Namespace, rules: Any, reader: TileReader | None = None) -> int:
    """Read every image; a bad one is reported on stderr (exit 2) and the rest are still read."""
    if not 0.0 < args.conf < 1.0:
        _error(f"--conf must be between 0 and 1, got {args.conf}")
        return EXIT_UNREADABLE
    for option in ("profile", "annotate"):
        if getattr(args, option, None) == "":  # `--profile "$UNSET"`: not the same as leaving it out
            _error(f"--{option} is empty")
            return EXIT_UNREADABLE
    targets = None
    if args.annotate is not None:
        try:
            targets = annotation_targets(args.annotate, args.images)
        except AnnotationError as error:
            _error(error)
            return EXIT_UNREADABLE
    from vision.profile import ProfileError

    try:
        reader = reader_with_profile(reader, getattr(args, "profile", None))
    except (ModelLoadError, ProfileError) as error:
        _error(error)
        return EXIT_UNREADABLE
    return _read_all(args, rules, reader, targets)


def reader_with_profile(reader: TileReader | None, profile: str | None) -> TileReader:
    """A reader of the given models (the shipped ones unless given) reading with the profile at `profile`
    (None: with none); the given reader is left as it was (`TileReader.with_profile`: a command's
    profile holds for that command's reads only).

    Raises:
        ModelLoadError: the shipped models cannot be loaded.
        ProfileError: the profile cannot be read or was made with other models.
    """
    reader = reader or load_reader()
    if profile is None:
        return reader.with_profile(None)
    from vision.profile import load_profile

    return reader.with_profile(load_profile(profile))


def read_frames(
    reader: TileReader, images: list[str], confidence: float | None = None
) -> Iterator[tuple[str, np.ndarray | ImageError, Detections | None]]:
    """(image, frame, tiles read) for each image in order, or (image, ImageError, None) for one that
    cannot be decoded: `vision.path.read_photos` (the next image decoded and detected ahead)."""
    for reading in read_photos(reader, images, confidence=confidence):
        if isinstance(reading, tuple):
            yield reading[0], reading[1], None
        else:
            yield reading.image, reading.frame, reading.read


def _read_all(args: argparse.Namespace, rules: Any, reader: TileReader, targets: list[Path] | None) -> int:
    code = EXIT_OK
    for k, reading in enumerate(read_photos(reader, args.images, rules, args.conf)):
        if isinstance(reading, tuple):  # (image, the ImageError saying why)
            image, error = reading
            _error(error)
            if getattr(args, "json", False):  # its line too, in its place: one line per image given
                print(json.dumps(error_document(image, error)), flush=True)
            code = EXIT_UNREADABLE
            continue
        decoded = reading.decoded
        document = photo_document(reading.image, reading.tiles, reading.layout, decoded.frame,
                                  size=(decoded.width, decoded.height))
        # The stages a photo takes, in order (vision.path); detect runs ahead on the next photo.
        document["timings"] = reading.timings
        print(json.dumps(document) if getattr(args, "json", False) else describe(document, rules), flush=True)
        if targets is not None:
            try:
                _annotate(targets[k], decoded.frame, reading.layout)
            except OSError as error:
                _error(error)
                code = EXIT_UNREADABLE
    return code
