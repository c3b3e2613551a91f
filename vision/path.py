"""The path a photo takes, on one page: from a file to the tiles on the table and on the racks.

1. decode: the file read and decoded within a shared server's limits, a 48 MP photo at half size
   (`vision.frames`);
2. detect: boxes of tiles and racks, the detector and its extra looks (`vision.detector`), each rack box
   checked by a second network that tells a rack from tiles lying on the table (`vision.rack_check`);
3. classify: each box's face read, number, colour and up, the colour against the photo's own inks (a dark
   blue read black among black tiles is blue); "not a tile" and what is surely no tile left out
   (`vision.classifier`, `vision.inks`, `vision.confidence`);
4. place: each tile's place, angle and size, half-turned tiles turned back (`vision.orientation`,
   `vision.layout.place`);
5. racks: the tiles standing on each rack, in their owner's order; a third network tells a standing tile from
   a lying one: a tile lying inside a rack's box stays on the table, and a row of tiles surely standing
   where the detector found no rack is a rack (`vision.layout.rack_groups`, `vision.racks`,
   `vision.rack_check.TileStance`);
6. layout: the other tiles in sets in reading order, judged by the rules, doubtful readings corrected
   (`vision.layout.table_sets`, `vision.correction`).

Stages 4 to 6 are `vision.layout.rebuild`, which every other reader of detections (the live screen, the
referee's watcher, the evaluation tools) goes through too.

`read_photo` is the path; `rummi read` runs it photo by photo (`read_photos`: the next photo's decode and
detect run ahead on a thread while this one is classified and laid out). Each stage's milliseconds are in
`PhotoReading.timings`, as `rummi read --json` gives them. A table's profile (`rummi calibrate`) is held by
the reader: the detector's score (detect) and the cloth and inks it learned (classify).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.confidence import NO_TILE_BELOW, ConfidenceMap, without_no_tiles
from vision.frames import Decoded, ImageError, load_scaled
from vision.layout import Layout, rebuild
from vision.stopwatch import Stopwatch

if TYPE_CHECKING:
    from assistant.rules import Rules
    from vision.detections import Detections
    from vision.reader import TileReader

STAGES = ("decode", "detect", "classify", "place", "racks", "layout")


@dataclass
class Found:
    """A photo after its first two stages: decoded, and the detector's boxes."""

    image: str
    decoded: Decoded
    boxes: Detections
    timings: dict[str, float]


@dataclass
class PhotoReading:
    """A photo read: `read` the detected tiles with their readings, `tiles` those that are surely tiles (the
    contract's `tiles`), `layout` their sets and racks, `timings` the milliseconds of each stage."""

    image: str
    decoded: Decoded
    read: Detections
    tiles: Detections
    layout: Layout
    timings: dict[str, float]

    @property
    def frame(self) -> np.ndarray:
        return self.decoded.frame


def read_photo(reader: TileReader, image: str, rules: Rules | None = None,
               confidence: float | None = None) -> PhotoReading:
    """One photo along the whole path.

    Raises:
        ImageError: the file cannot be read as a photo (see `vision.frames.load_scaled`).
    """
    return read_found(reader, find(reader, image, confidence), rules)


def find(reader: TileReader, image: str, confidence: float | None = None) -> Found:
    """Stages decode and detect: they keep nothing on the reader, so they may run for the next photo while
    the rest of the path reads this one.

    Raises:
        ImageError: the file cannot be read as a photo.
    """
    clock = Stopwatch()
    with clock("decode"):
        decoded = load_scaled(image)
    with clock("detect"):
        boxes = reader.find(decoded.frame, confidence)
    return Found(image, decoded, boxes, clock.ms)


def read_found(reader: TileReader, found: Found, rules: Rules | None = None,
               confidence_map: ConfidenceMap | None = None, floor: float = NO_TILE_BELOW) -> PhotoReading:
    """Stages classify, place, racks and layout of a photo `find` found."""
    clock = Stopwatch(dict(found.timings))
    frame = found.decoded.frame
    with clock("classify"):
        read = reader.read_faces(frame, found.boxes)
        tiles = without_no_tiles(read, confidence_map, floor)
    height, width = frame.shape[:2]
    # Stages place, racks and layout, timed on the same clock.
    layout = rebuild(tiles, rules, image_size=(width, height), frame=frame, clock=clock)
    return PhotoReading(found.image, found.decoded, read, tiles, layout, clock.ms)


def read_photos(reader: TileReader, images: Sequence[str], rules: Rules | None = None,
                confidence: float | None = None) -> Iterator[PhotoReading | tuple[str, ImageError]]:
    """Each photo read, in order, or (image, the ImageError) for one that cannot be read. While one photo is
    classified and laid out, the next is decoded and detected on a helper thread: onnxruntime and OpenCV let
    go of Python's lock, so on two cores the two halves overlap (the readings are `read_photo`'s)."""
    if not images:
        return
    with ThreadPoolExecutor(1, thread_name_prefix="read-ahead") as ahead:
        upcoming = ahead.submit(_found_or_error, reader, images[0], confidence)
        for k, image in enumerate(images):
            found = upcoming.result()
            if k + 1 < len(images):
                upcoming = ahead.submit(_found_or_error, reader, images[k + 1], confidence)
            yield (image, found) if isinstance(found, ImageError) else read_found(reader, found, rules)


def _found_or_error(reader: TileReader, image: str, confidence: float | None) -> Found | ImageError:
    try:
        return find(reader, image, confidence)
    except ImageError as error:
        return error

