"""vision.classifier: the shipped ONNX crop classifier reads rendered tiles and their up direction."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assistant.tiles import CLASS_NAMES
from datasets.render import render_indexed
from vision.classifier import CLASSIFIER_MODEL, ModelLoadError, TileClassifier, decode_angle
from vision.onnx_models import model_path
from vision.training.classifier import angle_error_deg

# Game tables of a run the shipped model never saw (it trained on seed 31). The renderer's default mix now
# holds the hard kinds too (racks seen from the front, other inks, textured cloths): those are measured per
# kind by `python -m vision.evaluation.scenes` (models/README.md), not pinned here.
SCENE_SEED = 424242
SCENE_INDICES = range(4)


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier(k=5)


@pytest.fixture(scope="module")
def scenes() -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """(image, boxes, class ids, angles) of the labelled tiles of a few rendered scenes."""
    out = []
    for index in SCENE_INDICES:
        image, truth, _ = render_indexed(SCENE_SEED, index, kind="game")
        kept = [t for t in truth.tiles if t.labelled]
        out.append(
            (
                image,
                np.array([t.box for t in kept], dtype=np.float64).reshape(-1, 4),
                np.array([t.class_id for t in kept], dtype=np.int64),
                np.array([t.angle for t in kept], dtype=np.float64),
            )
        )
    return out


def test_shipped_model_is_packaged_and_small() -> None:
    path = model_path(CLASSIFIER_MODEL)
    assert path.is_file()
    assert path.stat().st_size < 5_000_000


def test_reads_rendered_scenes(classifier: TileClassifier, scenes: list) -> None:
    right = in_top5 = total = 0
    angle_errors = []
    for image, boxes, class_ids, angles in scenes:
        topk, scores, angle = classifier.classify(image, boxes)
        right += int((topk[:, 0] == class_ids).sum())
        in_top5 += int((topk == class_ids[:, None]).any(axis=1).sum())
        total += len(class_ids)
        angle_errors.append(angle_error_deg(angle, angles))
    assert total >= 20
    assert right / total >= 0.9, f"read {right}/{total} rendered tiles right"
    assert in_top5 / total >= 0.97
    # Upside-down runs need the up direction: most tiles within 30 degrees, almost none flipped.
    errors = np.concatenate(angle_errors)
    assert np.median(errors) < 20
    assert (errors > 90).mean() < 0.05


def test_output_shapes_order_and_probabilities(classifier: TileClassifier, scenes: list) -> None:
    image, boxes, _, _ = scenes[0]
    topk, scores, angle = classifier.classify(image, boxes)
    n = len(boxes)
    assert topk.shape == (n, 5) and topk.dtype == np.int64
    assert scores.shape == (n, 5) and scores.dtype == np.float32
    assert angle.shape == (n,) and angle.dtype == np.float32
    assert ((topk >= 0) & (topk < len(CLASS_NAMES))).all()
    assert (np.diff(scores, axis=1) <= 0).all()
    assert (scores.sum(axis=1) <= 1.0 + 1e-4).all()
    assert ((angle >= 0) & (angle < 360)).all()
    for row in topk:
        assert len(set(row.tolist())) == 5


def test_quarter_turned_frame_turns_the_up_direction(classifier: TileClassifier, scenes: list) -> None:
    image, boxes, class_ids, _ = scenes[0]
    _, _, angle = classifier.classify(image, boxes)
    turned = np.ascontiguousarray(np.rot90(image))  # counter-clockwise: (x, y) -> (y, W - x)
    width = image.shape[1]
    turned_boxes = np.stack([boxes[:, 1], width - boxes[:, 2], boxes[:, 3], width - boxes[:, 0]], axis=1)
    topk, _, turned_angle = classifier.classify(turned, turned_boxes)
    assert (topk[:, 0] == class_ids).mean() >= 0.85
    assert np.median(angle_error_deg(turned_angle, (angle + 90.0) % 360.0)) < 20


def test_no_boxes_gives_empty_arrays(classifier: TileClassifier) -> None:
    image = np.zeros((40, 60, 3), dtype=np.uint8)
    topk, scores, angle = classifier.classify(image, np.zeros((0, 4)))
    assert topk.shape == (0, 5) and scores.shape == (0, 5) and angle.shape == (0,)


@pytest.mark.parametrize(
    ("image", "boxes"),
    [
        (np.zeros((40, 60), dtype=np.uint8), np.array([[1.0, 1.0, 10.0, 10.0]])),
        (np.zeros((40, 60, 3), dtype=np.float32), np.array([[1.0, 1.0, 10.0, 10.0]])),
        (np.zeros((40, 60, 3), dtype=np.uint8), np.array([[10.0, 10.0, 10.0, 20.0]])),
        (np.zeros((40, 60, 3), dtype=np.uint8), np.array([1.0, 2.0, 3.0])),
        ("not an image", np.array([[1.0, 1.0, 10.0, 10.0]])),
    ],
)
def test_bad_input_is_a_value_error(classifier: TileClassifier, image: object, boxes: np.ndarray) -> None:
    with pytest.raises(ValueError):
        classifier.classify(image, boxes)  # type: ignore[arg-type]


def test_missing_model_is_a_model_load_error(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="not found"):
        TileClassifier(tmp_path / "absent.onnx")


def test_corrupt_model_is_a_model_load_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"this is not an onnx model")
    with pytest.raises(ModelLoadError, match="cannot load"):
        TileClassifier(broken)


def test_bad_k_or_turns_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="k must be"):
        TileClassifier(k=0)
    with pytest.raises(ValueError, match="turns must be"):
        TileClassifier(turns=3)


@pytest.mark.parametrize(("turns", "recheck_below"), [(1, 0.8), (2, 1.0), (4, 1.0), (4, 0.0)])
def test_rereading_turned_copies_keeps_readings_and_up(
    classifier: TileClassifier, scenes: list, turns: int, recheck_below: float
) -> None:
    image, boxes, class_ids, angles = scenes[0]
    reader = TileClassifier(k=3, turns=turns, recheck_below=recheck_below)
    topk, scores, angle = reader.classify(image, boxes)
    assert topk.shape == (len(boxes), 3)
    assert (topk[:, 0] == class_ids).mean() >= 0.9
    assert np.median(angle_error_deg(angle, angles)) < 20
    assert (scores.sum(axis=1) <= 1.0 + 1e-4).all()


def test_decode_angle_refines_between_bins() -> None:
    probs = np.zeros((2, 8), dtype=np.float32)
    probs[0, 2] = 1.0  # 90 degrees
    probs[1, 0], probs[1, 7] = 0.5, 0.5  # halfway between 0 and 315
    assert decode_angle(probs)[0] == pytest.approx(90.0, abs=1e-3)
    assert decode_angle(probs)[1] == pytest.approx(337.5, abs=1e-3)
