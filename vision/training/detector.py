"""Train the tile-and-rack detector on rendered scenes and export it to ONNX.

Two classes, `tile` (each visible tile) and `rack` (a whole rack stand, both tiers), from the renderer's
`labels_det/`; renders without that folder give one-class `tile` labels from `labels/`.

    python -m datasets.render --out data/render --count 2000 --seed 1
    nice python -m vision.training.detector --scenes data/render --out runs/detector \\
        --epochs 35 --imgsz 416 --seed 0 --threads 1 --export models/tile_detector.onnx

Offline by construction: the model is built from ultralytics' own `yolo11n.yaml` (no pretrained weights)
or starts from one of our own checkpoints (`--model RUN/weights/best.pt`: fine-tuning, no warm-up),
ultralytics is told not to download or install anything, and its font is a local TTF. torch and
ultralytics are imported inside functions, so importing this module needs neither.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import time
from pathlib import Path

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
DEFAULT_IMGSZ = 384


def offline_environment(config_dir: Path) -> None:
    """Keep ultralytics from reaching the network: no downloads, no auto-install, a local font."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "0"
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    font_dir = config_dir / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        target = font_dir / name
        if not target.exists():
            source = _local_ttf()
            if source is not None:
                shutil.copyfile(source, target)


def _local_ttf() -> Path | None:
    candidates = [Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")]
    try:
        import matplotlib

        candidates.append(Path(matplotlib.get_data_path()) / "fonts/ttf/DejaVuSans.ttf")
    except ImportError:
        pass
    return next((p for p in candidates if p.is_file()), None)


def one_class_label(line: str) -> str | None:
    """A renderer label line `class cx cy w h` (or a polygon) as a one-class box line `0 cx cy w h`."""
    parts = line.split()
    if len(parts) < 5:
        return None
    coords = [float(v) for v in parts[1:]]
    if len(coords) == 4:
        cx, cy, w, h = coords
    else:
        xs, ys = coords[0::2], coords[1::2]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        w, h = max(xs) - min(xs), max(ys) - min(ys)
    return f"0 {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}"


DETECTOR_CLASSES = ("tile", "rack")


def detector_label_lines(image: Path) -> list[str]:
    """The detector's label lines for a rendered image: `labels_det/` (tile 0, rack 1) where the renderer
    wrote it, else the tile classes of `labels/` folded into one class `tile`."""
    det = image.parent.parent / "labels_det" / f"{image.stem}.txt"
    if det.parent.is_dir():
        lines = det.read_text().splitlines() if det.exists() else []
        return [line for line in lines if line.split() and line.split()[0] in {"0", "1"}]
    return tile_label_lines(image)


def tile_label_lines(image: Path) -> list[str]:
    """The tile classes of the image's `labels/` (none there: no tiles) folded into one class `tile`."""
    label = image.parent.parent / "labels" / f"{image.stem}.txt"
    lines = label.read_text().splitlines() if label.exists() else []
    return [c for c in (one_class_label(line) for line in lines) if c]


RACK_MARGIN = (0.06, 0.04, 0.06, 0.12)
"""A rack box around its labelled tiles, widened by these shares of a tile's width (left, right) and height
(top, bottom): the stand's ends and its foot show beyond the tiles standing on it."""


def real_label_lines(image: Path, racks: dict | None = None) -> list[str]:
    """Detector label lines for a labelled real photo (`../shared/real-*`: YOLO polygon tile labels in
    `labels/`, 53 classes): every label a `tile` box; with `racks` (its `racks.json`), each rack a `rack`
    box around its tiles' boxes widened by `RACK_MARGIN` (the photos label tiles, not racks)."""
    tiles = tile_label_lines(image)
    out = list(tiles)
    for rack in (racks or {}).get(image.name, {}).get("racks", []):
        boxes = []
        for index in rack.get("label_lines", []):
            _, cx, cy, w, h = (float(v) for v in tiles[index].split())
            boxes.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, w, h))
        if not boxes:
            continue
        tile_w = sum(b[4] for b in boxes) / len(boxes)
        tile_h = sum(b[5] for b in boxes) / len(boxes)
        x1 = max(0.0, min(b[0] for b in boxes) - RACK_MARGIN[0] * tile_w)
        y1 = max(0.0, min(b[1] for b in boxes) - RACK_MARGIN[1] * tile_h)
        x2 = min(1.0, max(b[2] for b in boxes) + RACK_MARGIN[2] * tile_w)
        y2 = min(1.0, max(b[3] for b in boxes) + RACK_MARGIN[3] * tile_h)
        out.append(f"1 {(x1 + x2) / 2:.6f} {(y1 + y2) / 2:.6f} {x2 - x1:.6f} {y2 - y1:.6f}")
    return out


