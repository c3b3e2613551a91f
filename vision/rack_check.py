"""Is this rack box a rack? A small network looks at the detector's rack box with a margin of its
surroundings and says whether tiles stand on a rack there or lie on the table (issue 37: "a run on the table
is never a rack"; the detector called runs of 3-5 tiles lying in a row and close-ups of packed tiles racks,
and no rule on the rack box's shape told them from true racks, lab notes twenty-ninth session).

Trained by `vision.training.rack_check` on the renderer's racks and table tiles and on real photos' tables;
its recipe and figures are in models/README.md ("Rack check").
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.onnx_models import ModelLoadError, model_path, onnx_session

RACK_CHECK_MODEL = "rack_check.onnx"
RACK_CHECK_HEIGHT, RACK_CHECK_WIDTH = 48, 128
"""The crop the network sees: a rack box (its long side across) with its margin, resized to this."""
RACK_CHECK_MARGIN = 0.15
"""Margin around the box on each side, as a share of the box's short side: the rack's bar and feet and the
table around the tiles are what tell a rack from a row."""
DEFAULT_RACK_CHECK = 0.5
"""A box whose rack score is under this is no rack (the model file may say its own: `rack_check` in its
metadata)."""


def rack_crop(image: np.ndarray, box: np.ndarray | tuple[float, ...]) -> np.ndarray:
    """(H, W, 3) uint8: the box (pixels, x1 y1 x2 y2) and its margin, turned so its long side runs across
    (a quarter turn clockwise for a tall box), resized to `RACK_CHECK_HEIGHT` x `RACK_CHECK_WIDTH`. Parts
    outside the frame are grey."""
    x1, y1, x2, y2 = (float(v) for v in box)
    margin = RACK_CHECK_MARGIN * max(min(x2 - x1, y2 - y1), 1.0)
    x1, y1, x2, y2 = x1 - margin, y1 - margin, x2 + margin, y2 + margin
    tall = (y2 - y1) > (x2 - x1)
    out_w, out_h = (RACK_CHECK_HEIGHT, RACK_CHECK_WIDTH) if tall else (RACK_CHECK_WIDTH, RACK_CHECK_HEIGHT)
    scale_x, scale_y = out_w / max(x2 - x1, 1e-6), out_h / max(y2 - y1, 1e-6)
    to_crop = np.array([[scale_x, 0.0, -x1 * scale_x], [0.0, scale_y, -y1 * scale_y]], np.float64)
    area = cv2.INTER_AREA if min(scale_x, scale_y) < 1 else cv2.INTER_LINEAR
    crop = cv2.warpAffine(np.ascontiguousarray(image[:, :, :3]), to_crop, (out_w, out_h), flags=area,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(128, 128, 128))
    return cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE) if tall else crop


def crops_to_input(crops: list[np.ndarray] | np.ndarray,
                   size: tuple[int, int] = (RACK_CHECK_HEIGHT, RACK_CHECK_WIDTH)) -> np.ndarray:
    """(n, 3, H, W) float32 in 0-1, RGB, from BGR crops `size` (H, W) large (a rack check's by default)."""
    batch = np.asarray(crops, np.uint8).reshape(-1, *size, 3)
    return np.ascontiguousarray(batch[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


class _CropNetwork:
    """A small shipped network that scores a crop cut around each box; its threshold is in the model file's
    metadata (`metadata_key`)."""

    model_file = RACK_CHECK_MODEL
    metadata_key = "rack_check"
    name = "rack check"

    def __init__(self, path: str | Path | None = None, threads: int = 1) -> None:
        self.path = Path(path) if path is not None else model_path(self.model_file)
        if not self.path.is_file():
            raise ModelLoadError(f"{self.name} model not found: {self.path}")
        self.session = onnx_session(self.path, threads)
        self.input_name = self.session.get_inputs()[0].name
        meta = self.session.get_modelmeta().custom_metadata_map
        try:
            self.threshold = float(meta.get(self.metadata_key, DEFAULT_RACK_CHECK))
        except ValueError as exc:
            raise ModelLoadError(f"{self.path}: metadata {self.metadata_key} is no number: {exc}") from exc

    def batch(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(m, 3, H, W) float32: the network's input for each box."""
        return crops_to_input([rack_crop(image, box) for box in boxes])

    def scores(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(m,) float: each box's (pixels, x1 y1 x2 y2, in `image`, BGR) score between 0 and 1."""
        boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
        if not len(boxes):
            return np.zeros(0, np.float32)
        (logits,) = self.session.run(None, {self.input_name: self.batch(image, boxes)})
        return (1.0 / (1.0 + np.exp(-np.asarray(logits, np.float64).reshape(-1)))).astype(np.float32)


class RackCheck(_CropNetwork):
    """The shipped rack check; `scores` gives each rack box's chance of being a rack."""

    def racks(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(m,) bool: which boxes are racks."""
        return self.scores(image, boxes) >= self.threshold


@cache
def load_rack_check(threads: int = 1) -> RackCheck | None:
    """The shipped rack check, loaded once per process (every detector shares it), or None where no model
    file is shipped."""
    try:
        return RackCheck(threads=threads)
    except ModelLoadError:
        return None


# -- a tile's stance: standing on a rack, or lying on the table ---------------------------------------------

TILE_STANCE_MODEL = "tile_stance.onnx"
TILE_STANCE_SIZE = 48
"""The square crop the stance network sees: the tile in the middle of its surroundings, resized to this."""
TILE_STANCE_CONTEXT = 2.2
"""The crop's side as a multiple of the tile box's longer side: enough to show the rack's bar under a standing
tile, or the table all round a lying one."""


def tile_crop(image: np.ndarray, box: np.ndarray | tuple[float, ...]) -> np.ndarray:
    """(S, S, 3) uint8: a square around the tile box (pixels, x1 y1 x2 y2), `TILE_STANCE_CONTEXT` times its
    longer side, not turned (a standing tile's up is the frame's), resized to `TILE_STANCE_SIZE`. Parts
    outside the frame are grey."""
    x1, y1, x2, y2 = (float(v) for v in box)
    half = TILE_STANCE_CONTEXT * max(x2 - x1, y2 - y1, 1.0) / 2
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    scale = TILE_STANCE_SIZE / (2 * half)
    to_crop = np.array([[scale, 0.0, (half - cx) * scale], [0.0, scale, (half - cy) * scale]], np.float64)
    area = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    size = (TILE_STANCE_SIZE, TILE_STANCE_SIZE)
    return cv2.warpAffine(np.ascontiguousarray(image[:, :, :3]), to_crop, size, flags=area,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(128, 128, 128))


class TileStance(_CropNetwork):
    """The shipped stance network; `scores` gives each tile box's chance of standing on a rack (a run lying
    on the table in front of a rack, inside its box, does not); a tile a rack box holds stays on it from
    `threshold`."""

    model_file = TILE_STANCE_MODEL
    metadata_key = "tile_stance"
    name = "tile stance"

    def batch(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        return crops_to_input([tile_crop(image, box) for box in boxes], (TILE_STANCE_SIZE, TILE_STANCE_SIZE))


@cache
def load_tile_stance(threads: int = 1) -> TileStance | None:
    """The shipped stance network, loaded once per process, or None where no model file is shipped."""
    try:
        return TileStance(threads=threads)
    except ModelLoadError:
        return None
