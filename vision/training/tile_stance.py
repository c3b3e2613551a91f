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
from pathlib import Path

import cv2
import numpy as np

from vision.detections import share_inside
from vision.evaluation.reading import image_files
from vision.rack_check import TILE_STANCE_SIZE, tile_crop
from vision.training.rack_check import _augmented, _export, _network, _real_photos

BOX_JITTER = 0.05
"""Standard deviation of a tile box's edge shift, as a share of its size."""
NEAR_A_RACK = 1.0
"""A table tile is cut where its box, grown by this many of its heights, reaches into a rack box."""
OTHERS_PER_IMAGE = 6


def _jittered(box: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    size = np.array([box[2] - box[0], box[3] - box[1]] * 2)
    return box + np.clip(rng.normal(0, BOX_JITTER, 4), -0.12, 0.12) * size


class _Crops:
    def __init__(self) -> None:
        self.crops: list[np.ndarray] = []
        self.labels: list[int] = []
        self.real: list[bool] = []
        self.sources: list[str] = []

    def add(self, image: np.ndarray, box: np.ndarray, label: int, real: bool, source: str) -> None:
        if box[2] - box[0] < 3 or box[3] - box[1] < 3:
            return
        self.crops.append(tile_crop(image, box))
        self.labels.append(label)
        self.real.append(real)
        self.sources.append(source)

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, crops=np.asarray(self.crops, np.uint8).reshape(-1, TILE_STANCE_SIZE, TILE_STANCE_SIZE, 3),
            labels=np.asarray(self.labels, np.int64), real=np.asarray(self.real, bool),
            sources=np.asarray(self.sources),
        )


def collect(args: argparse.Namespace) -> int:
    rng = np.random.default_rng(args.seed)
    out = _Crops()
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
                    out.add(image, _jittered(box, rng), 1, False, source)
                    continue
                height = min(box[2] - box[0], box[3] - box[1])
                grown = box + NEAR_A_RACK * height * np.array([-1, -1, 1, 1])
                near = len(racks) and share_inside(grown[None], racks)[0].max() > 0
                if tile.get("in_box", False) or near:
                    out.add(image, _jittered(box, rng), 0, False, source)
                else:
                    others.append(box)
            for k in rng.permutation(len(others))[:OTHERS_PER_IMAGE]:
                out.add(image, _jittered(others[k], rng), 0, False, source)
        print(f"{folder}: {len(out.labels)} crops, {time.monotonic() - started:.0f} s", flush=True)
    for spec, label, per_photo in [(s, 0, args.per_photo) for s in args.table_photos] + \
            [(s, 1, None) for s in args.rack_photos]:
        for source, image, tiles in _real_photos(spec):
            chosen = rng.permutation(len(tiles))[:per_photo]
            for k in chosen:
                out.add(image, _jittered(tiles[k], rng), label, True, source)
        print(f"{spec}: {len(out.labels)} crops", flush=True)
    out.save(Path(args.out))
    labels = np.asarray(out.labels)
    print(f"{args.out}: {len(labels)} crops, {int(labels.sum())} standing, {int((labels == 0).sum())} lying")
    return 0


def _to_input(crops: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


def _scores(net: object, crops: np.ndarray) -> np.ndarray:
    import torch

    net.eval()  # type: ignore[attr-defined]
    with torch.no_grad():
        logits = torch.cat([net(torch.from_numpy(_to_input(crops[k:k + 512]))).reshape(-1)  # type: ignore[operator]
                            for k in range(0, len(crops), 512)])
    return torch.sigmoid(logits).numpy()


def train(args: argparse.Namespace) -> int:
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    parts = [np.load(p) for p in args.crops]
    crops = np.concatenate([p["crops"] for p in parts])
    labels = np.concatenate([p["labels"] for p in parts]).astype(np.float32)
    real = np.concatenate([p["real"] for p in parts])
    weights = np.where(real, args.real_weight, 1.0).astype(np.float32)
    for value in (0.0, 1.0):  # each class weighs as much as the other
        mask = labels == value
        weights[mask] *= len(labels) / (2 * max(mask.sum(), 1))
    val = [np.load(p) for p in args.val]
    val_crops = np.concatenate([p["crops"] for p in val]) if val else np.zeros((0,), np.uint8)
    val_labels = np.concatenate([p["labels"] for p in val]) if val else np.zeros(0)
    print(f"train {len(labels)} crops ({int(labels.sum())} standing, {int(real.sum())} real), "
          f"val {len(val_labels)}", flush=True)
    net = _network()
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * int(np.ceil(len(labels) / args.batch))
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=args.lr, total_steps=steps)
    loss_of = torch.nn.BCEWithLogitsLoss(reduction="none")
    for epoch in range(args.epochs):
        net.train()
        order = rng.permutation(len(labels))
        total, started = 0.0, time.monotonic()
        for start in range(0, len(order), args.batch):
            batch = order[start:start + args.batch]
            x = torch.from_numpy(_to_input(_augmented(crops[batch], rng, turns=False).astype(np.uint8)))
            losses = loss_of(net(x).reshape(-1), torch.from_numpy(labels[batch]))
            loss = (losses * torch.from_numpy(weights[batch])).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(batch)
        line = f"epoch {epoch}: loss {total / len(labels):.4f} ({time.monotonic() - started:.0f} s)"
        if len(val_labels):
            scores = _scores(net, val_crops)
            line += f"; val standing kept {np.mean(scores[val_labels == 1] >= 0.5):.4f}, " \
                    f"lying dropped {np.mean(scores[val_labels == 0] < 0.5):.4f}"
        print(line, flush=True)
    threshold = 0.5
    if len(val_labels) and args.keep_standing is not None:
        standing = np.sort(_scores(net, val_crops)[val_labels == 1])
        threshold = float(min(0.5, standing[int((1 - args.keep_standing) * len(standing))]))
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
    t = sub.add_parser("train", help="train on collected crops and export ONNX")
    t.add_argument("crops", nargs="+")
    t.add_argument("--val", nargs="*", default=[])
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=10)
    t.add_argument("--batch", type=int, default=128)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--real-weight", type=float, default=3.0)
    t.add_argument("--keep-standing", type=float, default=None,
                   help="threshold keeping this share of the validation's standing tiles (else 0.5)")
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    return collect(args) if args.command == "collect" else train(args)


if __name__ == "__main__":
    sys.exit(main())
