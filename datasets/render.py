"""Write N rendered scenes, reproducibly from a seed, in parallel.

    python -m datasets.render --out data/train --count 5000 --seed 1 [--workers 2] [--size 1024]

Writes `images/NNNNNN.jpg`, `labels/NNNNNN.txt` (YOLO: `class cx cy w h`, normalised, classes in
`assistant.tiles.CLASS_NAMES` order), `scenes/NNNNNN.json` (ground truth), `data.yaml` (for ultralytics)
and `contact_sheet.png` (the first scenes with their boxes, for a person to look at).
Scene i depends only on (seed, i), not on the number of workers.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from assistant.tiles import CLASS_NAMES
from datasets.glyphs import available_fonts
from datasets.scene import SCENE_KINDS, SceneTruth, render_scene
from datasets.tile_face import VARIANTS


def scene_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of scene `index` in the run with `seed`."""
    return np.random.default_rng(np.random.SeedSequence([seed, index]))


def render_indexed(
    seed: int, index: int, long_side: int = 1024, kind: str | None = None, variants: str = "train",
    harsh_light: float = 0.0,
) -> tuple[np.ndarray, SceneTruth, int]:
    """Scene `index` of run `seed`: (image, truth, JPEG quality to save it with)."""
    rng = scene_rng(seed, index)
    img, truth = render_scene(rng, long_side=long_side, kind=kind, variants=variants, harsh_light=harsh_light)
    quality = int(rng.integers(55, 96))
    return img, truth, quality


def save_scene(out: Path, index: int, img: np.ndarray, truth: SceneTruth, quality: int) -> None:
    name = f"{index:06d}"
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError(f"could not encode scene {name} as JPEG")
    (out / "images" / f"{name}.jpg").write_bytes(buf.tobytes())
    lines = truth.yolo_lines()
    (out / "labels" / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    det = truth.det_lines()
    (out / "labels_det" / f"{name}.txt").write_text("\n".join(det) + ("\n" if det else ""))
    (out / "scenes" / f"{name}.json").write_text(json.dumps(truth.to_json(), separators=(",", ":")))


Job = tuple[str, int, int, int, str | None, str, float]


def _work(job: Job) -> tuple[int, int]:
    out, seed, index, long_side, kind, variants, harsh_light = job
    cv2.setNumThreads(1)
    img, truth, quality = render_indexed(seed, index, long_side, kind, variants, harsh_light)
    save_scene(Path(out), index, img, truth, quality)
    return index, sum(t.labelled for t in truth.tiles)


def _progress(done: int, total: int, started: float) -> None:
    elapsed = time.monotonic() - started
    rate = done / elapsed if elapsed > 0 else 0.0
    width = 30
    filled = int(width * done / max(1, total))
    eta = (total - done) / rate if rate > 0 else 0.0
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {rate:.2f} scenes/s eta {eta:.0f}s"
    )
    sys.stderr.flush()


def _run_jobs(jobs: list[Job], workers: int) -> Iterator[tuple[int, int]]:
    if workers <= 1:
        for job in jobs:
            yield _work(job)
        return
    ctx = mp.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap_unordered(_work, jobs, chunksize=1)


DET_NAMES: tuple[str, ...] = ("tile", "rack")
"""The detector's classes in `labels_det/`: 0 a tile, 1 a rack (the whole stand, both tiers)."""


def write_data_yaml(out: Path) -> None:
    """`data.yaml`: the 53 tile classes, labels in `labels/`."""
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(CLASS_NAMES))
    (out / "data.yaml").write_text(
        f"# Rendered by datasets.render; classes in assistant.tiles.CLASS_NAMES order.\n"
        f"path: {out.resolve()}\ntrain: images\nval: images\nnames:\n{names}\n"
    )


def write_det_yaml(out: Path) -> None:
    """`data_det.yaml`: the detector's two classes (tile, rack), labels in `labels_det/`.

    Ultralytics finds an image's labels by replacing `/images/` with `/labels/` in its path and resolves
    the folders named in the yaml (following links), so the detector set is `det/images.txt`, a list of
    `det/images/*.jpg` where `det/images` links to `../images` and `det/labels` to `../labels_det`. The
    list holds every image in `images/` when the run ends (runs extended with `--start` included)."""
    det = out / "det"
    det.mkdir(exist_ok=True)
    for name, target in (("images", "../images"), ("labels", "../labels_det")):
        link = det / name
        if link.is_symlink():
            continue
        try:
            link.symlink_to(target, target_is_directory=True)
        except FileExistsError:  # another run into the same folder made it meanwhile
            continue
        except OSError as exc:  # a file system without links: the lead's trainer can point at labels_det
            print(f"note: no detector dataset links in {str(det)!r} ({exc}); labels are in labels_det/",
                  file=sys.stderr)
            return
    images = sorted(p.name for p in (out / "images").glob("*.jpg"))
    (det / "images.txt").write_text("".join(f"./images/{n}\n" for n in images))
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(DET_NAMES))
    (out / "data_det.yaml").write_text(
        "# Rendered by datasets.render: the detector's classes, labels in labels_det/ (via det/).\n"
        f"path: {out.resolve()}\ntrain: det/images.txt\nval: det/images.txt\nnames:\n{names}\n"
    )


