"""Training scenes of real tiles laid anew: the tiles of labelled photos cut out and laid in rows on other
tables, at the sizes a camera further up sees them.

    python -m datasets.real_tiles OUT --photos DIR [DIR ...] --count N --seed S [--long-side 1000]
        [--tile-px 22 50]

Each `DIR` holds `images/`, `labels/` (YOLO polygons or boxes) and `data.yaml` (the class names), as
`datasets.photo_game` reads them. Every labelled tile that lies whole inside its photo is cut out upright
(`cut_tiles`: its smallest enclosing rectangle turned so the tile's long side runs up the cut, its own
polygon as the cut's mask). A scene is a table (one of the photos with its tiles taken off,
`photo_game.empty_table`, zoomed out around itself; or a rendered surface, `backgrounds.table_surface`)
with rows of 1-6 cut tiles from any photo laid side by side as sets lie, all at one height drawn from
`--tile-px` (the tiles' height at the long side; 22-50 px at 1000 px is 7-16 px in the detector's 320 px
input), rows turned alike with a little play, a third of them upside down, a soft shadow under each tile,
then the whole frame's light, blur, noise and JPEG quality drawn. Writes `OUT/images/NNNNNN.jpg`,
`OUT/labels/NNNNNN.txt` (polygons, normalised, classes in `assistant.tiles.CLASS_NAMES` order) and
`OUT/data.yaml`: a folder `python -m vision.training.detector --real-train OUT` takes as it is.

Why (issue 37): the outside check's photos show tiles about 13 px tall in the detector's input, where the
reader leans on four extra looks. Renders have tiles of that size, but their pixels are drawn; real ones were
only the same 46 photos zoomed out, whose copies did not teach the one look (twenty-fourth session). Cut and
laid anew, each real tile meets new neighbours, tables and sizes. Scene i depends only on (seed, i) and the
photos.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from assistant.tiles import Tile, class_id
from datasets.backgrounds import pick_surface, table_surface
from datasets.photo_game import Photo, PhotoError, empty_table, load_photo, photo_folder, zoomed_out
from datasets.render import scene_rng, write_data_yaml

CUT_MARGIN = 0.06
"""Table kept around a tile's rectangle in its cut, as a share of its height (the mask leaves it out)."""

EDGE_MARGIN = 2.0
"""A tile whose polygon comes within this many pixels of its photo's edge is cut by the frame: not cut out."""

ASPECTS = (1.15, 1.75)
"""Height over width of the tiles cut out; outside it a label is no whole upright tile."""

PHOTO_TABLES = 0.5
"""Share of scenes laid on a photo's own empty table (the rest on a rendered surface)."""

UPSIDE_DOWN = 0.3
"""Share of rows turned half round (facing the player across the table)."""


@dataclass
class TileCut:
    """One real tile cut out upright: its pixels, its mask (0-1) and its polygon in the cut's pixels."""

    tile: Tile
    image: np.ndarray  # (h, w, 3) float32 0-1, BGR
    mask: np.ndarray  # (h, w) float32 0-1
    polygon: np.ndarray  # (k, 2)
    height: float  # the tile's height in the cut's pixels
    width: float
    source: str  # the photo's file name


