"""Pick the bundled example: a real photo (or a rendered table) the shipped models read exactly.

    python scripts/pick_example.py --real ../shared/real-dev                        # list the candidates
    python scripts/pick_example.py --real ../shared/real-dev --take rummy-10 --out vision/examples
    python scripts/pick_example.py --seed 4242 --tries 200 --out vision/examples    # a rendered scene

`--real`: reads every photo of a labelled real-photo folder (YOLO polygon labels, `data.yaml` class names)
and lists those whose tiles the reader gives exactly as labelled, with at least three valid sets and one
invalid; `--take` copies one of them to `table.jpg` with `table.json` (its labelled tiles, its source and
licence). Its attribution (`ATTRIBUTION.md`) is written by hand.

Without `--real`: renders game scenes one by one and keeps the first whose every tile is in view and where
the reader gives the scene's own sets and rack tile for tile, with at least three valid sets, one invalid set
and a rack. Writes `table.jpg` and `table.json` (the scene's truth).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from assistant.rules import STANDARD
from assistant.sets import check_set
from assistant.tiles import Tile
from vision.read import read_document
from vision.reader import TileReader


def truth_sets(truth: dict) -> tuple[list[list[str]], list[list[str]]] | None:
    """The sets, loose tiles and racks the photo shows (tiles out of frame left out); None when a set or
    a rack is only partly in view (the example must show whole sets)."""
    tiles = truth["tiles"]
    groups = []
    for members in truth["sets"] + truth["racks"]:
        seen = [i for i in members if tiles[i]["labelled"]]
        if seen and len(seen) != len(members):
            return None
        groups.append([tiles[i]["token"] for i in seen])
    count = len(truth["sets"])
    sets, racks = [g for g in groups[:count] if g], [g for g in groups[count:] if g]
    loose = [[t["token"]] for t in tiles if t["labelled"] and t["set_index"] is None and not t["on_rack"]]
    return sets + loose, racks


def good_example(truth: dict, document: dict, need_rack: bool = True) -> bool:
    shown = truth_sets(truth)
    if shown is None or (need_rack and not shown[1]):
        return False
    sets, racks = shown
    verdicts = [check_set([Tile.parse(t) for t in s], STANDARD).valid for s in sets if len(s) >= 3]
    if sum(verdicts) < 3 or all(verdicts):
        return False
    read_sets = sorted(entry["tiles"] for entry in document["table"])
    return read_sets == sorted(sets) and sorted(document["racks"]) == sorted(racks)


COLOR_LETTERS = {"black": "k", "blue": "b", "red": "r", "orange": "o"}


def label_token(class_name: str) -> str:
    """`red_5` -> `r5`, `joker` -> `J` (the real-dev class names)."""
    if class_name == "joker":
        return "J"
    color, number = class_name.split("_")
    return f"{COLOR_LETTERS[color]}{number}"


def labelled_tiles(label_file: Path, names: list[str], width: int, height: int) -> list[dict]:
    """Each labelled tile's token and box in pixels, from YOLO polygon lines `class x1 y1 x2 y2 ...`."""
    tiles = []
    for line in label_file.read_text().splitlines():
        if not line.strip():
            continue
        class_index, *coords = line.split()
        xs = [float(v) * width for v in coords[0::2]]
        ys = [float(v) * height for v in coords[1::2]]
        box = [round(min(xs), 1), round(min(ys), 1), round(max(xs), 1), round(max(ys), 1)]
        tiles.append({"token": label_token(names[int(class_index)]), "box": box})
    return tiles


def class_names(folder: Path) -> list[str]:
    lines = (folder / "data.yaml").read_text().splitlines()
    return [line.strip()[2:].strip() for line in lines if line.strip().startswith("- ")]


def pick_real(folder: Path, take: str | None, out: Path) -> int:
    """List (or, with `take`, copy to `out`) the real photos the reader reads exactly as labelled."""
    reader = TileReader()
    names = class_names(folder)
    found = False
    for image_path in sorted((folder / "images").glob("*.jpg")):
        stem = image_path.name.split("_jpeg")[0]
        if take is not None and stem != take:
            continue
        photo = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        height, width = photo.shape[:2]
        truth = labelled_tiles(folder / "labels" / f"{image_path.stem}.txt", names, width, height)
        document, _ = read_document(image_path.name, photo, reader.read(photo), STANDARD)
        exact = sorted(t["tile"] for t in document["tiles"]) == sorted(t["token"] for t in truth)
        valid = [entry["valid"] for entry in document["table"]]
        if not exact or sum(valid) < 3 or all(valid):
            continue
        found = True
        sets = " | ".join(" ".join(entry["tiles"]) for entry in document["table"])
        print(f"{stem}: {len(truth)} tiles, {sum(valid)} valid sets of {len(valid)}: {sets}")
        if take is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / "table.jpg").write_bytes(image_path.read_bytes())
            scene = {
                "photo": image_path.name,
                "source": "Roboflow Universe, project rummikub-nvypk-8cwem by rummikue, version 1",
                "licence": "CC BY 4.0",
                "width": width,
                "height": height,
                "tiles": truth,
            }
            (out / "table.json").write_text(json.dumps(scene, separators=(",", ":")) + "\n")
    if not found:
        print(f"no photo in {folder} fits" + (f" by the name {take!r}" if take else ""), file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--tries", type=int, default=200)
    parser.add_argument("--kind", default="game", help="scene kind to render (datasets.render --kind)")
    parser.add_argument("--out", type=Path, default=Path("vision/examples"))
    parser.add_argument("--no-rack", action="store_true",
                        help="a table without rack tiles will do (the reader must then report no rack)")
    parser.add_argument("--real", type=Path, metavar="FOLDER",
                        help="pick from the labelled real photos in FOLDER (images/, labels/, data.yaml)")
    parser.add_argument("--take", metavar="NAME", help="with --real: the photo to bundle, e.g. rummy-10")
    args = parser.parse_args(argv)
    if args.real is not None:
        return pick_real(args.real, args.take, args.out)
    from datasets.render import render_indexed

    reader = TileReader()
    for index in range(args.tries):
        image, truth, _ = render_indexed(args.seed, index, long_side=1000, kind=args.kind)
        scene = truth.to_json()
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        photo = cv2.imdecode(encoded, cv2.IMREAD_COLOR)  # read as the shipped JPEG will be
        document, _ = read_document("example", photo, reader.read(photo), STANDARD)
        if ok and good_example(scene, document, need_rack=not args.no_rack):
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / "table.jpg").write_bytes(encoded.tobytes())
            (args.out / "table.json").write_text(json.dumps(scene, separators=(",", ":")))
            print(f"scene {index} of seed {args.seed}: {len(document['table'])} sets, "
                  f"{len(document['racks'])} racks")
            return 0
    print(f"no scene of the first {args.tries} of seed {args.seed} fits", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