def contact_sheet(out: Path, indices: list[int], columns: int = 4, cell: int = 480) -> Path:
    """A grid of the given scenes with their labelled boxes, written to `out/contact_sheet.png`."""
    cells = []
    for index in indices:
        name = f"{index:06d}"
        img = cv2.imread(str(out / "images" / f"{name}.jpg"))
        scene = json.loads((out / "scenes" / f"{name}.json").read_text())
        for t in scene["tiles"]:
            if not t["labelled"]:
                continue
            x1, y1, x2, y2 = (int(round(v)) for v in t["box"])
            color = (0, 200, 0) if not t["on_rack"] else (255, 160, 0)
            cv2.rectangle(img, (x1, y1), (x2, y2), color, 2)
            cv2.putText(
                img,
                t["token"],
                (x1 + 2, y1 + 14),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.5,
                (255, 0, 255),
                1,
                cv2.LINE_AA,
            )
        for box, ok in zip(scene.get("rack_boxes", []), scene.get("rack_labelled", []), strict=False):
            x1, y1, x2, y2 = (int(round(v)) for v in box)
            cv2.rectangle(img, (x1, y1), (x2, y2), (255, 60, 60) if ok else (120, 60, 60), 3)
        for obj in scene.get("objects", []):
            x1, y1, x2, y2 = (int(round(v)) for v in obj["box"])
            cv2.rectangle(img, (x1, y1), (x2, y2), (0, 0, 255), 2)
            cv2.putText(img, obj["kind"], (x1 + 2, y2 - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 255), 1,
                        cv2.LINE_AA)
        cv2.putText(img, f"{scene.get('kind', '')} {scene.get('surface', '')}", (8, 28),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 255, 255), 2, cv2.LINE_AA)
        scale = cell / max(img.shape[:2])
        img = cv2.resize(
            img, (int(img.shape[1] * scale), int(img.shape[0] * scale)), interpolation=cv2.INTER_AREA
        )
        canvas = np.full((cell, cell, 3), 40, np.uint8)
        canvas[: img.shape[0], : img.shape[1]] = img
        cells.append(canvas)
    while len(cells) % columns:
        cells.append(np.full((cell, cell, 3), 40, np.uint8))
    rows = [np.hstack(cells[i : i + columns]) for i in range(0, len(cells), columns)]
    path = out / "contact_sheet.png"
    cv2.imwrite(str(path), np.vstack(rows))
    return path


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m datasets.render", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, type=Path, help="output folder (created)")
    p.add_argument("--count", required=True, type=int, help="number of scenes")
    p.add_argument("--seed", type=int, default=0, help="run seed; scene i depends only on (seed, i)")
    p.add_argument("--start", type=int, default=0, help="index of the first scene (to extend a run)")
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--size", type=int, default=1024, help="long side of the images in pixels (default 1024)")
    p.add_argument(
        "--kind", choices=SCENE_KINDS, default=None, help="only this kind of scene (default: a mix)"
    )
    p.add_argument(
        "--variants",
        choices=VARIANTS,
        default="train",
        help="train (default): editions and cloths for training; holdout: the reserved ones only",
    )
    p.add_argument(
        "--harsh-light",
        type=float,
        default=0.0,
        help="chance of each light a phone leaves uncorrected: a dim room, a veil, a strong cast (0-1; "
        "default 0; the detector's training renders since the thirty-fourth session: 0.1)",
    )
    p.add_argument("--sheet", type=int, default=16, help="scenes on the contact sheet (0: none)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    problems = []
    if args.count < 1:
        problems.append(f"--count must be at least 1, got {args.count}")
    if args.workers < 1:
        problems.append(f"--workers must be at least 1, got {args.workers}")
    if not 128 <= args.size <= 4096:
        problems.append(f"--size must be 128-4096 pixels, got {args.size}")
    if args.start < 0 or args.seed < 0:
        problems.append("--start and --seed must not be negative")
    if not 0.0 <= args.harsh_light <= 1.0:
        problems.append(f"--harsh-light must be 0-1, got {args.harsh_light}")
    if problems:
        print("error: " + "; ".join(problems), file=sys.stderr)
        return 2
    out: Path = args.out
    try:
        for sub in ("images", "labels", "labels_det", "scenes"):
            (out / sub).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: cannot create output folder {str(out)!r}: {exc}", file=sys.stderr)
        return 2
    write_data_yaml(out)
    indices = list(range(args.start, args.start + args.count))
    jobs = [(str(out), args.seed, i, args.size, args.kind, args.variants, args.harsh_light) for i in indices]
    started = time.monotonic()
    labelled = 0
    for done, (_, n) in enumerate(_run_jobs(jobs, args.workers), start=1):
        labelled += n
        if not args.quiet:
            _progress(done, len(jobs), started)
    elapsed = time.monotonic() - started
    if not args.quiet:
        sys.stderr.write("\n")
    write_det_yaml(out)
    if args.sheet > 0:
        contact_sheet(out, indices[: args.sheet])
    print(
        f"wrote {len(jobs)} scenes ({labelled} labelled tiles) to {out} in {elapsed:.1f}s "
        f"({len(jobs) / elapsed:.2f} scenes/s, {args.workers} workers)"
    )
    print(f"numeral fonts on this machine: {', '.join(font_names())}")
    return 0


def font_names() -> list[str]:
    """The numeral fonts the renderer draws from here, by file name (or fallback): the same seed renders
    other pixels where they differ (Debian's chromium brings fonts-liberation along)."""
    return [Path(key).name for key in available_fonts()]


if __name__ == "__main__":
    raise SystemExit(main())
