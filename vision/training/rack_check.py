"""Train the rack check (`vision.rack_check`) and export it to ONNX (torch needed; inference is not).

    python -m vision.training.rack_check collect OUT.npz --scenes RENDER_FOLDER... \
        --table-photos REAL_FOLDER... --rack-photos REAL_RACKS_FOLDER@NAME,NAME... --detectors FILE.onnx...
    python -m vision.training.rack_check train OUT.npz... --out models/rack_check.onnx

`collect` cuts rack crops (`vision.rack_check.rack_crop`) of three kinds:
- the rack boxes the detectors find at a low rack score (0.1, one look), named rack or no rack by the truth:
  a render's labelled rack boxes, a real table photo's none (real-dev has no rack), a real rack photo's one
  rack holding its tiles;
- the true rack boxes with their edges moved, as a detector's would be;
- boxes around a tile lying on the table and its 1 to 9 nearest neighbours lying there too (rows, runs,
  packed tiles: what the detectors took for racks on real tables).

`train` fits a small network (four strided convolutions, about 60 k weights) on the crops with light, colour,
blur and flips changed on the fly, weighting real photos' crops up, and exports it with its threshold
(`rack_check` in the metadata: the score at which `--keep-racks` of the validation racks are kept).
Everything is seeded.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detections import box_iou, share_inside
from vision.evaluation.reading import image_files, labelled_photos
from vision.rack_check import RACK_CHECK_HEIGHT, RACK_CHECK_WIDTH, crops_to_input, rack_crop
from vision.training.detector import real_images

MINED_RACK_SCORE = 0.1
RACK_IOU, NO_RACK_SHARE = 0.4, 0.2
"""A mined box is a rack where it overlaps a true rack this much (IoU) or lies this much inside one (share
of its area); no rack where it lies less than `NO_RACK_SHARE` inside every true rack; else left out."""
EDGE_JITTER = 0.06
"""Standard deviation of a true rack box's edge shift, as a share of the box's width or height."""
GROUPS_PER_IMAGE = 12


def _real_photos(spec: str) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """(source name, frame, labelled tile boxes) of each photo a `DIR[@PREFIX,PREFIX]` spec names."""
    photos, _, _ = real_images(spec)
    folder = photos[0].parent.parent
    for photo, frame, tiles, _ in labelled_photos(photos, folder / "labels", folder / "data.yaml"):
        yield f"{folder.name}/{photo.stem}", frame, np.asarray(tiles, np.float64).reshape(-1, 4)


def _jittered(box: np.ndarray, rng: np.random.Generator, copies: int) -> list[np.ndarray]:
    size = np.array([box[2] - box[0], box[3] - box[1]] * 2)
    return [box + np.clip(rng.normal(0, EDGE_JITTER, 4), -0.15, 0.15) * size for _ in range(copies)]


def _table_groups(tiles: np.ndarray, rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Boxes around a tile and its nearest neighbours (1-9 of them) among `tiles` (xyxy), padded by up to a
    third of a tile's height: rows, runs and packs of tiles lying on the table."""
    if len(tiles) < 2:
        return []
    centres = (tiles[:, :2] + tiles[:, 2:]) / 2
    height = float(np.median(np.minimum(tiles[:, 2] - tiles[:, 0], tiles[:, 3] - tiles[:, 1])))
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    boxes = []
    for _ in range(count):
        seed = int(rng.integers(len(tiles)))
        k = int(rng.integers(2, min(10, len(tiles)) + 1))
        members = np.argsort(distance[seed])[:k]
        if distance[seed, members].max() > 3.5 * height * np.sqrt(k):
            continue  # scattered tiles: no one takes them for a rack
        group = tiles[members]
        box = np.concatenate([group[:, :2].min(axis=0), group[:, 2:].max(axis=0)])
        boxes.append(box + rng.uniform(0, 0.35, 4) * height * np.array([-1, -1, 1, 1]))
    return boxes


def _mined(detectors: list[Any], image: np.ndarray) -> list[np.ndarray]:
    boxes = []
    for detector in detectors:
        found = detector.detect_once(image)
        if found.rack_xyxy is not None and len(found.rack_xyxy):
            boxes.extend(np.asarray(found.rack_xyxy, np.float64))
    return boxes


