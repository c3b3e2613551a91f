"""Read each detected tile's colour and number (or joker) and its up direction from a crop (onnxruntime)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assistant.tiles import CLASS_NAMES
from vision.crops import CROP_MARGIN, CROP_SIZE, crops_to_batch, cut_crops
from vision.detector import ModelLoadError, model_path

CLASSIFIER_MODEL = "tile_classifier.onnx"

__all__ = ["CLASSIFIER_MODEL", "ModelLoadError", "TileClassifier", "decode_angle"]


def decode_angle(angle_probs: np.ndarray) -> np.ndarray:
    """Degrees counter-clockwise of the tile's up (0 = upright) from (n, bins) probabilities over bins at
    0, 360/bins, ...: the top bin refined by the probabilities of its two neighbours."""
    n, bins = angle_probs.shape
    if n == 0:
        return np.zeros(0, dtype=np.float32)
    rows = np.arange(n)
    top = angle_probs.argmax(axis=1)
    centres = np.deg2rad(np.arange(bins) * 360.0 / bins)
    vec_x = np.zeros(n)
    vec_y = np.zeros(n)
    for offset in (-1, 0, 1):
        index = (top + offset) % bins
        weight = angle_probs[rows, index]
        vec_x += weight * np.cos(centres[index])
        vec_y += weight * np.sin(centres[index])
    return (np.rad2deg(np.arctan2(vec_y, vec_x)) % 360.0).astype(np.float32)


class TileClassifier:
    """The crop classifier: `classify(image, boxes)` reads all tiles of one frame in one batch.

    Raises:
        ModelLoadError: the model cannot be loaded or does not fit this code (class list, crop size).
    """

    def __init__(self, model_file: str | Path | None = None, k: int = 5, threads: int = 2) -> None:
        import onnxruntime as ort

        path = Path(model_file) if model_file is not None else model_path(CLASSIFIER_MODEL)
        if not path.is_file():
            raise ModelLoadError(f"tile classifier model not found: {path}")
        if not 1 <= k <= len(CLASS_NAMES):
            raise ValueError(f"k must be 1-{len(CLASS_NAMES)}, got {k}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime raises its own exception types for bad files
            raise ModelLoadError(f"cannot load tile classifier {path}: {error}") from error
        meta = self._session.get_modelmeta().custom_metadata_map
        classes = meta.get("class_names", "").split(",")
        if tuple(classes) != CLASS_NAMES:
            raise ModelLoadError(f"{path} was trained for other classes than assistant.tiles.CLASS_NAMES")
        self.crop_size = int(meta.get("crop_size", CROP_SIZE))
        self.crop_margin = float(meta.get("crop_margin", CROP_MARGIN))
        self.k = k
        self.path = path

    def classify(
        self, image: np.ndarray, boxes_xyxy: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Read the tiles at `boxes_xyxy` (n,4 pixels of `image`, a BGR uint8 frame at full resolution).

        Returns:
            topk_class_ids (n,k) int64 indices into CLASS_NAMES, best first; topk_scores (n,k) float32
            probabilities; angle_deg (n,) float32, the tile's up direction counter-clockwise, 0 = upright.

        Raises:
            ValueError: `image` is not HxWx3 uint8, or `boxes_xyxy` is not (n,4) or holds a box with no area.
        """
        if (
            not isinstance(image, np.ndarray)
            or image.ndim != 3
            or image.shape[2] != 3
            or image.dtype != np.uint8
        ):
            raise ValueError("expected a BGR image as an HxWx3 uint8 array")
        boxes = np.asarray(boxes_xyxy, dtype=np.float64)
        if boxes.size == 0:
            boxes = boxes.reshape(0, 4)
        crops = cut_crops(image, boxes, size=self.crop_size, margin=self.crop_margin)
        return self.classify_crops(crops)

    def classify_crops(self, crops_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """As `classify`, for crops already cut with `vision.crops.cut_crops`."""
        if len(crops_bgr) == 0:
            return (
                np.zeros((0, self.k), dtype=np.int64),
                np.zeros((0, self.k), dtype=np.float32),
                np.zeros(0, dtype=np.float32),
            )
        class_probs, angle_probs = self._session.run(None, {"crops": crops_to_batch(crops_bgr)})
        topk = np.argsort(-class_probs, axis=1, kind="stable")[:, : self.k].astype(np.int64)
        scores = np.take_along_axis(class_probs, topk, axis=1).astype(np.float32)
        return topk, scores, decode_angle(angle_probs)
