"""Rendered "tables" for measuring calibration: one edition and one cloth per table, as a player has.

A table is an empty photo of the bare cloth, a photo of the calibration layout (`vision.calibration`:
rows black, blue, red, orange 1-13, then the jokers) and game photos on the same cloth with the same
tiles; each photo has its own camera, light and distractors. The renderer (`datasets.scene`) draws a new
edition and cloth per scene, so they are held fixed here by patching its three samplers for the duration of
one table (the renderer itself is left as it is).

    python -m vision.evaluation.tables --out data/tables --tables 6 --photos 8 --seed 51 \
        [--variants holdout] [--surface weave_twill]

writes `TT/empty.jpg`, `TT/calibration.jpg`, `TT/images/NNN.jpg` with `TT/scenes/NNN.json` (the
renderer's ground truth, readable by `vision.evaluation.scenes`), and `TT/table.json` (edition, surface).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import cv2
import numpy as np

from assistant.tiles import COLORS, JOKER, NUMBERS, Tile

GAME_KINDS = ("texture", "game", "packed", "closeup")


def calibration_layout(rng: np.random.Generator, deck: Any, aspect: float) -> Any:
    """The standard calibration layout in the renderer's world: four touching rows 1-13, then two jokers."""
    from datasets import layouts as lay

    layout = lay.Layout()
    rows: list[list[Tile]] = [[Tile(color, n) for n in NUMBERS] for color in COLORS] + [[JOKER, JOKER]]
    step = rng.uniform(1.25, 1.6)
    for r, tiles in enumerate(rows):
        start = np.array([-len(NUMBERS) * aspect / 2, -r * step])
        lay.place_row(layout, tiles, start, 0.0, aspect, rng, set_index=len(layout.sets),
                      gap=rng.uniform(0.02, 0.1))
    return layout


@contextlib.contextmanager
def same_table(seed: int, variants: str = "holdout", surface: str | None = None) -> Iterator[dict[str, Any]]:
    """Within the block every `datasets.scene.render_scene` draws the same edition and cloth."""
    from datasets import backgrounds, scene
    from datasets.tile_face import Edition

    rng = np.random.default_rng(seed)
    edition = Edition.sample(rng, variants, other=1.0)
    cloth = surface or backgrounds.pick_surface(rng, 0.8, variants)
    cloth_seed = int(rng.integers(2**31))
    original_surface = scene.table_surface

    def fixed_surface(_rng: Any, height: int, width: int, unit: float = 20.0, name: str | None = None) -> Any:
        return original_surface(np.random.default_rng(cloth_seed), height, width, unit=unit, name=cloth)

    with (
        mock.patch.object(scene.Edition, "sample", lambda *a, **k: edition),
        mock.patch.object(scene, "_pick_surface", lambda *a, **k: cloth),
        mock.patch.object(scene, "table_surface", fixed_surface),
    ):
        yield {"edition": edition.to_json(), "surface": cloth}


def render_calibration_photo(rng: np.random.Generator, long_side: int = 1024) -> tuple[np.ndarray, Any]:
    """The calibration layout seen from the player's side (camera 50-85 degrees up, small turn)."""
    from datasets import scene

    def pose(
        rng_: np.random.Generator,
        layout: Any,
        kind: str,
        vfov_half: float,
    ) -> tuple[float, float, float]:
        return -90.0 + float(rng_.normal(0, 6)), float(rng_.uniform(55, 85)), 0.0

    builders = dict(scene._BUILDERS)
    builders["packed"] = calibration_layout
    with mock.patch.object(scene, "_BUILDERS", builders), mock.patch.object(scene, "_camera_pose", pose), \
            mock.patch.object(scene, "_target_tile_px", lambda *a: 1.0), \
            mock.patch.object(scene, "_distractor_count", lambda *a: 0):
        return scene.render_scene(rng, long_side, kind="packed")


def write_tables(
    out: Path,
    tables: int,
    photos: int,
    seed: int,
    variants: str,
    long_side: int = 1024,
    surface: str | None = None,
) -> None:
    from datasets import scene

    for t in range(tables):
        folder = out / f"{t:02d}"
        (folder / "images").mkdir(parents=True, exist_ok=True)
        (folder / "scenes").mkdir(parents=True, exist_ok=True)
        with same_table(seed * 1000 + t, variants, surface) as info:
            image, _ = scene.render_scene(np.random.default_rng([seed, t, 0]), long_side, kind="empty")
            cv2.imwrite(str(folder / "empty.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            image, truth = render_calibration_photo(np.random.default_rng([seed, t, 1]), long_side)
            cv2.imwrite(str(folder / "calibration.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            (folder / "calibration.json").write_text(json.dumps(truth.to_json()))
            for i in range(photos):
                kind = GAME_KINDS[i % len(GAME_KINDS)]
                image, truth = scene.render_scene(
                    np.random.default_rng([seed, t, 2, i]), long_side, kind=kind
                )
                cv2.imwrite(str(folder / "images" / f"{i:03d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
                (folder / "scenes" / f"{i:03d}.json").write_text(json.dumps(truth.to_json()))
        (folder / "table.json").write_text(json.dumps(info, indent=1))
        print(f"{folder}: {info['surface']}, inks {info['edition'].get('inks')}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.evaluation.tables", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--photos", type=int, default=8, help="game photos per table")
    parser.add_argument("--seed", type=int, default=51)
    parser.add_argument("--variants", choices=("train", "holdout"), default="holdout")
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--surface", default=None,
                        help="one cloth for every table (datasets.backgrounds.SURFACES; default: one drawn "
                        "per table)")
    args = parser.parse_args(argv)
    from datasets.backgrounds import SURFACES

    if args.surface is not None and args.surface not in SURFACES:
        parser.error(f"unknown --surface {args.surface!r}: one of {', '.join(sorted(SURFACES))}")
    write_tables(args.out, args.tables, args.photos, args.seed, args.variants, args.size, args.surface)
    return 0


if __name__ == "__main__":
    sys.exit(main())
