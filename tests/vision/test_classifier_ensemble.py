"""vision.classifier.ClassifierEnsemble: numbers and colours mixed with their own weights."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from vision.classifier import ClassifierEnsemble
from vision.detections import Detections
from vision.detector import TileDetector
from vision.onnx_models import model_path
from vision.reader import TileReader, load_classifier


class FixedReader:
    """A crop classifier that reads every crop as the same probabilities."""

    knows_not_a_tile = True
    crop_size, crop_margin, angle_bins, k, path, recheck_below = 64, 0.1, 36, 3, None, 0.8

    def __init__(
        self, tile: dict[str, float], not_tile: float = 0.0, up_degrees: float | None = None
    ) -> None:
        self.tile = np.zeros(len(CLASS_NAMES))
        for name, p in tile.items():
            self.tile[CLASS_INDEX[name]] = p
        self.not_tile = not_tile
        self.up = np.full(36, 1 / 36)
        if up_degrees is not None:  # sure of the up direction: all of it in that bin
            self.up = np.zeros(36)
            self.up[round(up_degrees / 10) % 36] = 1.0

    def probabilities(
        self, crops: np.ndarray, batch: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = len(crops)
        return np.tile(self.tile, (n, 1)), np.full(n, self.not_tile), np.tile(self.up, (n, 1))


def crops(n: int = 2) -> np.ndarray:
    return np.zeros((n, 64, 64, 3), np.uint8)


def test_colour_comes_from_the_colour_weights_and_number_from_the_number_weights() -> None:
    # The first reads numbers well but sees an unfamiliar teal as black; the second knows the ink.
    numbers_right = FixedReader({"black_9": 0.9, "blue_6": 0.1})
    inks_right = FixedReader({"blue_6": 0.6, "blue_9": 0.4})
    ensemble = ClassifierEnsemble([numbers_right, inks_right], [0.7, 0.3], colour_weights=[0.2, 0.8])  # type: ignore[list-item]
    tile, _, _ = ensemble.probabilities(crops())
    assert CLASS_NAMES[int(tile[0].argmax())] == "blue_9"
    assert tile.sum(axis=1) == pytest.approx([1.0, 1.0])


def test_without_colour_weights_the_mix_is_one_average() -> None:
    numbers_right = FixedReader({"black_9": 0.9, "blue_6": 0.1})
    inks_right = FixedReader({"blue_6": 0.6, "blue_9": 0.4})
    ensemble = ClassifierEnsemble([numbers_right, inks_right], [0.7, 0.3])  # type: ignore[list-item]
    tile, _, _ = ensemble.probabilities(crops())
    assert CLASS_NAMES[int(tile[0].argmax())] == "black_9"


def test_a_joker_keeps_its_mixed_probability() -> None:
    joker = FixedReader({"joker": 0.8, "red_1": 0.2})
    face = FixedReader({"red_1": 1.0})
    ensemble = ClassifierEnsemble([joker, face], [0.5, 0.5], colour_weights=[0.5, 0.5])  # type: ignore[list-item]
    tile, _, _ = ensemble.probabilities(crops(1))
    assert tile[0, CLASS_INDEX["joker"]] == pytest.approx(0.4)
    assert tile[0, CLASS_INDEX["red_1"]] == pytest.approx(0.6)


def test_one_colour_weight_per_member_is_required() -> None:
    with pytest.raises(ValueError, match="colour weight"):
        ClassifierEnsemble([FixedReader({}), FixedReader({})], [0.5, 0.5], colour_weights=[1.0])  # type: ignore[list-item]


def test_the_shipped_listing_gives_colour_weights_to_the_reader() -> None:
    listing = json.loads(model_path("classifiers.json").read_text())
    ensemble = load_classifier()
    assert isinstance(ensemble, ClassifierEnsemble)
    expected = np.array([m["colour_weight"] for m in listing["members"]], float)
    assert ensemble.colour_weights == pytest.approx(expected / expected.sum())


def test_tiles_standing_on_a_rack_get_their_numbers_from_the_rack_weights() -> None:
    # The first member reads a rack's half-hidden upper tier as another number; the second reads it right.
    faces = FixedReader({"black_9": 0.9, "black_6": 0.1})
    new = FixedReader({"black_6": 1.0})
    ensemble = ClassifierEnsemble([faces, new], [0.7, 0.3], rack_weights=[0.3, 0.7])  # type: ignore[list-item]
    tile, _, _ = ensemble.probabilities(crops(3), on_rack=np.array([False, True, False]))
    assert [CLASS_NAMES[int(k)] for k in tile.argmax(axis=1)] == ["black_9", "black_6", "black_9"]
    assert tile[1, CLASS_INDEX["black_6"]] == pytest.approx(0.3 * 0.1 + 0.7 * 1.0)
    same, _, _ = ensemble.probabilities(crops(3))  # no rack known: every crop is mixed alike
    assert [CLASS_NAMES[int(k)] for k in same.argmax(axis=1)] == ["black_9"] * 3


def test_tiles_standing_on_a_rack_get_their_up_from_the_rack_up_weights() -> None:
    # The first member reads a tile on a rack seen from above upside down; the second reads it upright.
    faces = FixedReader({"black_6": 1.0}, up_degrees=180.0)
    new = FixedReader({"black_6": 1.0}, up_degrees=0.0)
    on_rack = np.array([False, True])
    up_too = ClassifierEnsemble([faces, new], [0.7, 0.3], rack_weights=[0.3, 0.7])  # type: ignore[list-item]
    _, _, angle = up_too.probabilities(crops(2), on_rack=on_rack)
    assert angle[0, 18] == pytest.approx(0.7) and angle[1, 0] == pytest.approx(0.7)  # rack weights: up too
    apart = ClassifierEnsemble([faces, new], [0.7, 0.3], rack_weights=[0.3, 0.7],  # type: ignore[list-item]
                               rack_up_weights=[0.0, 1.0])
    tile, _, angle = apart.probabilities(crops(2), on_rack=on_rack)
    assert angle[1, 0] == pytest.approx(1.0) and angle[0, 18] == pytest.approx(0.7)
    assert tile[1, CLASS_INDEX["black_6"]] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="need rack weights"):
        ClassifierEnsemble([faces, new], [0.7, 0.3], rack_up_weights=[0.0, 1.0])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="rack up weight"):
        ClassifierEnsemble([faces, new], [0.7, 0.3], rack_weights=[0.3, 0.7],  # type: ignore[list-item]
                           rack_up_weights=[1.0])


def test_one_rack_weight_per_member_is_required() -> None:
    with pytest.raises(ValueError, match="rack weight"):
        ClassifierEnsemble([FixedReader({}), FixedReader({})], [0.5, 0.5], rack_weights=[1.0])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="rack weight"):
        ClassifierEnsemble([FixedReader({}), FixedReader({})], [0.5, 0.5], rack_weights=[0.0, 0.0])  # type: ignore[list-item]


def test_the_shipped_listing_gives_rack_weights_and_the_reader_says_which_tiles_stand_on_racks() -> None:
    listing = json.loads(model_path("classifiers.json").read_text())
    ensemble = load_classifier(threads=1)
    assert isinstance(ensemble, ClassifierEnsemble)
    expected = np.array([m["rack_weight"] for m in listing["members"]], float)
    assert ensemble.rack_weights == pytest.approx(expected / expected.sum())
    expected_up = np.array([m["rack_up_weight"] for m in listing["members"]], float)
    assert ensemble.rack_up_weights == pytest.approx(expected_up / expected_up.sum())
    seen: list[list[bool]] = []
    read = ensemble.read

    def recording_read(image: np.ndarray, boxes: np.ndarray, on_rack: np.ndarray | None = None) -> Any:
        seen.append([bool(v) for v in on_rack] if on_rack is not None else [])
        return read(image, boxes, on_rack)

    ensemble.read = recording_read  # type: ignore[method-assign]
    reader = TileReader(TileDetector(threads=1), ensemble)
    found = Detections(
        xyxy=np.array([[20, 20, 60, 80], [200, 20, 240, 80]], np.float32),
        confidence=np.array([0.9, 0.9], np.float32),
        rack_xyxy=np.array([[10, 10, 120, 100]], np.float32),
        rack_confidence=np.array([0.8], np.float32),
    )
    reader.read_faces(np.full((200, 300, 3), 200, np.uint8), found)
    assert seen == [[True, False]]


def test_the_shipped_classifiers_run_on_one_thread_each_and_a_count_given_is_used() -> None:
    # Two classifier pools of two threads beside the detector's took a read of rummy-5 from 36 to 78 ms.
    shipped = load_classifier()
    assert isinstance(shipped, ClassifierEnsemble)
    assert [m._session.get_session_options().intra_op_num_threads for m in shipped.members] == [1, 1]
    given = load_classifier(threads=2)
    assert isinstance(given, ClassifierEnsemble)
    assert [m._session.get_session_options().intra_op_num_threads for m in given.members] == [2, 2]
