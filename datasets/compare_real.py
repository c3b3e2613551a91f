"""Side-by-side check of rendered scenes against real photos: a sheet of crops and simple statistics.

    python -m datasets.compare_real --real ../shared/real-dev --out out/compare [--scenes 40] [--seed 7]

`--real` is a folder with `images/` and YOLO polygon `labels/` (class x1 y1 x2 y2 ..., normalised) in the
`CLASS_NAMES` order. Writes `sheet.png` (for a sample of classes: real crops left, rendered crops right),
`stats.json` and `stats.md` (tile size in pixels, tile and background brightness and saturation, ink hue,
saturation and value per colour), and prints the table. Real photos are read, never copied.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from assistant.tiles import CLASS_NAMES
from datasets.render import render_indexed


@dataclass
class Crop:
    class_id: int
    image: np.ndarray  # BGR uint8
    size_px: float  # sqrt of the box area in the source image


@dataclass
class SourceStats:
    crops: list[Crop]
    background: list[np.ndarray]  # HSV pixels (n, 3) outside tile boxes, per image


def _class_family(class_id: int) -> str:
    name = CLASS_NAMES[class_id]
    return "joker" if name == "joker" else name.split("_")[0]


def load_real(folder: Path, limit: int | None = None) -> SourceStats:
    """Crops of every labelled tile in a YOLO-polygon folder.

    Raises:
        FileNotFoundError: the folder has no `images/` with labelled JPEG or PNG files.
    """
    images = sorted(p for p in (folder / "images").glob("*") if p.suffix.lower() in {".jpg", ".jpeg", ".png"})
    if not images:
        raise FileNotFoundError(f"no images under {str(folder / 'images')!r}")
    crops: list[Crop] = []
    background = []
    for path in images[:limit]:
        label = folder / "labels" / (path.stem + ".txt")
        img = cv2.imread(str(path))
        if img is None or not label.exists():
            continue
        h, w = img.shape[:2]
        boxes = []
        for line in label.read_text().splitlines():
            parts = line.split()
            if len(parts) < 5:
                continue
            cls = int(parts[0])
            coords = np.array([float(v) for v in parts[1:]]).reshape(-1, 2) * [w, h]
            if len(coords) == 2:  # a plain YOLO box: cx cy w h
                (cx, cy), (bw, bh) = coords
                coords = np.array([[cx - bw / 2, cy - bh / 2], [cx + bw / 2, cy + bh / 2]])
            x1, y1 = np.clip(coords.min(axis=0), 0, [w, h]).astype(int)
            x2, y2 = np.clip(coords.max(axis=0), 0, [w, h]).astype(int)
            if x2 - x1 < 4 or y2 - y1 < 4 or not 0 <= cls < len(CLASS_NAMES):
                continue
            boxes.append((x1, y1, x2, y2))
            crops.append(Crop(cls, img[y1:y2, x1:x2].copy(), float(np.sqrt((x2 - x1) * (y2 - y1)))))
        background.append(_background_pixels(img, boxes))
    return SourceStats(crops, background)


def load_rendered(scenes: int, seed: int, long_side: int = 1024) -> SourceStats:
    crops: list[Crop] = []
    background = []
    for index in range(scenes):
        img, truth, quality = render_indexed(seed, index, long_side)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img
        boxes = []
        for t in truth.tiles:
            if not t.labelled:
                continue
            x1, y1, x2, y2 = (int(round(v)) for v in t.box)
            boxes.append((x1, y1, x2, y2))
            if t.visible_fraction >= 0.9 and x2 - x1 >= 4 and y2 - y1 >= 4:
                crops.append(
                    Crop(t.class_id, img[y1:y2, x1:x2].copy(), float(np.sqrt((x2 - x1) * (y2 - y1))))
                )
        background.append(_background_pixels(img, boxes))
    return SourceStats(crops, background)


def _background_pixels(img: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    mask = np.ones(img.shape[:2], bool)
    for x1, y1, x2, y2 in boxes:
        pad = max(2, (x2 - x1) // 3)
        mask[max(0, y1 - pad) : y2 + pad, max(0, x1 - pad) : x2 + pad] = False
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    pixels = hsv[mask]
    step = max(1, len(pixels) // 5000)
    return pixels[::step]


def crop_measures(crop: np.ndarray) -> dict[str, float] | None:
    """Tile body and ink colour of one crop: HSV with hue in degrees, S and V in 0-1."""
    h, w = crop.shape[:2]
    inner = crop[int(h * 0.15) : int(h * 0.85), int(w * 0.15) : int(w * 0.85)]
    if inner.size == 0:
        return None
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    hue, sat, val = hsv[:, 0] * 2.0, hsv[:, 1] / 255.0, hsv[:, 2] / 255.0
    body = val >= np.percentile(val, 70)
    body_v, body_s = float(np.median(val[body])), float(np.median(sat[body]))
    ink = (val < body_v * 0.72) | (sat > body_s + 0.3)
    if ink.sum() < 5:
        return None
    angles = np.radians(hue[ink])
    ink_hue = float(np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) % 360)
    return {
        "body_value": body_v,
        "body_saturation": body_s,
        "body_hue": float(np.median(hue[body])),
        "ink_hue": ink_hue,
        "ink_saturation": float(np.median(sat[ink])),
        "ink_value": float(np.median(val[ink])),
        "ink_fraction": float(ink.mean()),
    }


def summarize(source: SourceStats) -> dict[str, object]:
    sizes = np.array([c.size_px for c in source.crops]) if source.crops else np.zeros(1)
    per_family: dict[str, list[dict[str, float]]] = defaultdict(list)
    for crop in source.crops:
        m = crop_measures(crop.image)
        if m is not None:
            per_family[_class_family(crop.class_id)].append(m)
    bg = np.concatenate(source.background) if source.background else np.zeros((1, 3))
    out: dict[str, object] = {
        "tiles": len(source.crops),
        "tile_size_px_p10_p50_p90": [round(float(np.percentile(sizes, q)), 1) for q in (10, 50, 90)],
        "background_value": round(float(np.median(bg[:, 2])) / 255, 3),
        "background_saturation": round(float(np.median(bg[:, 1])) / 255, 3),
    }
    all_m = [m for ms in per_family.values() for m in ms]
    for key in ("body_value", "body_saturation", "body_hue"):
        out[key] = round(float(np.median([m[key] for m in all_m])), 3) if all_m else None
    inks = {}
    for family, ms in sorted(per_family.items()):
        hues = np.radians([m["ink_hue"] for m in ms])
        inks[family] = {
            "n": len(ms),
            "hue": round(float(np.degrees(np.arctan2(np.sin(hues).mean(), np.cos(hues).mean())) % 360), 1),
            "saturation": round(float(np.median([m["ink_saturation"] for m in ms])), 3),
            "value": round(float(np.median([m["ink_value"] for m in ms])), 3),
            "ink_fraction": round(float(np.median([m["ink_fraction"] for m in ms])), 3),
        }
    out["ink"] = inks
    return out


def sheet(
    real: SourceStats,
    rendered: SourceStats,
    rng: np.random.Generator,
    per_class: int = 3,
    classes: int = 18,
    cell: int = 72,
) -> np.ndarray:
    """Rows of one class each: `per_class` real crops, a gap, `per_class` rendered crops."""
    by_real: dict[int, list[Crop]] = defaultdict(list)
    by_render: dict[int, list[Crop]] = defaultdict(list)
    for c in real.crops:
        by_real[c.class_id].append(c)
    for c in rendered.crops:
        by_render[c.class_id].append(c)
    common = sorted(set(by_real) & set(by_render))
    chosen = (
        sorted(rng.choice(common, size=min(classes, len(common)), replace=False).tolist()) if common else []
    )
    rows = []
    for cls in chosen:
        tiles = []
        for group in (by_real[cls], by_render[cls]):
            picks = rng.choice(len(group), size=min(per_class, len(group)), replace=False)
            cells = [_fit(group[int(i)].image, cell) for i in picks]
            cells += [np.full((cell, cell, 3), 30, np.uint8)] * (per_class - len(cells))
            tiles.append(np.hstack(cells))
        label = np.full((cell, 110, 3), 255, np.uint8)
        cv2.putText(
            label,
            CLASS_NAMES[cls],
            (4, cell // 2 + 5),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            (0, 0, 0),
            1,
            cv2.LINE_AA,
        )
        rows.append(np.hstack([label, tiles[0], np.full((cell, 12, 3), 255, np.uint8), tiles[1]]))
    if not rows:
        return np.full((cell, cell, 3), 255, np.uint8)
    header = np.full((24, rows[0].shape[1], 3), 255, np.uint8)
    cv2.putText(header, "real", (110 + 4, 17), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(
        header,
        "rendered",
        (110 + per_class * cell + 16, 17),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.55,
        (0, 0, 0),
        1,
        cv2.LINE_AA,
    )
    return np.vstack([header, *rows])


def _fit(img: np.ndarray, cell: int) -> np.ndarray:
    scale = cell / max(img.shape[:2])
    small = cv2.resize(
        img,
        (max(1, int(img.shape[1] * scale)), max(1, int(img.shape[0] * scale))),
        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
    )
    canvas = np.full((cell, cell, 3), 30, np.uint8)
    y, x = (cell - small.shape[0]) // 2, (cell - small.shape[1]) // 2
    canvas[y : y + small.shape[0], x : x + small.shape[1]] = small
    return canvas


def markdown_table(real: dict[str, object], rendered: dict[str, object]) -> str:
    lines = ["| measure | real | rendered |", "|---|---|---|"]
    for key in (
        "tiles",
        "tile_size_px_p10_p50_p90",
        "body_value",
        "body_saturation",
        "body_hue",
        "background_value",
        "background_saturation",
    ):
        lines.append(f"| {key} | {real.get(key)} | {rendered.get(key)} |")
    real_ink = real.get("ink", {})
    render_ink = rendered.get("ink", {})
    assert isinstance(real_ink, dict) and isinstance(render_ink, dict)
    for family in sorted(set(real_ink) | set(render_ink)):
        for key in ("hue", "saturation", "value", "ink_fraction"):
            a = real_ink.get(family, {}).get(key)
            b = render_ink.get(family, {}).get(key)
            lines.append(f"| ink {family} {key} | {a} | {b} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m datasets.compare_real", description=__doc__.split("\n\n")[0])
    p.add_argument("--real", required=True, type=Path, help="folder with images/ and labels/ (YOLO polygons)")
    p.add_argument("--out", required=True, type=Path, help="folder for sheet.png, stats.json, stats.md")
    p.add_argument("--scenes", type=int, default=40, help="rendered scenes to compare (default 40)")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    if args.scenes < 1:
        print(f"error: --scenes must be at least 1, got {args.scenes}", file=sys.stderr)
        return 2
    try:
        real = load_real(args.real)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rendered = load_rendered(args.scenes, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    cv2.imwrite(str(args.out / "sheet.png"), sheet(real, rendered, rng))
    stats = {"real": summarize(real), "rendered": summarize(rendered)}
    (args.out / "stats.json").write_text(json.dumps(stats, indent=2))
    table = markdown_table(stats["real"], stats["rendered"])
    (args.out / "stats.md").write_text(table + "\n")
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