def cut_tiles(photo: Photo) -> list[TileCut]:
    """The photo's whole tiles cut out upright (`TileCut`), in label order."""
    w, h = photo.size
    image = photo.image.astype(np.float32) / 255.0
    cuts = []
    for t in photo.tiles:
        pts = t.polygon
        if (pts.min() < EDGE_MARGIN or pts[:, 0].max() > w - 1 - EDGE_MARGIN
                or pts[:, 1].max() > h - 1 - EDGE_MARGIN):
            continue
        if not ASPECTS[0] <= t.height / max(t.width, 1e-6) <= ASPECTS[1]:
            continue
        margin = CUT_MARGIN * t.height
        cut_w, cut_h = int(math.ceil(t.width + 2 * margin)), int(math.ceil(t.height + 2 * margin))
        # The affine map taking the tile's centre to the cut's centre, `right` to +x and `up` to -y.
        right, down = t.right, -t.up
        linear = np.array([right, down])
        offset = np.array([cut_w / 2, cut_h / 2]) - linear @ t.centre
        matrix = np.hstack([linear, offset[:, None]])
        pixels = cv2.warpAffine(image, matrix, (cut_w, cut_h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT_101)
        polygon = pts @ linear.T + offset
        mask = np.zeros((cut_h, cut_w), np.uint8)
        cv2.fillPoly(mask, [np.round(polygon * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
        cuts.append(TileCut(t.tile, pixels, mask.astype(np.float32) / 255.0, polygon, t.height, t.width,
                            photo.name))
    return cuts


@dataclass
class Placed:
    """A cut laid on the scene: where its centre lies, the turn (radians, counter-clockwise on screen) and the
    scale from the cut's pixels to the scene's."""

    cut: TileCut
    centre: np.ndarray
    angle: float
    scale: float


def _row_angle(rng: np.random.Generator, scene_angle: float) -> float:
    angle = scene_angle + rng.normal(0, math.radians(3))
    if rng.random() < 0.15:
        angle += math.pi / 2  # a row laid across the others
    if rng.random() < UPSIDE_DOWN:
        angle += math.pi
    return angle


def _scene_angle(rng: np.random.Generator) -> float:
    roll = rng.random()
    if roll < 0.5:
        return 0.0
    if roll < 0.8:
        return math.radians(rng.uniform(-25, 25))
    return math.radians(rng.uniform(-180, 180))


def lay_rows(rng: np.random.Generator, cuts: Sequence[TileCut], size: tuple[int, int], tile_px: float,
             rows: int) -> list[Placed]:
    """Up to `rows` rows of 1-6 cuts each, none overlapping another or running off the frame (a row that
    finds no room in 30 tries is left out)."""
    width, height = size
    free = np.full((height, width), 255, np.uint8)
    scene_angle = _scene_angle(rng)
    placed: list[Placed] = []
    for _ in range(rows):
        count = int(rng.choice([1, 2, 3, 3, 4, 4, 5, 6]))
        members = [cuts[int(i)] for i in rng.integers(0, len(cuts), count)]
        angle = _row_angle(rng, scene_angle)
        along = np.array([math.cos(angle), -math.sin(angle)])  # screen coordinates: y down
        scales = [tile_px * rng.uniform(0.95, 1.05) / c.height for c in members]
        widths = [c.width * s for c, s in zip(members, scales, strict=True)]
        gaps = rng.uniform(0.0, 0.12, count) * tile_px * 0.7
        offsets = np.cumsum([0.0] + [(widths[i] + widths[i + 1]) / 2 + gaps[i] for i in range(count - 1)])
        offsets -= offsets[-1] / 2
        half_length = offsets[-1] + widths[-1] / 2 + tile_px * 0.3
        half_across = tile_px * 0.8
        corners = np.array([[-half_length, -half_across], [half_length, -half_across],
                            [half_length, half_across], [-half_length, half_across]])
        across = np.array([-along[1], along[0]])
        for _try in range(30):
            centre = rng.uniform([0, 0], [width, height])
            quad = centre + corners[:, :1] * along + corners[:, 1:] * across
            if quad.min() < 0 or quad[:, 0].max() >= width or quad[:, 1].max() >= height:
                continue
            region = np.zeros_like(free)
            cv2.fillConvexPoly(region, np.round(quad).astype(np.int32), 255)
            if np.any(region & ~free):
                continue
            free &= ~region
            jitter = rng.normal(0, 0.03 * tile_px, (count, 2))
            for member, scale, offset, shift in zip(members, scales, offsets, jitter, strict=True):
                tilt = angle + rng.normal(0, math.radians(1.5))
                placed.append(Placed(member, centre + offset * along + shift, tilt, scale))
            break
    return placed


def _affine(p: Placed, cut_size: tuple[int, int]) -> np.ndarray:
    """The map from the scaled cut's pixels to the scene's: its centre to `p.centre`, turned by `p.angle`."""
    cw, ch = cut_size
    c, s = math.cos(p.angle), math.sin(p.angle)
    rotation = np.array([[c, s], [-s, c]])  # counter-clockwise on a y-down screen
    offset = p.centre - rotation @ np.array([cw / 2, ch / 2])
    return np.hstack([rotation, offset[:, None]])


@dataclass
class _Layer:
    """A cut warped onto the scene, kept only over `window` (x0, y0, x1, y1): the part of the frame it can
    cover, with room for its shadow's shift."""

    pixels: np.ndarray
    mask: np.ndarray
    window: tuple[int, int, int, int]
    tile_px: float


def _warped(image: np.ndarray, matrix: np.ndarray, window: tuple[int, int, int, int]) -> np.ndarray:
    """`image` warped by `matrix` onto the scene, only over `window`."""
    x0, y0, x1, y1 = window
    shifted = matrix - np.array([[0, 0, x0], [0, 0, y0]], np.float64)
    return cv2.warpAffine(image, shifted, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)


def compose(rng: np.random.Generator, table: np.ndarray, placed: Sequence[Placed]
            ) -> tuple[np.ndarray, list[tuple[Tile, np.ndarray]]]:
    """The table (float32 0-1) with the cuts laid on it, shadows under them; returns the scene and each
    tile's polygon in its pixels. Each cut is warped only over the window of the frame it covers."""
    height, width = table.shape[:2]
    scene = table.copy()
    light = rng.uniform(-1, 1, 2)
    light /= max(float(np.linalg.norm(light)), 1e-6)
    labels = []
    layers = []
    for p in placed:
        cut = p.cut
        cw = max(2, round(cut.image.shape[1] * p.scale))
        ch = max(2, round(cut.image.shape[0] * p.scale))
        pixels = cv2.resize(cut.image, (cw, ch), interpolation=cv2.INTER_AREA)
        mask = cv2.resize(cut.mask, (cw, ch), interpolation=cv2.INTER_AREA)
        matrix = _affine(p, (cw, ch))
        corners = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float64) @ matrix[:, :2].T + matrix[:, 2]
        tile_px = p.scale * cut.height
        margin = int(math.ceil(0.06 * tile_px)) + 2  # the shadow's shift, and the interpolation's pixel
        x0, y0 = np.floor(corners.min(axis=0)).astype(int) - margin
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + margin
        window = (max(0, x0), max(0, y0), min(width, x1), min(height, y1))
        layers.append(_Layer(_warped(pixels, matrix, window), _warped(mask, matrix, window), window, tile_px))
        resized = cut.polygon * np.array([cw / cut.image.shape[1], ch / cut.image.shape[0]])
        labels.append((cut.tile, resized @ matrix[:, :2].T + matrix[:, 2]))
    shadow = np.zeros((height, width), np.float32)
    for layer in layers:
        x0, y0, x1, y1 = layer.window
        shift = light * 0.06 * layer.tile_px
        moving = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
        moved = cv2.warpAffine(layer.mask, moving, (x1 - x0, y1 - y0))
        np.maximum(shadow[y0:y1, x0:x1], moved, out=shadow[y0:y1, x0:x1])
    if layers:
        sigma = max(0.5, 0.05 * float(np.median([layer.tile_px for layer in layers])))
        shadow = cv2.GaussianBlur(shadow, (0, 0), sigma)
        scene *= (1 - rng.uniform(0.15, 0.35) * shadow)[..., None]
    for layer in layers:
        x0, y0, x1, y1 = layer.window
        alpha = layer.mask[..., None]
        scene[y0:y1, x0:x1] = scene[y0:y1, x0:x1] * (1 - alpha) + layer.pixels * alpha
    return scene, labels


def _photo_table(rng: np.random.Generator, photo: Photo, empty: np.ndarray, size: tuple[int, int]
                 ) -> np.ndarray:
    """The photo's empty table zoomed out 1-2.4 times around itself, cropped or stretched to `size`."""
    factor = float(rng.uniform(1.0, 2.4))
    _, table = zoomed_out(Photo(photo.name, photo.image, []), empty, factor)
    if rng.random() < 0.5:
        table = table[:, ::-1]
    return cv2.resize(np.ascontiguousarray(table), size, interpolation=cv2.INTER_AREA)


def _finish(rng: np.random.Generator, scene: np.ndarray) -> np.ndarray:
    """The whole frame's light, focus and noise; BGR uint8."""
    gain = rng.uniform(0.8, 1.2) * rng.uniform(0.94, 1.06, 3)
    out = np.clip(scene * gain.astype(np.float32), 0, 1) ** np.float32(rng.uniform(0.85, 1.15))
    blur = rng.uniform(0.0, 0.8)
    if blur > 0.25:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    out = out + rng.normal(0, rng.uniform(0.0, 0.02), out.shape).astype(np.float32)
    return (np.clip(out, 0, 1) * 255 + 0.5).astype(np.uint8)


@dataclass
class TilePool:
    """The cuts of every photo and each photo's empty table."""

    cuts: list[TileCut]
    tables: list[tuple[Photo, np.ndarray]]


def load_pool(folders: Sequence[Path], long_side: int = 1000) -> TilePool:
    """Every whole tile of the photos in `folders` cut out, and their empty tables.

    Raises:
        PhotoError: a folder that is no labelled photo folder, or no whole tile in any.
    """
    cuts: list[TileCut] = []
    tables: list[tuple[Photo, np.ndarray]] = []
    for folder in folders:
        paths, labels, classes = photo_folder(folder)
        for path in paths:
            photo = load_photo(path, labels, classes, long_side)
            if not photo.tiles:
                continue
            cuts.extend(cut_tiles(photo))
            empty, _ = empty_table(photo)
            tables.append((photo, empty))
    if not cuts:
        raise PhotoError(f"no whole tile to cut out in {', '.join(str(f) for f in folders)}")
    return TilePool(cuts, tables)


def make_scene(pool: TilePool, seed: int, index: int, long_side: int = 1000,
               tile_px: tuple[float, float] = (22.0, 50.0)
               ) -> tuple[np.ndarray, list[tuple[Tile, np.ndarray]], int]:
    """Scene `index` of run `seed`: (BGR uint8 image, each tile and its polygon, JPEG quality)."""
    rng = scene_rng(seed, index)
    short = round(long_side * 0.75)
    size = (long_side, short) if rng.random() < 0.8 else (short, long_side)
    px = float(rng.uniform(*tile_px))
    if pool.tables and rng.random() < PHOTO_TABLES:
        photo, empty = pool.tables[int(rng.integers(0, len(pool.tables)))]
        table = _photo_table(rng, photo, empty, size)
    else:
        table = table_surface(rng, size[1], size[0], unit=px * 0.6, name=pick_surface(rng, 0.5))
    area_rows = size[0] * size[1] / (px * px * 6)  # rows of a few tiles the frame could hold
    rows = int(rng.integers(3, max(4, min(40, int(area_rows * 0.25)))))
    placed = lay_rows(rng, pool.cuts, size, px, rows)
    scene, labels = compose(rng, table, placed)
    return _finish(rng, scene), labels, int(rng.integers(70, 96))


def label_lines(labels: Sequence[tuple[Tile, np.ndarray]], size: tuple[int, int]) -> list[str]:
    width, height = size
    return [f"{class_id(tile)} " + " ".join(f"{x / width:.6f} {y / height:.6f}" for x, y in polygon)
            for tile, polygon in labels]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m datasets.real_tiles", description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path)
    p.add_argument("--photos", type=Path, nargs="+", required=True,
                   help="folders with images/, labels/ and data.yaml")
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--long-side", type=int, default=1000)
    p.add_argument("--tile-px", type=float, nargs=2, default=(22.0, 50.0), metavar=("LOW", "HIGH"),
                   help="the tiles' height at the long side (default 22 50)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.count < 1:
        print("error: --count must be at least 1", file=sys.stderr)
        return 2
    if not 4 <= args.tile_px[0] <= args.tile_px[1]:
        print(f"error: --tile-px {args.tile_px[0]:g} {args.tile_px[1]:g}: give LOW <= HIGH, LOW at least 4",
              file=sys.stderr)
        return 2
    try:
        pool = load_pool(args.photos, args.long_side)
    except PhotoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    (args.out / "labels").mkdir(parents=True, exist_ok=True)
    write_data_yaml(args.out)
    tiles = 0
    for index in range(args.count):
        image, labels, quality = make_scene(pool, args.seed, index, args.long_side, tuple(args.tile_px))
        name = f"{index:06d}"
        cv2.imwrite(str(args.out / "images" / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        lines = label_lines(labels, (image.shape[1], image.shape[0]))
        (args.out / "labels" / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        tiles += len(labels)
    print(f"{args.count} scenes, {tiles} tiles cut from {len(pool.cuts)} real tiles of {len(pool.tables)} "
          f"photos -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
