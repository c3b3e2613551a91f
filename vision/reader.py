"""The reader: one object owning both models, photo -> detected tiles with their readings and up angles."""

from __future__ import annotations

import copy
import dataclasses
import json
import time
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from vision.classifier import CLASSIFIER_THREADS, ClassifierEnsemble, CropReadings, TileClassifier
from vision.detections import Detections, box_iou
from vision.detector import TileDetector, on_rack_boxes
from vision.inks import with_photo_blue
from vision.onnx_models import ModelLoadError, model_path
from vision.orientation import settle_half_turns
from vision.profile import Profile

NOT_A_TILE_ABOVE = 0.4
"""A detection the classifier calls "not a tile" with more than this probability is left out ... (0.5 before
the lead cls-v18: it reads the handwritten score sheet of the bundled example photo, through the browser's
camera, "not a tile" at 0.4-0.5, and it came out a doubtful k10; 0.4 changed no figure on real-dev-measure,
real-racks or the 200 hold-out renders: lab notes, fourteenth session)"""
SURE_DETECTION_ABOVE = 0.7
SURE_DETECTION_NOT_A_TILE_ABOVE = 0.8
"""... and one the detector scores `SURE_DETECTION_ABOVE` or more, and another box overlaps, only with more
than this: the classifier calls a tile partly hidden by another "not a tile" (on tuning renders 17 tiles
found nowhere else scored 0.7 or more as tiles and 0.5-0.8 as not tiles, against one false tile so; from
a score of 0.6 and under 0.7, 18 tiles and 3 false; from 0.5 and under 0.8, 33 tiles and 22 false). A box
alone is no tile hidden by another: without the overlap the rendered hold-out's empty tables got a false
tile (docs/experiments/lab-notes.md, eighth session)."""
HELD_READ_ABOVE = 0.9
HELD_NOT_A_TILE_BELOW = 0.2
HELD_NEW_IOU = 0.4
"""A box the detector held back as covered by others (`Detections.held_xyxy`: in a tight grid of tiles turned
45 degrees every tile's upright box is covered by its neighbours') is kept where the classifier reads a tile
in it scoring at least `HELD_READ_ABOVE`, "not a tile" under `HELD_NOT_A_TILE_BELOW`, and no kept box overlaps
it `HELD_NEW_IOU` (IoU) or more: a box across two packed tiles, or a second box on one, reads unsure or
overlaps. Chosen on tuning renders (seed 8100 scene kinds and the tuning tables): of 158 held boxes there, 15
were tiles found by no other box; the rule keeps 3 of them and nothing else (IoU 0.5 instead: 4 tiles,
and reads from 0.8: 6 tiles and 6 boxes that were not)."""


