"""What `confidence` in `rummi read` means: the chance the tile is there and read right.

The raw score (detector score times the classifier's probability of the reading) orders tiles well but
is not a probability. A monotone map fitted on rendered scenes (isotonic regression,
`python -m vision.evaluation.scenes ... --fit-confidence models/confidence.json`) turns it into one; it is
shipped beside the models and checked on hold-out renders and real photos (models/README.md).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.detections import UNKNOWN_CLASS, Detections
from vision.onnx_models import ModelLoadError, model_path

CONFIDENCE_MAP = "confidence.json"


@dataclass(frozen=True)
class ConfidenceMap:
    """Piecewise-linear, non-decreasing map from raw scores to calibrated confidence."""

    raw: tuple[float, ...] = (0.0, 1.0)
    calibrated: tuple[float, ...] = (0.0, 1.0)

    def __post_init__(self) -> None:
        raw, calibrated = np.asarray(self.raw), np.asarray(self.calibrated)
        if raw.shape != calibrated.shape or len(raw) < 2:
            raise ValueError("a confidence map needs matching raw and calibrated points, two at least")
        if np.any(np.diff(raw) < 0) or np.any(np.diff(calibrated) < 0):
            raise ValueError("a confidence map must be non-decreasing")
        if raw.min() < 0 or raw.max() > 1 or calibrated.min() < 0 or calibrated.max() > 1:
            raise ValueError("a confidence map stays within 0-1")

    def __call__(self, scores: np.ndarray | float) -> np.ndarray:
        return np.interp(np.asarray(scores, dtype=np.float64), self.raw, self.calibrated)

    @classmethod
    def fit(cls, raw_scores: np.ndarray, right: np.ndarray, points: int = 24) -> ConfidenceMap:
        """Isotonic regression (pool adjacent violators) of `right` on `raw_scores`, kept as up to
        `points` knots at quantiles of the scores."""
        order = np.argsort(raw_scores, kind="stable")
        x = np.asarray(raw_scores, np.float64)[order]
        y = np.asarray(right, np.float64)[order]
        values: list[float] = []
        weights: list[float] = []
        for value in y:
            values.append(value)
            weights.append(1.0)
            while len(values) > 1 and values[-2] > values[-1]:
                total = weights[-2] + weights[-1]
                merged = (values[-2] * weights[-2] + values[-1] * weights[-1]) / total
                values[-2:] = [merged]
                weights[-2:] = [total]
        fitted = np.repeat(values, np.asarray(weights, int))
        knots = np.unique(np.quantile(x, np.linspace(0, 1, points)))
        at_knots = np.interp(knots, x, fitted)
        raw = np.concatenate([[0.0], knots, [1.0]])
        calibrated = np.concatenate([[0.0], at_knots, [at_knots[-1]]])
        raw, unique = np.unique(np.clip(raw, 0, 1), return_index=True)
        calibrated = np.maximum.accumulate(np.clip(calibrated[unique], 0, 1))
        return cls(tuple(float(v) for v in raw), tuple(round(float(v), 4) for v in calibrated))

    def to_json(self) -> dict[str, list[float]]:
        return {"raw": list(self.raw), "calibrated": list(self.calibrated)}

    @classmethod
    def load(cls, path: Path | None = None) -> ConfidenceMap:
        """The shipped map (identity where none is shipped).

        Raises:
            ModelLoadError: the file is there but cannot be read.
        """
        try:
            path = path or model_path(CONFIDENCE_MAP)
        except ModelLoadError:
            return cls()
        try:
            data = json.loads(Path(path).read_text())
            return cls(tuple(data["raw"]), tuple(data["calibrated"]))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ModelLoadError(f"confidence map {path} cannot be read: {error}") from error


NO_TILE_BELOW = 0.2
"""A reported tile with a calibrated confidence under this is surely no tile: it is left out of `tiles` and
`racks` (`without_no_tiles`). Measured in models/README.md (`python -m vision.evaluation.doubt`)."""

DOUBTFUL_BELOW = 0.7
"""A reported tile with a calibrated confidence under this (and at `NO_TILE_BELOW` or more) is doubtful:
reported with `doubtful: true`, and a rack's total counts it apart ("+ n doubtful")."""


@functools.cache
def shipped_map() -> ConfidenceMap:
    """The shipped map, loaded once per process."""
    return ConfidenceMap.load()


def calibrated(detections: Detections, confidence_map: ConfidenceMap | None = None) -> np.ndarray:
    """Each detection's calibrated confidence: the map (shipped unless given) of its detector score times
    its reading's probability (its detector score alone where it is not read)."""
    calibrate = confidence_map or shipped_map()
    read = detections.class_id != UNKNOWN_CLASS
    raw = np.where(read, detections.confidence * detections.class_confidence, detections.confidence)
    return np.asarray(calibrate(raw.astype(np.float64)), dtype=np.float64).reshape(-1)


def without_no_tiles(
    detections: Detections, confidence_map: ConfidenceMap | None = None, floor: float = NO_TILE_BELOW
) -> Detections:
    """`detections` less those whose calibrated confidence is under `floor` (surely no tile)."""
    if not len(detections) or floor <= 0.0:
        return detections
    keep = calibrated(detections, confidence_map) >= floor
    return detections if keep.all() else detections[keep]


def doubtful(confidences: np.ndarray | list[float]) -> np.ndarray:
    """Which calibrated confidences are doubtful (under `DOUBTFUL_BELOW`)."""
    return np.asarray(confidences, dtype=np.float64) < DOUBTFUL_BELOW
