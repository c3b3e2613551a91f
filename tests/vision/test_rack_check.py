"""The rack check: a rack box's crop, the network's scores, the detector dropping what it calls no rack."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from datasets.render import render_indexed
from vision.detector import TileDetector, letterbox
from vision.onnx_models import ModelLoadError
from vision.rack_check import (
    RACK_CHECK_HEIGHT,
    RACK_CHECK_WIDTH,
    RackCheck,
    TileStance,
    crops_to_input,
    load_rack_check,
    rack_crop,
)


def test_a_wide_box_is_cut_as_it_lies_and_a_tall_one_turned_to_lie_across() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    image[50:100, :150] = (0, 0, 255)  # red on the box's left half
    wide = rack_crop(image, (50, 50, 250, 100))
    assert wide.shape == (RACK_CHECK_HEIGHT, RACK_CHECK_WIDTH, 3)
    middle = RACK_CHECK_HEIGHT // 2
    assert wide[middle, 20].tolist() == [0, 0, 255] and wide[middle, -20].tolist() == [0, 0, 0]
    image = np.zeros((300, 200, 3), np.uint8)
    image[:150, 50:100] = (0, 0, 255)  # red on the box's top half
    tall = rack_crop(image, (50, 50, 100, 250))
    assert tall.shape == (RACK_CHECK_HEIGHT, RACK_CHECK_WIDTH, 3)
    # Turned a quarter clockwise: the box's top comes to the right.
    assert tall[middle, -20].tolist() == [0, 0, 255] and tall[middle, 20].tolist() == [0, 0, 0]


def test_the_part_of_a_box_outside_the_frame_is_grey() -> None:
    image = np.full((100, 100, 3), 255, np.uint8)
    crop = rack_crop(image, (-100, 20, 50, 80))
    assert crop[RACK_CHECK_HEIGHT // 2, 5].tolist() == [128, 128, 128]
    assert crop[RACK_CHECK_HEIGHT // 2, -5].tolist() == [255, 255, 255]
    batch = crops_to_input([crop])
    assert batch.shape == (1, 3, RACK_CHECK_HEIGHT, RACK_CHECK_WIDTH) and batch.max() == 1.0


@pytest.mark.parametrize("network", [RackCheck, TileStance], ids=["rack check", "tile stance"])
def test_a_missing_or_broken_model_file_says_which_file(tmp_path: Path, network: type[RackCheck]) -> None:
    with pytest.raises(ModelLoadError, match=f"{network.name} model not found: .*absent.onnx"):
        network(tmp_path / "absent.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(ModelLoadError, match="cannot load"):
        network(broken)


@pytest.fixture(scope="module")
def shipped() -> RackCheck:
    check = load_rack_check()
    assert check is not None, "models/rack_check.onnx is shipped"
    return check


def test_the_shipped_rack_check_scores_each_box_between_0_and_1(shipped: RackCheck) -> None:
    rng = np.random.default_rng(0)
    image = rng.integers(0, 255, (300, 400, 3), dtype=np.uint8)
    scores = shipped.scores(image, np.array([[10, 10, 300, 80], [50, 50, 90, 250]], float))
    assert scores.shape == (2,) and ((scores >= 0) & (scores <= 1)).all()
    assert shipped.scores(image, np.zeros((0, 4))).shape == (0,)
    assert 0 < shipped.threshold < 1


class _SaysNoRack:
    threshold = 0.5

    def racks(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        return np.zeros(len(boxes), bool)


def test_a_rack_box_the_check_calls_no_rack_is_dropped_with_the_faint_tiles_it_let_in() -> None:
    detector = TileDetector(threads=1, rack_check=None)
    geometry = letterbox(np.zeros((320, 320, 3), np.uint8), 320)[1]  # input pixels = frame pixels
    rows = np.zeros((1, 6, 3), np.float32)
    rows[0, :, 0] = [160, 200, 300, 90, 0.0, 0.8]  # a rack
    rows[0, :, 1] = [60, 200, 30, 45, detector.rack_tile_confidence + 0.02, 0.0]  # a faint tile on it
    rows[0, :, 2] = [200, 60, 30, 45, 0.9, 0.0]  # a clear tile on the table
    image = np.zeros((320, 320, 3), np.uint8)
    kept = detector.postprocess(rows, geometry, (320, 320), image=image)
    assert len(kept.rack_xyxy) == 1 and len(kept) == 2
    checked = copy.copy(detector)
    checked.rack_check = _SaysNoRack()
    dropped = checked.postprocess(rows, geometry, (320, 320), image=image)
    assert len(dropped.rack_xyxy) == 0 and len(dropped) == 1
    # Without the image nothing is checked.
    assert len(checked.postprocess(rows, geometry, (320, 320)).rack_xyxy) == 1


def _envelope(boxes: np.ndarray) -> np.ndarray:
    return np.concatenate([boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)])


def _dim_room(image: np.ndarray) -> np.ndarray:
    return (255 * (image / 255.0) ** 1.5 * 0.5).astype(np.uint8)


def _veiled(image: np.ndarray) -> np.ndarray:
    return (image * 0.65 + 0.35 * 200).astype(np.uint8)


@pytest.mark.parametrize("light", [None, _dim_room, _veiled], ids=["as rendered", "dim room", "veiled"])
def test_the_shipped_check_keeps_rendered_racks_and_drops_rows_lying_on_the_table(
    shipped: RackCheck, light: Callable[[np.ndarray], np.ndarray] | None
) -> None:
    # Renders of seed 9000 (never trained on): each true rack's box, and the box around each set of three
    # or more tiles lying in short rows under each other (what the detector called racks on real tables);
    # also in a dim room and under a washed-out veil (the thirtieth session's check kept 17 of 21 racks
    # veiled; the thirty-fourth's, trained with such light, 19).
    rack_scores, row_scores = [], []
    for index in range(6):
        for kind in ("rack", "rack_front", "rack_angle"):
            image, truth, _ = render_indexed(9000, index, long_side=1000, kind=kind)
            image = light(image) if light else image
            racks = [box for box, kept in zip(truth.rack_boxes, truth.rack_labelled, strict=True) if kept]
            rack_scores.extend(shipped.scores(image, np.asarray(racks, float).reshape(-1, 4)))
        image, truth, _ = render_indexed(9000, index, long_side=1000, kind="stacked_rows")
        image = light(image) if light else image
        tiles = np.asarray([tile.box for tile in truth.tiles], float)
        rows = [_envelope(tiles[list(members)]) for members in truth.sets if len(members) >= 3]
        row_scores.extend(shipped.scores(image, np.asarray(rows, float).reshape(-1, 4)))
    assert len(rack_scores) >= 18 and len(row_scores) >= 10
    assert np.mean(np.asarray(rack_scores) >= shipped.threshold) >= 0.9
    assert np.mean(np.asarray(row_scores) < shipped.threshold) >= 0.9