class CropClassifier(Protocol):
    """What `TileReader` needs from `vision.classifier.TileClassifier`."""

    def classify(
        self, image: np.ndarray, boxes_xyxy: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


CLASSIFIERS = "classifiers.json"


def load_classifier(threads: int = CLASSIFIER_THREADS) -> CropClassifier | None:
    """The shipped crop classifier (the ensemble `models/classifiers.json` lists, else the one model), or
    None where none is shipped (the reader then only detects). `threads`: onnxruntime threads per model.

    `classifiers.json` holds `members` (each a `file`, the fp32 model, an optional `int8` copy made by
    `vision.training.quantize`, a `weight`, and optionally its own `turns`), and optionally `precision`
    ("fp32", the default, or "int8": load the members' int8 copies), `turns` (1, 2 or 4: how many turns a
    doubtful crop is read in, default 4), `recheck_below` (a crop whose best reading scores less is
    doubtful, default 0.8), `joint_recheck` (the ensemble decides once which crops are doubtful,
    default false), and `lead` with `consult_below` (the member that reads every crop, and the score under
    which the others are consulted; default: all read all), and per member `rack_weight` (the number
    weights of crops standing on a found rack) and `rack_up_weight` (their up directions; default: the
    rack weights).

    Raises:
        ModelLoadError: `classifiers.json` names a model that cannot be loaded, or cannot be read itself.
    """
    try:
        listing = model_path(CLASSIFIERS)
    except ModelLoadError:
        try:
            return TileClassifier(threads=threads)
        except (ModelLoadError, FileNotFoundError):
            return None
    try:
        settings = json.loads(listing.read_text())
        precision = settings.get("precision", "fp32")
        if precision not in ("fp32", "int8"):
            raise ValueError(f"precision must be 'fp32' or 'int8', not {precision!r}")
        members = settings["members"]
        if precision == "int8" and not all("int8" in m for m in members):
            raise ValueError('precision is "int8" but a member names no "int8" file '
                             "(make them with python -m vision.training.quantize)")
        files = [m["int8"] if precision == "int8" else m["file"] for m in members]
        weights = [float(m["weight"]) for m in members]
        has_colour_weights = any("colour_weight" in m for m in members)
        colour_weights = [float(m["colour_weight"]) for m in members] if has_colour_weights else None
        turns = int(settings.get("turns", 4))
        member_turns = [int(m.get("turns", turns)) for m in members]
        recheck_below = float(settings.get("recheck_below", 0.8))
        joint_recheck = bool(settings.get("joint_recheck", False))
        consult_below = settings.get("consult_below")
        consult_below = None if consult_below is None else float(consult_below)
        lead = int(settings.get("lead", 0))
        has_rack_weights = any("rack_weight" in m for m in members)
        rack_weights = [float(m.get("rack_weight", 0.0)) for m in members] if has_rack_weights else None
        has_rack_up_weights = any("rack_up_weight" in m for m in members)
        rack_up_weights = ([float(m.get("rack_up_weight", 0.0)) for m in members]
                           if has_rack_up_weights else None)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ModelLoadError(f"{listing} cannot be read: {error}") from error
    try:
        classifiers = [
            TileClassifier(model_path(f), threads=threads, turns=t, recheck_below=recheck_below)
            for f, t in zip(files, member_turns, strict=True)
        ]
    except ValueError as error:
        raise ModelLoadError(f"{listing}: {error}") from error
    try:
        return ClassifierEnsemble(
            classifiers, weights, joint_recheck=joint_recheck, colour_weights=colour_weights,
            consult_below=consult_below, lead=lead, rack_weights=rack_weights,
            rack_up_weights=rack_up_weights,
        )
    except ValueError as error:
        raise ModelLoadError(f"{listing}: {error}") from error


@dataclass
class ReadTimings:
    """Milliseconds spent in each step of the last `TileReader.read`."""

    detect_ms: float = 0.0
    classify_ms: float = 0.0


_NOT_GIVEN: Any = object()


class TileReader:
    """Photo -> tiles: detect tile boxes, then read each box with the crop classifier.

    Without a classifier (not shipped yet) the detections come back unread (`class_id == -1`).
    """

    def __init__(
        self,
        detector: TileDetector | None = None,
        classifier: CropClassifier | None = _NOT_GIVEN,
        not_a_tile_above: float = NOT_A_TILE_ABOVE,
        profile: Profile | None = None,
    ) -> None:
        self.detector = detector if detector is not None else TileDetector()
        self.classifier = load_classifier() if classifier is _NOT_GIVEN else classifier
        self.not_a_tile_above = not_a_tile_above
        self.photo_blue = True  # tiles read black in the photo's blue ink read blue (`vision.inks`)
        self.timings = ReadTimings()
        self.rejected = Detections.empty()
        """The detections of the last `read` that the classifier called "not a tile" (left out)."""
        self.cloth = Detections.empty()
        """The detections of the last `read` left out as like the bare table of the profile."""
        self.profile: Profile | None = None
        if profile is not None:
            self.use_profile(profile)

    def use_profile(self, profile: Profile | None) -> None:
        """Read with what `rummi calibrate` learned of this table and tile set (None: without).

        Raises:
            ProfileError: the profile was made with other model files.
        """
        if profile is not None:
            from vision.profiled import model_versions  # a read without a profile does without the module

            profile.check_models(model_versions(self))
        self.profile = profile

    def for_video(self) -> TileReader:
        """These models reading a camera's or a video file's frames, as a reader of its own: the detector's
        video settings (`TileDetector.for_video`: windows from `SMALL_TILES_BELOW`, a 320 square input). The
        models are shared, not copied."""
        view = self._view()
        view.detector = self.detector.for_video()
        return view

    def with_profile(self, profile: Profile | None) -> TileReader:
        """These models reading with `profile` (None: without), as a reader of its own: the profile holds
        for the reads made through it and no other, so two games on one server each read with their own
        table's profile. The models are shared, not copied (onnxruntime sessions run from any thread).

        Raises:
            ProfileError: the profile was made with other model files.
        """
        view = self._view()
        view.profile = None
        view.use_profile(profile)
        return view

    def _view(self) -> TileReader:
        """A shallow copy sharing the models, with nothing of this reader's last read."""
        view = copy.copy(self)
        view.timings = ReadTimings()
        view.rejected = Detections.empty()
        view.cloth = Detections.empty()
        return view

    @property
    def reads_faces(self) -> bool:
        return self.classifier is not None

    def read(self, image: np.ndarray, confidence: float | None = None) -> Detections:
        """All tiles in `image` (BGR uint8), each with its readings (top-k) where a classifier is loaded.

        What the classifier calls "not a tile" is left out (kept in `rejected`), and a tile read half
        turned among its row is turned back (`vision.orientation`: a 9 that way is a 6).
        """
        started = time.perf_counter()
        found = self.find(image, confidence)
        detected = time.perf_counter()
        found = self.read_faces(image, found)
        self.timings = ReadTimings(
            detect_ms=(detected - started) * 1000, classify_ms=(time.perf_counter() - detected) * 1000
        )
        return found

    def find(self, image: np.ndarray, confidence: float | None = None) -> Detections:
        """The first half of `read`: the detector's boxes, from the profile's score where it has one.
        It keeps nothing on the reader, so it may run for the next frame while `read_faces` reads
        this one."""
        profile = self.profile
        if profile is not None and profile.min_score is not None:  # this table's own threshold
            confidence = profile.min_score if confidence is None else max(profile.min_score, confidence)
        return self.detector.detect(image, confidence)

    def read_faces(
        self, image: np.ndarray, found: Detections, readings: CropReadings | None = None
    ) -> Detections:
        """The detected tiles `found` with their readings, as `read` gives them.

        `readings` (one row per detection) are used instead of running the classifier: the live screen
        keeps the readings of tiles that have not changed since the last frame (`vision.tracking`).
        With a profile, what it learned of the table is left out (kept in `cloth`) and its inks applied.
        """
        self.rejected = Detections.empty()
        self.cloth = Detections.empty()
        if self.classifier is None:
            return found
        if readings is None:
            found = self.with_held_tiles(image, found)
        if not len(found):
            return found
        if readings is None and isinstance(self.classifier, TileClassifier):
            if self.profile is not None:
                from vision.profiled import read_profiled

                found, readings, self.cloth = read_profiled(self.classifier, image, found, self.profile)
            else:
                on_rack = on_rack_boxes(found.xyxy, found.rack_xyxy, rack_quad=found.rack_quad)
                readings = self.classifier.read(image, found.xyxy, on_rack)
        if readings is not None and self.photo_blue and isinstance(self.classifier, TileClassifier):
            readings, _ = with_photo_blue(readings, image, found.xyxy, self.classifier.crop_size,
                                          self.classifier.crop_margin)
        if readings is not None:
            topk_ids, topk_scores = readings.topk_class_ids, readings.topk_scores
            angle, not_tile = readings.angle_deg, readings.not_tile
        else:
            topk_ids, topk_scores, angle = self.classifier.classify(image, found.xyxy)
            not_tile = np.zeros(len(found), np.float32)
        found = found.with_readings(topk_ids, topk_scores, angle)
        sure = found.confidence >= SURE_DETECTION_ABOVE
        if sure.any():  # partly hidden by another tile: only where another box reaches over it
            overlap = box_iou(found.xyxy, found.xyxy)
            np.fill_diagonal(overlap, 0.0)
            sure &= overlap.max(axis=1) > 0.0
        rejected = not_tile > np.where(sure, max(self.not_a_tile_above, SURE_DETECTION_NOT_A_TILE_ABOVE),
                                       self.not_a_tile_above)
        if rejected.any():
            self.rejected = found[rejected]
            found = found[~rejected]
        found, _ = settle_half_turns(found)
        return found

    def with_held_tiles(self, image: np.ndarray, found: Detections) -> Detections:
        """`found` with the boxes the detector held back that the classifier reads surely as tiles (see
        `HELD_READ_ABOVE`), best first; the held boxes are used up (`held_xyxy` None)."""
        held, held_scores = found.held_xyxy, found.held_confidence
        cleared = dataclasses.replace(found, held_xyxy=None, held_confidence=None)
        if held is None or not len(held) or not isinstance(self.classifier, TileClassifier):
            return cleared
        apart = np.ones(len(held), bool)
        if len(found):
            apart = box_iou(held, found.xyxy).max(axis=1) < HELD_NEW_IOU
        if not apart.any():
            return cleared
        held, held_scores = held[apart], held_scores[apart]
        on_rack = on_rack_boxes(held, found.rack_xyxy, rack_quad=found.rack_quad)
        readings = self.classifier.read(image, held, on_rack)
        sure = (readings.topk_scores[:, 0] >= HELD_READ_ABOVE) & (readings.not_tile < HELD_NOT_A_TILE_BELOW)
        kept: list[int] = []
        for index in np.flatnonzero(sure)[np.argsort(-held_scores[sure], kind="stable")]:
            if not kept or box_iou(held[index : index + 1], held[kept]).max() < HELD_NEW_IOU:
                kept.append(int(index))
        if not kept:
            return cleared
        xyxy = np.concatenate([found.xyxy, held[kept]])
        confidence = np.concatenate([found.confidence, held_scores[kept]])
        best_first = np.argsort(-confidence, kind="stable")
        return cleared.with_tiles(xyxy[best_first], confidence[best_first])


_default_reader: TileReader | None = None


def load_reader() -> TileReader:
    """The shipped reader, loaded once per process.

    Raises:
        ModelLoadError: the detector model is missing or broken.
    """
    global _default_reader
    if _default_reader is None:
        _default_reader = TileReader()
    return _default_reader


def detect(image: np.ndarray) -> Detections:
    """Find and read the tiles in `image` (BGR uint8) with the shipped models."""
    return load_reader().read(image)


def video_reader(reader: Any) -> Any:
    """`reader` as it reads video frames (`TileReader.for_video`); any other reader (a test's) as it is."""
    for_video = getattr(reader, "for_video", None)
    return for_video() if callable(for_video) else reader
