"""A classifier with a "not a tile" class: what it rejects leaves `tiles`; its scores are calibrated."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tiny_models import brightness_classifier

from assistant.tiles import CLASS_INDEX
from vision.classifier import CropReadings, TileClassifier
from vision.detections import Detections
from vision.reader import NOT_A_TILE_ABOVE, SURE_DETECTION_ABOVE, TileReader


class _BoxesDetector:
    """Finds exactly the boxes it was given."""

    def __init__(self, boxes: np.ndarray) -> None:
        self.boxes = boxes

    def detect(self, image: np.ndarray, confidence: float | None = None) -> Detections:
        return Detections(xyxy=self.boxes, confidence=np.full(len(self.boxes), 0.9))


@pytest.fixture()
def frame() -> np.ndarray:
    """A dark table with one bright tile-sized patch at (20-60, 20-75)."""
    image = np.full((200, 300, 3), 15, np.uint8)
    image[20:75, 20:60] = 245
    return image


BOXES = np.array([[20, 20, 60, 75], [150, 100, 190, 155]], dtype=np.float32)


def test_the_classifier_says_how_likely_a_crop_is_no_tile(tmp_path: Path, frame: np.ndarray) -> None:
    classifier = TileClassifier(brightness_classifier(tmp_path / "c.onnx"), turns=1)
    assert classifier.knows_not_a_tile
    readings = classifier.read(frame, BOXES)
    assert readings.not_tile[0] < 0.01 < 0.99 < readings.not_tile[1]
    assert readings.topk_class_ids[0, 0] == CLASS_INDEX["red_5"]
    # The three-array form stays as it was for callers that only want readings.
    ids, scores, angles = classifier.classify(frame, BOXES)
    assert ids.shape == (2, 5) and scores.shape == (2, 5) and angles.shape == (2,)


def test_the_reader_leaves_out_what_is_not_a_tile(tmp_path: Path, frame: np.ndarray) -> None:
    classifier = TileClassifier(brightness_classifier(tmp_path / "c.onnx"), turns=1)
    reader = TileReader(_BoxesDetector(BOXES), classifier)  # type: ignore[arg-type]
    found = reader.read(frame)
    assert [str(t) for t in found.tiles()] == ["r5"]
    assert found.xyxy.tolist() == [BOXES[0].tolist()]
    assert len(reader.rejected) == 1


def test_the_threshold_is_the_readers_to_set(tmp_path: Path, frame: np.ndarray) -> None:
    classifier = TileClassifier(brightness_classifier(tmp_path / "c.onnx"), turns=1)
    reader = TileReader(_BoxesDetector(BOXES), classifier, not_a_tile_above=1.0)  # type: ignore[arg-type]
    assert len(reader.read(frame)) == 2


def test_temperature_softens_scores_not_readings(tmp_path: Path, frame: np.ndarray) -> None:
    sharp = TileClassifier(brightness_classifier(tmp_path / "a.onnx"), turns=1).read(frame, BOXES)
    softer = brightness_classifier(tmp_path / "b.onnx", temperature=3.0)
    soft = TileClassifier(softer, turns=1).read(frame, BOXES)
    assert soft.topk_class_ids[0, 0] == sharp.topk_class_ids[0, 0]
    assert soft.topk_scores[0, 0] < sharp.topk_scores[0, 0]
    assert soft.topk_scores[0].sum() <= 1.0 + 1e-6


class _NotTileScores(TileClassifier):
    """Reads every crop as a red 5, each with the given probability of not being a tile."""

    def __init__(self, not_tile: list[float]) -> None:
        self.not_tile = np.asarray(not_tile, np.float32)
        self.knows_not_a_tile = True

    def read(
        self, image: np.ndarray, boxes_xyxy: np.ndarray, on_rack: np.ndarray | None = None
    ) -> CropReadings:
        n = len(boxes_xyxy)
        return CropReadings(np.full((n, 1), CLASS_INDEX["red_5"]), np.full((n, 1), 0.9, np.float32),
                            np.zeros(n, np.float32), self.not_tile[:n])


class _ScoredDetector:
    def __init__(self, boxes: np.ndarray, scores: list[float]) -> None:
        self.boxes, self.scores = boxes, np.asarray(scores, np.float32)

    def detect(self, image: np.ndarray, confidence: float | None = None) -> Detections:
        return Detections(xyxy=self.boxes, confidence=self.scores)


def test_a_box_the_detector_is_sure_of_needs_a_surer_not_a_tile_to_be_left_out(frame: np.ndarray) -> None:
    # Four boxes in a row, each reaching 5 px over the next (tiles lying over each other), and one alone.
    row = [[10 + 30 * k, 10, 45 + 30 * k, 60] for k in range(4)]
    boxes = np.array([*row, [200, 100, 235, 150]], np.float32)
    sure, unsure = SURE_DETECTION_ABOVE + 0.1, SURE_DETECTION_ABOVE - 0.2
    detector = _ScoredDetector(boxes, [sure, sure, unsure, unsure, sure])
    reader = TileReader(detector, _NotTileScores([0.6, 0.85, 0.6, NOT_A_TILE_ABOVE - 0.1, 0.6]))  # type: ignore[arg-type]
    found = reader.read(frame)
    # A sure box read 0.6 "not a tile" under another box is kept (a tile half hidden by another); 0.85 is
    # left out; so are an unsure box at 0.6, and a sure one at 0.6 that no box overlaps.
    assert found.xyxy.tolist() == [boxes[0].tolist(), boxes[3].tolist()]
    assert len(reader.rejected) == 3
