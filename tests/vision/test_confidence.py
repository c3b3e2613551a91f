"""`confidence` means what it says: a monotone map fitted so tiles scored c are right about c of the time."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assistant.rules import STANDARD
from assistant.tiles import CLASS_INDEX
from vision.confidence import DOUBTFUL_BELOW, NO_TILE_BELOW, ConfidenceMap, doubtful, without_no_tiles
from vision.detections import Detections
from vision.onnx_models import ModelLoadError
from vision.read import describe, read_document


def test_the_fit_turns_overconfident_scores_into_frequencies() -> None:
    rng = np.random.default_rng(0)
    raw = rng.uniform(0, 1, 20000)
    right = rng.uniform(0, 1, 20000) < raw**2  # right with probability raw squared
    fitted = ConfidenceMap.fit(raw, right)
    for score in (0.3, 0.6, 0.9):
        assert fitted(score) == pytest.approx(score**2, abs=0.05)
    assert np.all(np.diff(fitted(np.linspace(0, 1, 101))) >= 0)


def test_identity_without_a_shipped_map() -> None:
    assert ConfidenceMap()(0.37) == pytest.approx(0.37)


def test_the_map_round_trips_and_bad_files_are_named(tmp_path: Path) -> None:
    fitted = ConfidenceMap.fit(np.array([0.1, 0.4, 0.8, 0.9]), np.array([0, 0, 1, 1]))
    path = tmp_path / "confidence.json"
    path.write_text(json.dumps(fitted.to_json()))
    assert ConfidenceMap.load(path) == fitted
    path.write_text('{"raw": [0, 1], "calibrated": [1, 0]}')
    with pytest.raises(ModelLoadError, match="confidence.json"):
        ConfidenceMap.load(path)


def _three_tiles_on_a_rack(scores: list[float]) -> Detections:
    """k5, r7 and b2 standing side by side on one rack, read surely, with these detector scores."""
    xyxy = np.array([[110, 120, 150, 180], [160, 120, 200, 180], [210, 120, 250, 180]], np.float32)
    found = Detections(
        xyxy=xyxy,
        confidence=np.array(scores, np.float32),
        rack_xyxy=np.array([[100, 110, 400, 200]], np.float32),
        rack_confidence=np.array([0.9], np.float32),
    )
    ids = [CLASS_INDEX["black_5"], CLASS_INDEX["red_7"], CLASS_INDEX["blue_2"]]
    return found.with_readings(np.array(ids)[:, None], np.ones((3, 1), np.float32))


def test_what_is_surely_no_tile_is_left_out_and_the_rest_kept() -> None:
    found = _three_tiles_on_a_rack([0.95, NO_TILE_BELOW + 0.01, NO_TILE_BELOW - 0.01])
    kept = without_no_tiles(found, ConfidenceMap())
    assert [str(t) for t in kept.tiles()] == ["k5", "r7"]
    assert len(without_no_tiles(found, ConfidenceMap(), floor=0.0)) == 3


def test_a_doubtful_tile_is_marked_and_its_rack_total_says_so() -> None:
    found = _three_tiles_on_a_rack([0.95, (NO_TILE_BELOW + DOUBTFUL_BELOW) / 2, NO_TILE_BELOW / 2])
    frame = np.full((300, 500, 3), 128, np.uint8)
    document, _ = read_document("rack.jpg", frame, found, STANDARD, ConfidenceMap())
    assert [(t["tile"], t["doubtful"]) for t in document["tiles"]] == [("k5", False), ("r7", True)]
    assert len(document["racks"]) == 1 and sorted(document["racks"][0]) == ["k5", "r7"]
    assert document["rack_doubtful"] == [[document["racks"][0].index("r7")]]
    text = describe(document, STANDARD)
    assert "5 points + 1 doubtful" in text and "b2" not in text
    assert text.splitlines()[0].endswith("2 tiles: k5 r7?")  # marked in the list of tiles too
    assert "rack 1: k5 r7?" in text or "rack 1: r7? k5" in text


def test_sure_tiles_are_not_doubtful() -> None:
    assert doubtful([DOUBTFUL_BELOW, 0.99]).tolist() == [False, False]
    assert doubtful([DOUBTFUL_BELOW - 0.01]).tolist() == [True]


def test_the_apps_rack_reading_marks_doubtful_tiles_until_the_rack_is_fixed() -> None:
    from vision.confidence import shipped_map
    from vision.photos import read_photo

    between = next(s for s in np.linspace(0.05, 1.0, 96) if NO_TILE_BELOW < shipped_map()(s) < DOUBTFUL_BELOW)
    found = _three_tiles_on_a_rack([0.99, float(between), 0.99])

    class Reader:
        def read(self, frame: np.ndarray) -> Detections:
            return found

    reading = read_photo(np.full((300, 500, 3), 128, np.uint8), Reader(), STANDARD)
    (rack,) = reading.racks()
    assert dict(zip([str(t) for t in rack.tiles], rack.doubtful, strict=True)) == {
        "k5": False, "r7": True, "b2": False
    }
    assert rack.doubtful_count(rack.text) == 1
    assert rack.doubtful_count(rack.text + " r1") == 0
