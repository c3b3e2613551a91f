"""Read each detected tile's colour and number (or joker) and its up direction from a crop (onnxruntime)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.tiles import CLASS_NAMES, tile_from_class_name
from vision.crops import CROP_MARGIN, CROP_SIZE, crops_to_batch, cut_crops
from vision.onnx_models import ModelLoadError, model_path, onnx_session

CLASSIFIER_MODEL = "tile_classifier.onnx"
NOT_A_TILE = "not_a_tile"
"""The extra class of a classifier trained on what is not a tile (texture, dots, face-down tiles)."""
CLASSIFIER_THREADS = 1
"""onnxruntime threads per crop classifier. One: a frame's crops are a batch of some 50 small images, which a
second thread reads hardly faster, and every session's thread pool spins a while after each run, so the
ensemble's two pools took the cores from the detector's and from Python (rummy-5 of ../shared/real-dev,
the detector on 2 threads: 78 ms a read with 2 classifier threads, 36 ms with 1; see
benchmarks/README_read.md)."""

__all__ = [
    "CLASSIFIER_MODEL", "NOT_A_TILE", "CropReadings", "ModelLoadError", "TileClassifier", "decode_angle",
]


@dataclass(frozen=True)
class CropReadings:
    """What the classifier says of each crop.

    Attributes:
        topk_class_ids: (n, k) indices into CLASS_NAMES, best first.
        topk_scores: (n, k) their probabilities (calibrated; a crop likely not a tile scores low on all).
        angle_deg: (n,) the tile's up, counter-clockwise, 0 = upright.
        not_tile: (n,) probability that the crop shows no tile face at all (0 for a model without that class).
    """

    topk_class_ids: np.ndarray
    topk_scores: np.ndarray
    angle_deg: np.ndarray
    not_tile: np.ndarray

    def __len__(self) -> int:
        return len(self.angle_deg)

    def take(self, rows: np.ndarray) -> CropReadings:
        """The readings of these crops (indices or a mask), in that order."""
        return CropReadings(self.topk_class_ids[rows], self.topk_scores[rows], self.angle_deg[rows],
                            self.not_tile[rows])

    @staticmethod
    def merge(kept: CropReadings, kept_rows: np.ndarray, fresh: CropReadings) -> CropReadings:
        """One reading per crop: `kept` at `kept_rows` (a mask over all crops), `fresh` at the others."""
        rows = np.asarray(kept_rows, bool)
        parts = []
        for old, new in ((kept.topk_class_ids, fresh.topk_class_ids), (kept.topk_scores, fresh.topk_scores),
                         (kept.angle_deg, fresh.angle_deg), (kept.not_tile, fresh.not_tile)):
            out = np.empty((len(rows), *old.shape[1:]), dtype=old.dtype)
            out[rows] = old
            out[~rows] = new
            parts.append(out)
        return CropReadings(*parts)


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

    A crop whose best reading scores below `recheck_below` is read again in its other quarter-turned
    copies (`turns` in all: 1, 2 or 4) and the readings are averaged: the model saw every orientation in
    training, and on real-dev crops this cut the misreads from 0.6% to none while rereading 13% of the
    crops (see models/README.md). `recheck_below=1.0` rereads every crop; `turns=1` never does.

    Raises:
        ModelLoadError: the model cannot be loaded or does not fit this code (class list, crop size).
        ValueError: `k` or `turns` is out of range.
    """

    crop_size: int = CROP_SIZE  # the model's own, from its metadata, once loaded
    crop_margin: float = CROP_MARGIN

    def __init__(
        self,
        model_file: str | Path | None = None,
        k: int = 5,
        threads: int = CLASSIFIER_THREADS,
        turns: int = 4,
        recheck_below: float = 0.8,
    ) -> None:
        path = Path(model_file) if model_file is not None else model_path(CLASSIFIER_MODEL)
        if not path.is_file():
            raise ModelLoadError(f"tile classifier model not found: {path}")
        if not 1 <= k <= len(CLASS_NAMES):
            raise ValueError(f"k must be 1-{len(CLASS_NAMES)}, got {k}")
        if turns not in (1, 2, 4):
            raise ValueError(f"turns must be 1, 2 or 4, got {turns}")
        self._session = onnx_session(path, threads)
        meta = self._session.get_modelmeta().custom_metadata_map
        classes = tuple(meta.get("class_names", "").split(","))
        if classes not in (CLASS_NAMES, (*CLASS_NAMES, NOT_A_TILE)):
            raise ModelLoadError(f"{path} was trained for other classes than assistant.tiles.CLASS_NAMES")
        self.knows_not_a_tile = classes[-1] == NOT_A_TILE
        self.temperature = float(meta.get("temperature", 1.0))
        if not 0.05 <= self.temperature <= 20:
            raise ModelLoadError(f"{path}: temperature {self.temperature} is out of range")
        self.crop_size = int(meta.get("crop_size", CROP_SIZE))
        self.crop_margin = float(meta.get("crop_margin", CROP_MARGIN))
        self.angle_bins = int(meta.get("angle_bins", 8))
        if self.angle_bins % 4:
            raise ModelLoadError(f"{path}: {self.angle_bins} orientation bins do not allow quarter turns")
        self.k = k
        self.turns = turns
        self.recheck_below = recheck_below
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
        readings = self.read(image, boxes_xyxy)
        return readings.topk_class_ids, readings.topk_scores, readings.angle_deg

    def read(
        self, image: np.ndarray, boxes_xyxy: np.ndarray, on_rack: np.ndarray | None = None
    ) -> CropReadings:
        """As `classify`, with each crop's probability of not being a tile at all. `on_rack` (n,): which
        boxes stand on a rack the detector found (an ensemble may read those with other weights)."""
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
        return self.read_crops(crops, on_rack)

    def read_crops(self, crops_bgr: np.ndarray, on_rack: np.ndarray | None = None) -> CropReadings:
        """As `read`, for crops already cut with `vision.crops.cut_crops`."""
        if len(crops_bgr) == 0:
            return CropReadings(
                np.zeros((0, self.k), dtype=np.int64),
                np.zeros((0, self.k), dtype=np.float32),
                np.zeros(0, dtype=np.float32),
                np.zeros(0, dtype=np.float32),
            )
        return readings_of(*self.probabilities(crops_bgr, on_rack=on_rack), k=self.k)

    def probabilities(
        self, crops_bgr: np.ndarray, batch: np.ndarray | None = None, on_rack: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(n, 53) calibrated tile-class probabilities, (n,) not-a-tile probability, (n, bins) angle
        probabilities of crops (at least one). `batch`: `crops_to_batch(crops_bgr)` where already made.
        `on_rack`: not used by one model (see `ClassifierEnsemble`)."""
        batch = crops_to_batch(crops_bgr) if batch is None else batch
        class_probs, angle_probs = self.first_pass(batch)
        doubtful = np.flatnonzero(class_probs.max(axis=1) < self.recheck_below)
        return self.settled(batch, class_probs, angle_probs, doubtful)

    def first_pass(self, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The network's raw (n, classes) and (n, bins) probabilities of a `crops_to_batch` batch."""
        class_probs, angle_probs = self._session.run(None, {"crops": batch})
        return class_probs, angle_probs

    def settled(
        self, batch: np.ndarray, class_probs: np.ndarray, angle_probs: np.ndarray, doubtful: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """As `probabilities`, from the first pass's raw probabilities, the `doubtful` rows read again in
        their other quarter turns (`turns`) and averaged."""
        if self.turns > 1 and len(doubtful):
            steps = (2,) if self.turns == 2 else (1, 2, 3)
            # Turning the network's input (n, 3, H, W) is turning the crops (n, H, W, 3): the same values.
            turned = np.concatenate([np.rot90(batch[doubtful], k, axes=(2, 3)) for k in steps])
            more_probs, more_angles = self._session.run(None, {"crops": turned})
            m = len(doubtful)
            bins_per_turn = self.angle_bins // 4
            class_sum = class_probs[doubtful].copy()
            angle_sum = angle_probs[doubtful].copy()
            for i, k in enumerate(steps):
                class_sum += more_probs[i * m : (i + 1) * m]
                # Turned k quarter turns counter-clockwise, the crop's up reads k*90 degrees further on.
                angle_sum += np.roll(more_angles[i * m : (i + 1) * m], -k * bins_per_turn, axis=1)
            class_probs[doubtful] = class_sum / (len(steps) + 1)
            angle_probs[doubtful] = angle_sum / (len(steps) + 1)
        if self.temperature != 1.0:
            # softmax(z / T) from softmax(z): p ** (1 / T), normalised.
            class_probs = np.power(np.clip(class_probs, 1e-12, 1.0), 1.0 / self.temperature)
            class_probs /= class_probs.sum(axis=1, keepdims=True)
        not_tile = class_probs[:, len(CLASS_NAMES)] if self.knows_not_a_tile else np.zeros(len(class_probs))
        return class_probs[:, : len(CLASS_NAMES)], not_tile, angle_probs


def _face_one_hots() -> tuple[int, np.ndarray, np.ndarray]:
    """The joker's class index, and for every class its colour and its number as one-hot rows (all zero
    for the joker)."""
    tiles = [tile_from_class_name(name) for name in CLASS_NAMES]
    colours = list(dict.fromkeys(t.color for t in tiles if t.color is not None))
    numbers = sorted({t.number for t in tiles if t.number is not None})
    colour_hot = np.array([[float(t.color == c) for c in colours] for t in tiles])
    number_hot = np.array([[float(t.number == n) for n in numbers] for t in tiles])
    return CLASS_NAMES.index("joker"), colour_hot, number_hot


_JOKER, _COLOUR_ONE_HOT, _NUMBER_ONE_HOT = _face_one_hots()


def _colour_from(colour_mix: np.ndarray, tile_mix: np.ndarray) -> np.ndarray:
    """Tile probabilities whose colour comes from `colour_mix` and whose number (and joker) from
    `tile_mix`: P(colour, number) = (1 - P(joker)) P(colour | not joker) P(number | not joker)."""
    colour = colour_mix @ _COLOUR_ONE_HOT
    number = tile_mix @ _NUMBER_ONE_HOT
    colour /= np.maximum(colour.sum(axis=1, keepdims=True), 1e-12)
    number /= np.maximum(number.sum(axis=1, keepdims=True), 1e-12)
    joker = tile_mix[:, _JOKER]
    out = (1.0 - joker)[:, None] * (colour @ _COLOUR_ONE_HOT.T) * (number @ _NUMBER_ONE_HOT.T)
    out[:, _JOKER] = joker
    return out


def readings_of(
    tile_probs: np.ndarray, not_tile: np.ndarray, angle_probs: np.ndarray, k: int
) -> CropReadings:
    """The top-k readings and the up angle from a classifier's probabilities."""
    topk = np.argsort(-tile_probs, axis=1, kind="stable")[:, :k].astype(np.int64)
    scores = np.take_along_axis(tile_probs, topk, axis=1).astype(np.float32)
    return CropReadings(topk, scores, decode_angle(angle_probs), np.asarray(not_tile, np.float32))


def _shares(weights: list[float] | None, members: int, name: str) -> np.ndarray | None:
    """`weights` (one per member, not all zero) scaled to sum to 1; None stays None."""
    if weights is None:
        return None
    if len(weights) != members or sum(weights) <= 0:
        raise ValueError(f"an ensemble needs one {name} per classifier, not all zero")
    shares = np.asarray(weights, np.float64)
    return shares / shares.sum()


class ClassifierEnsemble(TileClassifier):
    """Crop classifiers read as one: their tile readings and up directions averaged, "not a tile" from those
    trained to say it. All members must cut crops alike (size and margin).

    `joint_recheck`: which crops are read again in their other turns is decided once, where the weighted
    mean of the members' first readings scores below `recheck_below` (the first member's), and every member
    (each in its own `turns`) reads those; otherwise each member picks its own doubtful crops. Both ways
    the members read one batch, made once.

    `colour_weights`: where given, colours are mixed with these weights and numbers, jokers and up
    directions with `weights`.

    `rack_weights`: where given, the numbers and jokers of crops standing on a rack (`on_rack`) are mixed
    with these instead of `weights`, and their up directions too unless `rack_up_weights` are given.

    `consult_below` (with `joint_recheck`): the member `lead` reads every crop, the others only crops the
    lead reads with a best tile score under this; a crop the lead is sure of keeps the lead's reading
    (its not-a-tile score too). None: every member reads every crop.
    """

    def __init__(
        self,
        members: list[TileClassifier],
        weights: list[float] | None = None,
        joint_recheck: bool = False,
        colour_weights: list[float] | None = None,
        consult_below: float | None = None,
        lead: int = 0,
        rack_weights: list[float] | None = None,
        rack_up_weights: list[float] | None = None,
    ) -> None:
        if not members:
            raise ValueError("an ensemble needs at least one classifier")
        first = members[0]
        if any((m.crop_size, m.crop_margin, m.angle_bins) != (first.crop_size, first.crop_margin,
                                                                first.angle_bins) for m in members):
            raise ModelLoadError("the ensemble's classifiers cut crops differently")
        self.members = members
        self.weights = np.asarray(weights or [1.0] * len(members), np.float64)
        self.weights /= self.weights.sum()
        self.colour_weights: np.ndarray | None = None
        if colour_weights is not None:
            if len(colour_weights) != len(members):
                raise ValueError("an ensemble needs one colour weight per classifier")
            self.colour_weights = np.asarray(colour_weights, np.float64)
            self.colour_weights /= self.colour_weights.sum()
        if rack_up_weights is not None and rack_weights is None:
            raise ValueError("rack up weights need rack weights")
        self.rack_weights = _shares(rack_weights, len(members), "rack weight")
        self.rack_up_weights = _shares(rack_up_weights, len(members), "rack up weight")
        self.joint_recheck = joint_recheck
        if not 0 <= lead < len(members):
            raise ValueError(f"the lead must be one of the {len(members)} members, got {lead}")
        if consult_below is not None and not (0.0 < consult_below <= 1.0 and joint_recheck):
            raise ValueError("consult_below must be in (0, 1] and needs joint_recheck")
        self.consult_below = consult_below
        self.lead = lead
        self.k = first.k
        self.crop_size, self.crop_margin = first.crop_size, first.crop_margin
        self.angle_bins = first.angle_bins
        self.recheck_below = first.recheck_below
        self.knows_not_a_tile = any(m.knows_not_a_tile for m in members)
        self.path = first.path

    def probabilities(
        self, crops_bgr: np.ndarray, batch: np.ndarray | None = None, on_rack: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """As `TileClassifier.probabilities`; the numbers and up directions of crops `on_rack` (n,) are
        mixed with `rack_weights` (the up with `rack_up_weights`) where the ensemble has them."""
        batch = crops_to_batch(crops_bgr) if batch is None else batch
        rack = None if on_rack is None or self.rack_weights is None else np.asarray(on_rack, bool)
        if self.consult_below is not None:
            return self._led(batch, rack)
        return self._mixed(crops_bgr, batch, on_rack=rack)

    def _led(
        self, batch: np.ndarray, on_rack: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lead = self.members[self.lead]
        probs, angles = lead.first_pass(batch)
        consult = probs[:, : len(CLASS_NAMES)].max(axis=1) < self.consult_below
        sure = np.flatnonzero(~consult)
        tile = np.zeros((len(batch), len(CLASS_NAMES)))
        not_tile = np.zeros(len(batch))
        angle = np.zeros((len(batch), angles.shape[1]))
        if len(sure):
            nothing_doubtful = np.zeros(0, np.int64)  # so `settled` reads no crop again: none is cut out
            tile[sure], not_tile[sure], angle[sure] = lead.settled(
                batch[:0], probs[sure], angles[sure], nothing_doubtful
            )
        if consult.any():
            rows = batch[consult]
            # The lead's first reading of the consulted crops is reused, not made again.
            passes = [(probs[consult], angles[consult]) if k == self.lead else m.first_pass(rows)
                      for k, m in enumerate(self.members)]
            tile[consult], not_tile[consult], angle[consult] = self._mixed(
                None, rows, passes, None if on_rack is None else on_rack[consult]
            )
        return tile, not_tile, angle

    def _mixed(
        self,
        crops_bgr: np.ndarray | None,
        batch: np.ndarray,
        passes: list[tuple[np.ndarray, np.ndarray]] | None = None,
        on_rack: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.joint_recheck:
            passes = passes or [m.first_pass(batch) for m in self.members]
            # A member without the not-a-tile class gives it 0: the mean over all 54 classes.
            width = len(CLASS_NAMES) + 1
            best = sum(w * np.pad(p, ((0, 0), (0, width - p.shape[1])))
                       for w, (p, _) in zip(self.weights, passes, strict=True)).max(axis=1)
            doubtful = np.flatnonzero(best < self.recheck_below)
            results = [member.settled(batch, probs, angles, doubtful)
                       for member, (probs, angles) in zip(self.members, passes, strict=True)]
        else:
            results = [m.probabilities(batch if crops_bgr is None else crops_bgr, batch)
                       for m in self.members]
        tiles, not_tiles, angles = zip(*results, strict=True)
        racked = on_rack is not None and self.rack_weights is not None and bool(on_rack.any())
        tile = sum(w * t for w, t in zip(self.weights, tiles, strict=True))
        if racked:
            tile[on_rack] = sum(w * t[on_rack] for w, t in zip(self.rack_weights, tiles, strict=True))
        if self.colour_weights is not None:
            colour_mix = sum(w * t for w, t in zip(self.colour_weights, tiles, strict=True))
            tile = _colour_from(colour_mix, tile)
        angle = sum(w * a for w, a in zip(self.weights, angles, strict=True))
        if racked:
            # Up too (`rack_up_weights`): the faces model, never shown a rack, reads tiles standing on one
            # seen from above upside down half the time (tuning renders: 192 of 377; the new model 28).
            up_weights = self.rack_weights if self.rack_up_weights is None else self.rack_up_weights
            angle[on_rack] = sum(w * a[on_rack] for w, a in zip(up_weights, angles, strict=True))
        judges = [n for m, n in zip(self.members, not_tiles, strict=True) if m.knows_not_a_tile]
        not_tile = np.mean(judges, axis=0) if judges else np.zeros(len(batch))
        return tile, not_tile, angle