def real_images(spec: str) -> tuple[list[Path], int, dict | None]:
    """`DIR[:COPIES][@PREFIX,PREFIX]` -> the photos of DIR/images (only those whose names start with one of
    the prefixes, if given), how many copies of each to train on, and DIR/racks.json if there is one."""
    import json

    prefixes: list[str] = []
    if "@" in spec:
        spec, chosen = spec.split("@", 1)
        prefixes = [p for p in chosen.split(",") if p]
    copies = 1
    if ":" in spec:
        spec, count = spec.rsplit(":", 1)
        copies = int(count)
    folder = Path(spec)
    photos = sorted(p for p in (folder / "images").iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if prefixes:
        photos = [p for p in photos if p.name.startswith(tuple(prefixes))]
    if not photos:
        raise SystemExit(f"no photos in {folder / 'images'} for {spec!r}")
    racks_file = folder / "racks.json"
    racks = json.loads(racks_file.read_text()) if racks_file.exists() else None
    return photos, copies, racks


def _add_real(out: Path, split: str, specs: list[str], start: int) -> int:
    """Link real photos (`real_images` specs) into `out/split` with `real_label_lines`; returns how many."""
    count = 0
    for spec in specs:
        photos, copies, racks = real_images(spec)
        for copy in range(copies):
            for photo in photos:
                stem = f"{start + count:06d}_real{copy}_{photo.stem}"
                (out / split / "images" / f"{stem}{photo.suffix}").symlink_to(photo.resolve())
                lines = real_label_lines(photo, racks)
                (out / split / "labels" / f"{stem}.txt").write_text("\n".join(lines) + "\n")
                count += 1
    return count


def build_dataset(
    scene_dirs: list[Path],
    out: Path,
    val_share: float,
    seed: int,
    real_train: list[str] | None = None,
    real_val: list[str] | None = None,
) -> Path:
    """Link rendered images into `out/{train,val}` with detector labels; returns the data.yaml path.
    `real_train`, `real_val`: labelled real photos (`real_images` specs) added to the training set, and
    making the validation set on their own when given (renders then all train: the best epoch is the one
    that reads real photos best)."""
    images: list[Path] = []
    for scene_dir in scene_dirs:
        found = sorted(p for p in (scene_dir / "images").iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not found:
            raise SystemExit(f"no images in {scene_dir / 'images'}")
        images.extend(found)
    rng = random.Random(seed)
    rng.shuffle(images)
    n_val = 0 if real_val else max(1, int(len(images) * val_share))
    splits = {"val": images[:n_val], "train": images[n_val:]}
    if out.exists():
        shutil.rmtree(out)
    for split, members in splits.items():
        (out / split / "images").mkdir(parents=True)
        (out / split / "labels").mkdir(parents=True)
        for index, image in enumerate(members):
            stem = f"{index:06d}_{image.stem}"
            (out / split / "images" / f"{stem}{image.suffix}").symlink_to(image.resolve())
            converted = detector_label_lines(image)
            (out / split / "labels" / f"{stem}.txt").write_text("\n".join(converted) + "\n")
    n_train = len(splits["train"]) + _add_real(out, "train", real_train or [], len(splits["train"]))
    n_val = len(splits["val"]) + _add_real(out, "val", real_val or [], 0)
    data_yaml = out / "data.yaml"
    names = "".join(f"  {i}: {name}\n" for i, name in enumerate(DETECTOR_CLASSES))
    data_yaml.write_text(f"path: {out.resolve()}\ntrain: train/images\nval: val/images\nnames:\n{names}")
    print(f"dataset: {n_train} train, {n_val} val images -> {data_yaml}", flush=True)
    return data_yaml


KEEP_NORM_MARKER = "keeps-norm-statistics"


def keeps_norm_statistics(out: Path, asked: bool, resume: bool) -> bool:
    """Whether this run keeps its batch norms' statistics, remembered in the run folder.

    ultralytics keeps no flag of ours in its checkpoint, and a run resumed without the flag would train on
    with the statistics moving again (the rack class lost in one epoch, lab notes twenty-seventh session),
    so the first start leaves a marker in `out` and a resume follows it whether or not the flag is given.
    """
    marker = out / KEEP_NORM_MARKER
    if asked:
        out.mkdir(parents=True, exist_ok=True)
        marker.write_text("batch norms kept in evaluation mode while training (--keep-norm-statistics)\n")
        return True
    if resume and marker.exists():
        print(f"batch norms keep their statistics, as this run started ({marker})", flush=True)
        return True
    return False


def train(args: argparse.Namespace) -> Path:
    """Train and return the path of the best weights."""
    offline_environment(Path(args.config_dir).resolve())
    import torch
    from ultralytics import YOLO

    torch.set_num_threads(args.threads)

    def limit_threads(_trainer: object) -> None:
        torch.set_num_threads(args.threads)

    def keep_norm_statistics(trainer: object) -> None:
        # The trainer puts the model in training mode at each epoch's start; this runs after it.
        for module in trainer.model.modules():  # type: ignore[attr-defined]
            if isinstance(module, torch.nn.BatchNorm2d):
                module.eval()

    keep_norms = keeps_norm_statistics(Path(args.out).resolve(), args.keep_norm_statistics, args.resume)

    def add_callbacks(model: object) -> None:
        for event in ("on_pretrain_routine_start", "on_train_start", "on_val_start", "on_train_epoch_start"):
            model.add_callback(event, limit_threads)  # type: ignore[attr-defined]
        if keep_norms:
            model.add_callback("on_train_batch_start", keep_norm_statistics)  # type: ignore[attr-defined]

    last = Path(args.out).resolve() / "train" / "weights" / "last.pt"
    started = time.time()
    if args.resume:
        # Carry on an interrupted run where its last epoch ended (same data, settings and schedule).
        if not last.exists():
            raise SystemExit(f"nothing to resume: {last} does not exist")
        model = YOLO(str(last))
        add_callbacks(model)
        model.train(resume=True)
        print(f"training took {(time.time() - started) / 60:.1f} min", flush=True)
        best = last.parent / "best.pt"
        return best if best.exists() else last
    data_yaml = build_dataset(
        [Path(d) for d in args.scenes], Path(args.out) / "dataset", args.val_share, args.seed,
        args.real_train, args.real_val,
    )
    model = YOLO(args.model)
    add_callbacks(model)
    # Fine-tuning our own checkpoint: ultralytics starts from its weights only when told so (with
    # pretrained=False it rebuilt the network from the checkpoint's yaml, untrained), and no warm-up.
    starts_from = fine_tune_weights(args.model)
    model.train(
        data=str(data_yaml),
        epochs=args.epochs,
        time=args.hours,
        warmup_epochs=0 if starts_from else 1,
        imgsz=args.imgsz or DEFAULT_IMGSZ,
        batch=args.batch,
        device="cpu",
        workers=args.workers,
        seed=args.seed,
        deterministic=True,
        pretrained=starts_from or False,
        amp=False,
        plots=False,
        cache="ram",
        project=str(Path(args.out).resolve()),
        name="train",
        exist_ok=True,
        verbose=True,
        patience=0,
        close_mosaic=2,
        # Tiles lie at any angle and scale; colour shifts cover lamp light vs daylight.
        degrees=args.degrees,
        scale=0.5,
        translate=0.1,
        fliplr=0.5,
        flipud=0.5,
        hsv_h=0.015,
        hsv_s=0.5,
        hsv_v=0.4,
        mosaic=1.0,
        val=True,
        freeze=args.freeze,
        save_period=args.save_period,
        optimizer=args.optimizer,
        lr0=args.lr0,
    )
    print(f"training took {(time.time() - started) / 60:.1f} min", flush=True)
    weights = Path(args.out).resolve() / "train" / "weights"
    best = weights / "best.pt"
    return best if best.exists() else weights / "last.pt"


def fine_tune_weights(model: str) -> str | None:
    """The checkpoint to start from when `--model` is one (`.pt`), None for a yaml built from scratch."""
    return str(Path(model).resolve()) if model.endswith(".pt") else None


def trained_imgsz(train_args: dict | None, default: int = DEFAULT_IMGSZ) -> int:
    """The input size a checkpoint was trained at (ultralytics keeps its `train_args`)."""
    size = (train_args or {}).get("imgsz", default)
    return int(size[0] if isinstance(size, list | tuple) else size)


def export(weights: Path, imgsz: int | None, target: Path, config_dir: Path, dynamic: bool = False) -> Path:
    """Export `weights` to an ONNX file at `target`, at `imgsz` or else at the size the weights were trained
    at (a resumed run's export once fell back to the default size instead); `dynamic`: any input height and
    width (whole strides), `imgsz` then only the size recorded in its metadata (`vision.detector`)."""
    offline_environment(config_dir.resolve())
    from ultralytics import YOLO

    model = YOLO(str(weights))
    if imgsz is None:
        imgsz = trained_imgsz((getattr(model, "ckpt", None) or {}).get("train_args"))
    exported = Path(model.export(format="onnx", imgsz=imgsz, simplify=False, opset=17, dynamic=dynamic))
    target.parent.mkdir(parents=True, exist_ok=True)
    if exported.resolve() != target.resolve():
        shutil.copyfile(exported, target)
    print(f"exported {weights} -> {target} ({target.stat().st_size / 1e6:.1f} MB)", flush=True)
    return target


def stamp_rack_confidence(target: Path, threshold: float) -> None:
    """Write the rack threshold chosen for these weights into the ONNX file's metadata (`rack_confidence`,
    read by `vision.detector.TileDetector`)."""
    import onnx

    if not 0.0 < threshold < 1.0:
        raise SystemExit(f"--rack-confidence must lie between 0 and 1, not {threshold}")
    model = onnx.load(str(target))
    kept = [p for p in model.metadata_props if p.key != "rack_confidence"]
    del model.metadata_props[:]
    model.metadata_props.extend(kept)
    entry = model.metadata_props.add()
    entry.key, entry.value = "rack_confidence", f"{threshold:g}"
    onnx.save(model, str(target))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m vision.training.detector", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--scenes", nargs="+", default=[], help="renderer output folders (images/, labels_det/ or labels/)"
    )
    parser.add_argument("--resume", action="store_true", help="carry on the run in --out from its last.pt")
    parser.add_argument("--out", default="runs/detector", help="work folder for the dataset and the run")
    parser.add_argument("--model", default="yolo11n.yaml", help="ultralytics model yaml (built from scratch)")
    parser.add_argument("--epochs", type=int, default=35)
    parser.add_argument(
        "--hours", type=float, default=None, help="train for this long instead (epochs then follow the clock)"
    )
    parser.add_argument(
        "--imgsz", type=int, default=None,
        help=f"input size (default: {DEFAULT_IMGSZ} to train; a checkpoint's own size to resume or export)",
    )
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--degrees",
        type=float,
        default=0.0,
        help="rotation augmentation (loosens boxes; the renderer rotates tiles)",
    )
    parser.add_argument("--freeze", type=int, default=None,
                        help="keep the first N layers as they are (yolo11n: 10 is the backbone)")
    parser.add_argument("--keep-norm-statistics", action="store_true",
                        help="batch norms keep the statistics they start with (fine-tuning a recovered "
                             "checkpoint); remembered in --out, so --resume keeps them too")
    parser.add_argument("--optimizer", default="auto",
                        help="ultralytics optimizer ('auto' picks one and its learning rate itself)")
    parser.add_argument("--lr0", type=float, default=0.01,
                        help="initial learning rate (used unless --optimizer is 'auto')")
    parser.add_argument("--val-share", type=float, default=0.05)
    parser.add_argument("--real-train", nargs="*", default=[], metavar="DIR[:COPIES][@PREFIXES]",
                        help="labelled real photos to train on beside the renders (images/, labels/, "
                             "racks.json), each COPIES times, only names starting with a PREFIX")
    parser.add_argument("--real-val", nargs="*", default=[], metavar="DIR[@PREFIXES]",
                        help="validate on these real photos instead of a share of the renders")
    parser.add_argument("--save-period", type=int, default=-1,
                        help="keep every N-th epoch's weights as epochN.pt (-1: only last and best)")
    parser.add_argument("--config-dir", default=".yolo", help="YOLO_CONFIG_DIR (settings and font)")
    parser.add_argument("--export", default="models/tile_detector.onnx", help="where to write the ONNX model")
    parser.add_argument("--export-only", metavar="WEIGHTS", help="skip training; export these weights")
    parser.add_argument("--rack-confidence", type=float, default=None,
                        help="the rack threshold chosen for these weights, written into the exported file "
                             "(default: none written, the reader's DEFAULT_RACK_CONFIDENCE)")
    parser.add_argument("--dynamic", action="store_true",
                        help="export for any input height and width (whole strides), not a fixed square")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not (args.scenes or args.resume or args.export_only):
        parser.error("--scenes is needed to train (or --resume, or --export-only)")
    weights = Path(args.export_only) if args.export_only else train(args)
    target = export(weights, args.imgsz, Path(args.export), Path(args.config_dir), dynamic=args.dynamic)
    if args.rack_confidence is not None:
        stamp_rack_confidence(target, args.rack_confidence)
    return 0


if __name__ == "__main__":
    sys.exit(main())
