"""Train the tile stance network (`vision.rack_check.TileStance`) and export it to ONNX (torch needed;
inference is not).

    python -m vision.training.tile_stance collect OUT.npz --scenes RENDER_FOLDER... \
        --table-photos REAL_FOLDER... --rack-photos REAL_RACKS_FOLDER@NAME,NAME...
    python -m vision.training.tile_stance train OUT.npz... --val VAL.npz... --out tile_stance.onnx

Issue 37: "a tile's 'standing on a rack' learned from its crop with context ... a run on the table is never
a rack". The rack check judges a rack box; a rack seen at a slant has a box that covers the table in front of
it, and the tiles lying there were put on the rack (tuning rack renders seed 8800, kind rack_angle: 65 % of
the table tiles).

`collect` cuts a crop around each tile (`vision.rack_check.tile_crop`, the tile's box moved a little as a
detector's would be), named by the truth: a render's labelled tiles (every tile standing on a rack, every
tile lying within a rack box or near it or in the game's box, and a few of the others), a real rack photo's
tiles (standing) and a real table photo's (lying). `train` fits the rack check's small network on them
(`vision.training.rack_check`: light, colour, blur and mirroring changed on the fly, never turned upside
down: a standing tile's bar is below it), and exports it with its threshold (`tile_stance` in the metadata:
the score that keeps `--keep-standing` of the validation's standing tiles).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from vision.detections import share_inside
from vision.evaluation.reading import image_files
from vision.rack_check import TILE_STANCE_SIZE, crops_to_input, tile_crop
from vision.training.rack_check import _Crops, _export, _real_photos, add_train_arguments, fit

BOX_JITTER = 0.05
"""Standard deviation of a tile box's edge shift, as a share of its size."""
NEAR_A_RACK = 1.0
"""A table tile is cut where its box, grown by this many of its heights, reaches into a rack box."""
OTHERS_PER_IMAGE = 6


def _jittered(box: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    size = np.array([box[2] - box[0], box[3] - box[1]] * 2)
    return box + np.clip(rng.normal(0, BOX_JITTER, 4), -0.12, 0.12) * size


def collect(args: argparse.Namespace) -> int:
    rng = np.random.default_rng(args.seed)
    out = _Crops(tile_crop, (TILE_STANCE_SIZE, TILE_STANCE_SIZE), min_side=3)
    started = time.monotonic()
    for folder in map(Path, args.scenes):
        for image_file in image_files(folder / "images"):
            scene = json.loads((folder / "scenes" / f"{image_file.stem}.json").read_text())
            image = cv2.imread(str(image_file))
            racks = np.asarray(scene.get("rack_boxes", []), np.float64).reshape(-1, 4)
            racks = racks[(racks[:, 2] > racks[:, 0]) & (racks[:, 3] > racks[:, 1])]
            source = f"{folder.name}/{image_file.stem}"
            others = []
            for tile in scene["tiles"]:
                if not tile.get("labelled", True):
                    continue
                box = np.asarray(tile["box"], np.float64)
                if tile.get("on_rack", False):
                    out.add(image, _jittered(box, rng), 1, False, "tile", source)
                    continue
                height = min(box[2] - box[0], box[3] - box[1])
                grown = box + NEAR_A_RACK * height * np.array([-1, -1, 1, 1])
                near = len(racks) and share_inside(grown[None], racks)[0].max() > 0
                if tile.get("in_box", False) or near:
                    out.add(image, _jittered(box, rng), 0, False, "tile", source)
                else:
                    others.append(box)
            for k in rng.permutation(len(others))[:OTHERS_PER_IMAGE]:
                out.add(image, _jittered(others[k], rng), 0, False, "tile", source)
        print(f"{folder}: {len(out.labels)} crops, {time.monotonic() - started:.0f} s", flush=True)
    for spec, label, per_photo in [(s, 0, args.per_photo) for s in args.table_photos] + \
            [(s, 1, None) for s in args.rack_photos]:
        for source, image, tiles in _real_photos(spec):
            chosen = rng.permutation(len(tiles))[:per_photo]
            for k in chosen:
                out.add(image, _jittered(tiles[k], rng), label, True, "tile", source)
        print(f"{spec}: {len(out.labels)} crops", flush=True)
    out.save(Path(args.out))
    labels = np.asarray(out.labels)
    print(f"{args.out}: {len(labels)} crops, {int(labels.sum())} standing, {int((labels == 0).sum())} lying")
    return 0


def train(args: argparse.Namespace) -> int:
    to_input = partial(crops_to_input, size=(TILE_STANCE_SIZE, TILE_STANCE_SIZE))
    net, threshold = fit(args, to_input, turns=False, kinds=("standing", "lying"), keep=args.keep_standing)
    _export(net, Path(args.out), threshold, key="tile_stance", size=(TILE_STANCE_SIZE, TILE_STANCE_SIZE))
    print(f"{args.out}: threshold {threshold:.4f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.tile_stance", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="cut tile crops from renders and real photos")
    c.add_argument("out")
    c.add_argument("--scenes", nargs="*", default=[], help="render folders (images/, scenes/)")
    c.add_argument("--table-photos", nargs="*", default=[], help="real photos of tiles lying on a table")
    c.add_argument("--rack-photos", nargs="*", default=[],
                   help="real photos of tiles standing on racks, FOLDER or FOLDER@NAME,NAME (name prefixes)")
    c.add_argument("--per-photo", type=int, default=15, help="tiles cut per real table photo")
    c.add_argument("--seed", type=int, default=0)
    add_train_arguments(sub.add_parser("train", help="train on collected crops and export ONNX"), epochs=10,
                        batch=128, keep="--keep-standing", kept="the validation's standing tiles")
    args = parser.parse_args(argv)
    return collect(args) if args.command == "collect" else train(args)


if __name__ == "__main__":
    sys.exit(main())