def _label_mined(boxes: list[np.ndarray], racks: np.ndarray) -> Iterator[tuple[np.ndarray, int]]:
    for box in boxes:
        if not len(racks):
            yield box, 0
            continue
        iou = box_iou(box[None], racks)[0].max()
        inside = share_inside(box[None], racks)[0].max()
        if iou >= RACK_IOU or inside >= 0.7:
            yield box, 1
        elif inside < NO_RACK_SHARE:
            yield box, 0


class _Crops:
    """Crops cut by `cut` (a box's crop of an image, `shape` high and wide) and their labels, saved as one
    `.npz`; boxes under `min_side` pixels are skipped."""

    def __init__(self, cut: Callable[[np.ndarray, np.ndarray], np.ndarray] = rack_crop,
                 shape: tuple[int, int] = (RACK_CHECK_HEIGHT, RACK_CHECK_WIDTH), min_side: float = 4) -> None:
        self.cut, self.shape, self.min_side = cut, shape, min_side
        self.crops: list[np.ndarray] = []
        self.labels: list[int] = []
        self.real: list[bool] = []
        self.kinds: list[str] = []
        self.sources: list[str] = []

    def add(self, image: np.ndarray, box: np.ndarray, label: int, real: bool, kind: str, source: str) -> None:
        if box[2] - box[0] < self.min_side or box[3] - box[1] < self.min_side:
            return
        self.crops.append(self.cut(image, box))
        self.labels.append(label)
        self.real.append(real)
        self.kinds.append(kind)
        self.sources.append(source)

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, crops=np.asarray(self.crops, np.uint8).reshape(-1, *self.shape, 3),
            labels=np.asarray(self.labels, np.int64), real=np.asarray(self.real, bool),
            kinds=np.asarray(self.kinds), sources=np.asarray(self.sources),
        )


def collect(args: argparse.Namespace) -> int:
    from vision.detector import TileDetector

    rng = np.random.default_rng(args.seed)
    detectors = []
    for path in args.detectors:
        detector = TileDetector(path, threads=args.threads, extra_looks=False, rack_check=None)
        detector.rack_confidence = MINED_RACK_SCORE
        detectors.append(detector)
    out = _Crops()
    started = time.monotonic()
    for folder in map(Path, args.scenes):
        for image_file in image_files(folder / "images"):
            scene = json.loads((folder / "scenes" / f"{image_file.stem}.json").read_text())
            image = cv2.imread(str(image_file))
            labelled = zip(scene.get("rack_boxes", []), scene.get("rack_labelled", []), strict=True)
            racks = np.asarray([b for b, kept in labelled if kept], np.float64).reshape(-1, 4)
            every_rack = np.asarray(scene.get("rack_boxes", []), np.float64).reshape(-1, 4)
            source = f"{folder.name}/{image_file.stem}"
            for box, label in _label_mined(_mined(detectors, image), every_rack):
                if label == 0 or len(racks):
                    out.add(image, box, label, False, "mined", source)
            for rack in racks:
                for box in _jittered(rack, rng, 2):
                    out.add(image, box, 1, False, "rack", source)
            table = np.asarray([t["box"] for t in scene["tiles"] if t.get("labelled", True)
                                and not t.get("on_rack", False)], np.float64).reshape(-1, 4)
            for box in _table_groups(table, rng, args.groups):
                if not len(every_rack) or share_inside(box[None], every_rack)[0].max() < NO_RACK_SHARE:
                    out.add(image, box, 0, False, "rows", source)
        print(f"{folder}: {len(out.labels)} crops, {time.monotonic() - started:.0f} s", flush=True)
    for spec in args.table_photos:
        for source, image, tiles in _real_photos(spec):
            for box in _mined(detectors, image):
                out.add(image, box, 0, True, "mined", source)
            for box in _table_groups(tiles, rng, args.groups * 3):
                out.add(image, box, 0, True, "rows", source)
        print(f"{spec}: {len(out.labels)} crops", flush=True)
    for spec in args.rack_photos:
        for source, image, tiles in _real_photos(spec):
            tile_h = float(np.median(tiles[:, 3] - tiles[:, 1]))
            rack = np.concatenate([tiles[:, :2].min(axis=0), tiles[:, 2:].max(axis=0)])
            rack += np.array([-0.5, -0.2, 0.5, 0.35]) * tile_h  # the rack's ends and bar around its tiles
            for box, label in _label_mined(_mined(detectors, image), rack[None]):
                out.add(image, box, label, True, "mined", source)
            for box in _jittered(rack, rng, args.groups * 2):
                out.add(image, box, 1, True, "rack", source)
        print(f"{spec}: {len(out.labels)} crops", flush=True)
    out.save(Path(args.out))
    labels = np.asarray(out.labels)
    print(f"{args.out}: {len(labels)} crops, {int(labels.sum())} racks, {int((labels == 0).sum())} no racks")
    return 0


