"""Pick the bundled example: a rendered game table the shipped models read exactly.

    python scripts/pick_example.py --seed 4242 --tries 200 --out vision/examples

Renders game scenes one by one and keeps the first whose every tile is in view and where the reader gives
the scene's own sets and rack tile for tile, with at least three valid sets, one invalid set and a rack.
Writes `table.jpg` and `table.json` (the scene's truth). The example is a render, and says so.
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
from datasets.render import render_indexed
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--tries", type=int, default=200)
    parser.add_argument("--kind", default="game", help="scene kind to render (datasets.render --kind)")
    parser.add_argument("--out", type=Path, default=Path("vision/examples"))
    parser.add_argument("--no-rack", action="store_true",
                        help="a table without rack tiles will do (the reader must then report no rack)")
    args = parser.parse_args(argv)
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
