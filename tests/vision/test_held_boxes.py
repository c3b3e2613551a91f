"""Boxes the detector holds back as covered by others; the reader keeps those it reads surely as tiles."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.tiles import CLASS_INDEX
from vision.classifier import CropReadings, TileClassifier
from vision.detections import Detections, box_iou
from vision.detector import KEEP_COVERED_ABOVE, TileDetector, letterbox
from vision.reader import HELD_NEW_IOU, HELD_NOT_A_TILE_BELOW, HELD_READ_ABOVE, TileReader


@pytest.fixture(scope="module")
def detector() -> TileDetector:
    return TileDetector(threads=1)


class BoxReader(TileClassifier):
    """Reads every crop as a black 7 with the score (and not-a-tile score) given for its box's left edge;
    remembers the boxes it was asked to read."""

    def __init__(self, scores: dict[int, tuple[float, float]]) -> None:  # no model: nothing to load
        self.scores = scores
        self.asked: list[np.ndarray] = []

    def read(
        self, image: np.ndarray, boxes_xyxy: np.ndarray, on_rack: np.ndarray | None = None
    ) -> CropReadings:
        boxes = np.asarray(boxes_xyxy, np.float32).reshape(-1, 4)
        self.asked.append(boxes)
        top, not_tile = zip(*(self.scores.get(round(float(b[0])), (0.99, 0.0)) for b in boxes), strict=True)
        n = len(boxes)
        return CropReadings(
            np.full((n, 1), CLASS_INDEX["black_7"], np.int64),
            np.asarray(top, np.float32).reshape(n, 1),
            np.zeros(n, np.float32),
            np.asarray(not_tile, np.float32),
        )


def _found(boxes: list[list[float]], held: list[list[float]], held_scores: list[float]) -> Detections:
    return Detections(
        xyxy=np.array(boxes, np.float32),
        confidence=np.linspace(0.95, 0.9, len(boxes)).astype(np.float32),
        held_xyxy=np.array(held, np.float32).reshape(-1, 4),
        held_confidence=np.array(held_scores, np.float32),
    )


FRAME = np.zeros((400, 400, 3), np.uint8)


def test_a_covered_low_scored_box_is_held_back_not_thrown_away(detector: TileDetector) -> None:
    geometry = letterbox(np.zeros((320, 320, 3), np.uint8), 320)[1]  # input pixels = frame pixels
    rows = np.zeros((1, 4 + len(detector.class_names), 3), np.float32)  # cx, cy, w, h, a score per class
    rows[0, :5, 0] = [50, 50, 40, 60, 0.9]
    rows[0, :5, 1] = [90, 50, 40, 60, 0.9]
    rows[0, :5, 2] = [70, 50, 40, 60, KEEP_COVERED_ABOVE - 0.1]  # half of each
    found = detector.postprocess(rows, geometry, (320, 320))
    assert len(found) == 2
    assert found.held_xyxy is not None and len(found.held_xyxy) == 1
    assert found.held_xyxy[0] == pytest.approx([50, 20, 90, 80], abs=0.5)
    assert found.held_confidence.tolist() == pytest.approx([KEEP_COVERED_ABOVE - 0.1])
    rows[0, 4, 2] = 0.3  # under the detector's threshold: not even held
    assert len(detector.postprocess(rows, geometry, (320, 320)).held_xyxy) == 0


def test_held_boxes_travel_with_the_detections() -> None:
    found = _found([[0, 0, 10, 10], [20, 0, 30, 10]], [[5, 0, 15, 10]], [0.6])
    read = found.with_readings(np.zeros((2, 1)), np.ones((2, 1)))
    for copy in (found[[1]], found[found.confidence > 0], read, Detections.merge([found, found])):
        assert copy.held_xyxy is not None and len(copy.held_xyxy) == (2 if len(copy) == 4 else 1)
        assert len(copy.held_confidence) == len(copy.held_xyxy)
    with pytest.raises(ValueError, match="held_confidence"):
        Detections(xyxy=np.zeros((0, 4)), confidence=np.zeros(0), held_xyxy=np.zeros((2, 4)),
                   held_confidence=np.zeros(3))


def test_a_held_box_read_surely_and_apart_from_the_others_becomes_a_tile(detector: TileDetector) -> None:
    # Upright boxes of a diagonal grid: the middle one is covered by its four neighbours' boxes.
    neighbours = [[100, 100, 160, 160], [140, 100, 200, 160], [100, 140, 160, 200], [140, 140, 200, 200]]
    middle = [120, 120, 180, 180]
    assert box_iou(np.array([middle]), np.array(neighbours)).max() < HELD_NEW_IOU  # each overlaps it a little
    reader = TileReader(detector, BoxReader({}))
    read = reader.with_held_tiles(FRAME, _found(neighbours, [middle], [0.6]))
    assert len(read) == 5
    assert read.held_xyxy is None  # used up
    assert read.confidence.tolist() == sorted(read.confidence.tolist(), reverse=True)
    assert middle in read.xyxy.tolist()


@pytest.mark.parametrize(
    ("score", "not_tile"),
    [(HELD_READ_ABOVE - 0.05, 0.0), (0.99, HELD_NOT_A_TILE_BELOW + 0.05)],
    ids=["read unsure", "maybe not a tile"],
)
def test_a_held_box_read_unsurely_stays_out(detector: TileDetector, score: float, not_tile: float) -> None:
    reader = TileReader(detector, BoxReader({120: (score, not_tile)}))
    read = reader.with_held_tiles(FRAME, _found([[0, 0, 60, 60]], [[120, 120, 180, 180]], [0.6]))
    assert len(read) == 1


def test_a_held_box_overlapping_a_kept_one_is_a_second_box_of_that_tile(detector: TileDetector) -> None:
    classifier = BoxReader({})
    reader = TileReader(detector, classifier)
    kept = [100, 100, 160, 160]
    shifted = [100 + 15, 100, 160 + 15, 160]  # IoU 45 / 75 = 0.6 with the kept box
    read = reader.with_held_tiles(FRAME, _found([kept], [shifted], [0.6]))
    assert 0.6 >= HELD_NEW_IOU
    assert len(read) == 1
    assert classifier.asked == []  # not even read


def test_of_two_held_boxes_on_one_tile_only_the_better_scored_is_kept(detector: TileDetector) -> None:
    reader = TileReader(detector, BoxReader({}))
    one, same = [300, 300, 360, 360], [305, 300, 365, 360]
    read = reader.with_held_tiles(FRAME, _found([[0, 0, 60, 60]], [same, one], [0.5, 0.6]))
    assert len(read) == 2
    assert one in read.xyxy.tolist()


def test_reading_a_frame_keeps_the_held_tile_and_reads_it_with_the_others(detector: TileDetector) -> None:
    classifier = BoxReader({})

    class Found(TileDetector):
        def detect(self, image: np.ndarray, confidence: float | None = None) -> Detections:
            return _found([[0, 0, 60, 60]], [[120, 120, 180, 180]], [0.6])

    found = Found.__new__(Found)
    reader = TileReader(found, classifier)
    read = reader.read(FRAME)
    assert len(read) == 2
    assert [len(boxes) for boxes in classifier.asked] == [1, 2]  # the held box, then every tile
    assert {str(t) for t in read.tiles()} == {"k7"}
