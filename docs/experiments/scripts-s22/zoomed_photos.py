"""Labelled photos zoomed out as the photo games lay them (`datasets.photo_game.zoomed_out`: the photo in the
middle of its own empty table mirrored around it), written as a labelled folder that
`python -m vision.evaluation.reading` measures: the reader on real tiles 1.6-2 times smaller against the
frame, photo by photo, without a video's hands, noise and compression. Twenty-second session (issue 37):
a still measure of what the zoom photo games showed (a clear red 9 between a black and a blue 9, 22 px tall
in the detector's input, scored 0.12-0.16 by the shipped detector), to compare detectors on.

    python docs/experiments/scripts-s22/zoomed_photos.py SRC OUT --zoom 1.8 [--long-side 1000]

SRC holds images/, labels/ and data.yaml (real-dev-measure); OUT gets images/ (z<F>-NAME.jpg, JPEG quality
95), labels/ (polygons, normalised, the project's class order: measure without --fix-known-errors, the
known label errors are corrected here) and data.yaml (the project's class order).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

from assistant.tiles import class_id
from datasets.photo_game import PhotoError, empty_table, load_photo, photo_folder, zoomed_out
from datasets.render import write_data_yaml


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("src", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--zoom", type=float, required=True)
    p.add_argument("--long-side", type=int, default=1000)
    args = p.parse_args(argv)
    try:
        paths, labels, classes = photo_folder(args.src)
    except PhotoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    (args.out / "labels").mkdir(parents=True, exist_ok=True)
    write_data_yaml(args.out)
    tag = f"z{round(args.zoom * 10)}"
    for path in paths:
        photo = load_photo(path, labels, classes, max(2, round(args.long_side / args.zoom)))
        empty, _ = empty_table(photo)
        zoomed, _ = zoomed_out(photo, empty, args.zoom)
        width, height = zoomed.size
        stem = f"{tag}-{path.stem}"
        cv2.imwrite(str(args.out / "images" / f"{stem}.jpg"), zoomed.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        lines = []
        for tile in zoomed.tiles:
            coords = " ".join(f"{x / width:.6f} {y / height:.6f}" for x, y in tile.polygon)
            lines.append(f"{class_id(tile.tile)} {coords}")
        (args.out / "labels" / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    print(f"{len(paths)} photos zoomed out {args.zoom} times into {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