# ---------------------------------------------------------------- training


def _network() -> Any:
    import torch.nn as nn

    def block(cin: int, cout: int) -> list[Any]:
        return [nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    return nn.Sequential(
        *block(3, 16), *block(16, 32), *block(32, 48), *block(48, 64),
        nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(64, 1),
    )


def _augmented(crops: np.ndarray, rng: np.random.Generator, turns: bool = True) -> np.ndarray:
    """Crops with light, colour, blur and noise changed, mirrored; with `turns`, a quarter of them turned
    half round (a rack seen from its far side)."""
    out = crops.astype(np.float32)
    n = len(out)
    out *= rng.uniform(0.6, 1.4, (n, 1, 1, 1))  # light
    out += rng.normal(0, 18, (n, 1, 1, 3))  # colour cast
    grey = out.mean(axis=3, keepdims=True)
    out = grey + (out - grey) * rng.uniform(0.5, 1.5, (n, 1, 1, 1))  # saturation
    # A dim room's gamma and a washed-out veil (thirty-fourth session: real-dev made dim got false racks).
    dim = rng.random(n) < 0.2
    out[dim] = 255 * (np.clip(out[dim], 0, 255) / 255) ** rng.uniform(1.1, 1.7, (int(dim.sum()), 1, 1, 1))
    veil = rng.random(n) < 0.2
    amount = rng.uniform(0.15, 0.45, (int(veil.sum()), 1, 1, 1))
    out[veil] = out[veil] * (1 - amount) + amount * rng.uniform(140, 240, (int(veil.sum()), 1, 1, 1))
    flip = rng.random(n) < 0.5
    out[flip] = out[flip, :, ::-1]
    turn = rng.random(n) < (0.25 if turns else 0.0)
    out[turn] = out[turn, ::-1, ::-1]
    for k in np.flatnonzero(rng.random(n) < 0.3):
        out[k] = cv2.GaussianBlur(out[k], (0, 0), float(rng.uniform(0.5, 1.5)))
    out += rng.normal(0, 4, out.shape)
    return np.clip(out, 0, 255)


def train(args: argparse.Namespace) -> int:
    net, threshold = fit(args, keep=args.keep_racks)
    _export(net, Path(args.out), threshold)
    print(f"{args.out}: threshold {threshold:.3f}")
    return 0


def fit(
    args: argparse.Namespace,
    to_input: Callable[[np.ndarray], np.ndarray] = crops_to_input,
    turns: bool = True,
    kinds: tuple[str, str] = ("racks", "no racks"),
    keep: float | None = None,
) -> tuple[Any, float]:
    """The network trained on `args.crops` (`.npz` files of `crops`, `labels`, `real`), validated each epoch
    on `args.val`, and its threshold: the score that keeps `keep` of the validation's positives (else 0.5).
    `to_input` makes the network's input of a batch of crops; `turns`: see `_augmented`; `kinds` names the
    positives and the negatives in the log."""
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    parts = [np.load(p) for p in args.crops]
    crops = np.concatenate([p["crops"] for p in parts])
    labels = np.concatenate([p["labels"] for p in parts]).astype(np.float32)
    real = np.concatenate([p["real"] for p in parts])
    weights = np.where(real, args.real_weight, 1.0).astype(np.float32)
    # Each class weighs as much as the other, so the threshold is not pulled by how many of each were cut.
    for value in (0.0, 1.0):
        mask = labels == value
        weights[mask] *= len(labels) / (2 * max(mask.sum(), 1))
    val = [np.load(p) for p in args.val]
    val_crops = np.concatenate([p["crops"] for p in val]) if val else np.zeros((0,), np.uint8)
    val_labels = np.concatenate([p["labels"] for p in val]) if val else np.zeros(0)
    print(f"train {len(labels)} crops ({int(labels.sum())} {kinds[0]}, {int(real.sum())} real), "
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
            x = torch.from_numpy(to_input(_augmented(crops[batch], rng, turns).astype(np.uint8)))
            logits = net(x).reshape(-1)
            losses = loss_of(logits, torch.from_numpy(labels[batch]))
            loss = (losses * torch.from_numpy(weights[batch])).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(batch)
        line = f"epoch {epoch}: loss {total / len(labels):.4f} ({time.monotonic() - started:.0f} s)"
        if len(val_labels):
            scores = _scores(net, val_crops, to_input)
            line += f"; val {kinds[0]} kept {np.mean(scores[val_labels == 1] >= 0.5):.3f}, " \
                    f"{kinds[1]} dropped {np.mean(scores[val_labels == 0] < 0.5):.3f}"
        print(line, flush=True)
    threshold = 0.5
    if len(val_labels) and keep is not None:
        positive = np.sort(_scores(net, val_crops, to_input)[val_labels == 1])
        threshold = float(min(0.5, positive[int((1 - keep) * len(positive))]))
    return net, threshold


def _scores(net: Any, crops: np.ndarray,
            to_input: Callable[[np.ndarray], np.ndarray] = crops_to_input) -> np.ndarray:
    import torch

    net.eval()
    with torch.no_grad():
        logits = torch.cat([net(torch.from_numpy(to_input(crops[k:k + 256]))).reshape(-1)
                            for k in range(0, len(crops), 256)])
    return torch.sigmoid(logits).numpy()


def _export(net: Any, path: Path, threshold: float, key: str = "rack_check",
            size: tuple[int, int] = (RACK_CHECK_HEIGHT, RACK_CHECK_WIDTH)) -> None:
    import onnx
    import torch

    net.eval()
    dummy = torch.zeros(1, 3, *size)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, dummy, str(path), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
    model = onnx.load(str(path))
    entry = model.metadata_props.add()
    entry.key, entry.value = key, f"{threshold:.4f}"
    onnx.save(model, str(path))


def add_train_arguments(train_parser: argparse.ArgumentParser, epochs: int, batch: int, keep: str,
                        kept: str) -> None:
    """The options of a `train` command that runs `fit`; `keep` names the option giving `fit`'s `keep`."""
    t = train_parser
    t.add_argument("crops", nargs="+")
    t.add_argument("--val", nargs="*", default=[])
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=epochs)
    t.add_argument("--batch", type=int, default=batch)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--real-weight", type=float, default=3.0)
    t.add_argument(keep, type=float, default=None, help=f"threshold keeping this share of {kept} (else 0.5)")
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--seed", type=int, default=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.rack_check", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="cut rack crops from renders and real photos")
    c.add_argument("out")
    c.add_argument("--scenes", nargs="*", default=[], help="render folders (images/, scenes/)")
    c.add_argument("--table-photos", nargs="*", default=[],
                   help="real photos with no rack (images/, labels/)")
    c.add_argument("--rack-photos", nargs="*", default=[],
                   help="real photos of one rack each, FOLDER or FOLDER@NAME,NAME (file name prefixes)")
    c.add_argument("--detectors", nargs="*", default=[], help="detector files whose rack boxes are mined")
    c.add_argument("--groups", type=int, default=GROUPS_PER_IMAGE, help="table tile groups cut per render")
    c.add_argument("--threads", type=int, default=2)
    c.add_argument("--seed", type=int, default=0)
    add_train_arguments(sub.add_parser("train", help="train on collected crops and export ONNX"), epochs=12,
                        batch=64, keep="--keep-racks", kept="the validation racks")
    args = parser.parse_args(argv)
    return collect(args) if args.command == "collect" else train(args)


if __name__ == "__main__":
    sys.exit(main())
