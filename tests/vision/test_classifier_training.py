"""Training helpers of vision.training.classifier that need no torch: box jitter and orientation targets."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classifier import decode_angle
from vision.training.classifier import (
    ANGLE_BINS,
    BOX_JITTER_MAX,
    angle_error_deg,
    angle_soft_labels,
    jitter_box,
)


def test_jittered_box_stays_within_the_cap_and_varies() -> None:
    rng = np.random.default_rng(0)
    box = (100.0, 200.0, 150.0, 270.0)
    jittered = np.array([jitter_box(box, rng) for _ in range(500)])
    width, height = 50.0, 70.0
    limit = np.array([width, height, width, height]) * BOX_JITTER_MAX + 1e-9
    assert (np.abs(jittered - np.array(box)) <= limit).all()
    assert jittered.std(axis=0).min() > 0.5  # every edge moves
    assert (jittered[:, 2] > jittered[:, 0]).all() and (jittered[:, 3] > jittered[:, 1]).all()


@pytest.mark.parametrize("angle", [0.0, 10.0, 45.0, 90.0, 137.0, 180.0, 271.5, 359.0])
def test_soft_labels_sum_to_one_and_decode_back(angle: float) -> None:
    targets = angle_soft_labels(np.array([angle]))
    assert targets.shape == (1, ANGLE_BINS)
    assert targets.sum() == pytest.approx(1.0)
    assert (targets > 0).sum() <= 2
    assert angle_error_deg(decode_angle(targets), np.array([angle]))[0] < 0.5


def test_angle_error_wraps_around() -> None:
    assert angle_error_deg(np.array([350.0]), np.array([10.0]))[0] == pytest.approx(20.0)
    assert angle_error_deg(np.array([0.0]), np.array([180.0]))[0] == pytest.approx(180.0)


def test_decode_angle_of_no_tiles_is_empty() -> None:
    assert decode_angle(np.zeros((0, ANGLE_BINS), dtype=np.float32)).shape == (0,)


def test_side_extension_pushes_one_edge_outwards() -> None:
    rng = np.random.default_rng(1)
    extended = np.array([jitter_box((0.0, 0.0, 100.0, 100.0), rng, side_extend=0.15) for _ in range(2000)])
    cap = 100 * (BOX_JITTER_MAX + 0.15) + 1e-9
    assert (extended[:, :2] >= -cap).all() and (extended[:, 2:] <= 100 + cap).all()
    # Only the extension reaches past the plain jitter's cap, and it does so outwards.
    plain_cap = 100 * BOX_JITTER_MAX
    beyond = (extended[:, :2] < -plain_cap).any(axis=1) | (extended[:, 2:] > 100 + plain_cap).any(axis=1)
    assert 0.05 < beyond.mean() < 0.5
    assert not ((extended[:, :2] > plain_cap).any() or (extended[:, 2:] < 100 - plain_cap).any())


def test_temperature_fit_undoes_overconfidence() -> None:
    from vision.training.classifier import fit_temperature

    rng = np.random.default_rng(0)
    n, classes = 4000, 5
    truth = rng.integers(0, classes, n)
    # A model right 60 % of the time that says 99 %: the fit must soften it (T > 1).
    predicted = np.where(rng.random(n) < 0.6, truth, (truth + 1) % classes)
    probs = np.full((n, classes), 0.01 / (classes - 1))
    probs[np.arange(n), predicted] = 0.99
    assert fit_temperature(probs, truth) > 1.5
    # A model right every time gains from sharpening, never from softening.
    exact = np.full((n, classes), 0.1 / (classes - 1))
    exact[np.arange(n), truth] = 0.9
    assert fit_temperature(exact, truth) < 1.0


def test_not_a_tile_boxes_avoid_every_tile() -> None:
    from vision.detections import box_iou
    from vision.training.classifier import not_a_tile_boxes

    scene = {
        "tiles": [{"box": [100, 100, 130, 140]}, {"box": [200, 50, 230, 90]}],
        "objects": [{"kind": "die", "box": [300, 300, 330, 330]}, {"kind": "speck", "box": [5, 5, 6, 6]}],
    }
    image = np.zeros((480, 640, 3), np.uint8)
    boxes = not_a_tile_boxes(scene, image, np.random.default_rng(1), background_patches=6)
    assert len(boxes) == 7  # the die (the speck is too small to cut) and six bare patches
    tiles = np.array([t["box"] for t in scene["tiles"]], float)
    assert box_iou(np.array(boxes[1:]), tiles).max() <= 0.02
    assert box_iou(np.array(boxes[:1]), np.array([[300, 300, 330, 330]])).max() > 0.6


def test_detector_labels_come_from_labels_det_where_rendered(tmp_path) -> None:
    from vision.training.detector import detector_label_lines

    for folder in ("images", "labels", "labels_det"):
        (tmp_path / folder).mkdir()
    image = tmp_path / "images" / "000001.jpg"
    image.write_bytes(b"")
    (tmp_path / "labels" / "000001.txt").write_text("17 0.5 0.5 0.1 0.1\n")
    (tmp_path / "labels_det" / "000001.txt").write_text("0 0.5 0.5 0.1 0.1\n1 0.5 0.6 0.8 0.3\n")
    assert [line.split()[0] for line in detector_label_lines(image)] == ["0", "1"]
    (tmp_path / "labels_det" / "000001.txt").unlink()
    (tmp_path / "labels_det").rmdir()
    assert [line.split()[0] for line in detector_label_lines(image)] == ["0"]


def test_ink_groups_pick_blue_and_orange_only() -> None:
    from assistant.tiles import CLASS_INDEX
    from vision.training.classifier import NOT_A_TILE_ID, ink_groups

    names = ["blue_7", "orange_1", "red_7", "black_7", "joker"]
    ids = np.array([CLASS_INDEX[name] for name in names] + [NOT_A_TILE_ID])
    assert ink_groups(ids).tolist() == [1, 2, 0, 0, 0, 0]


def test_hue_turns_move_blue_to_teal_and_orange_to_yellow() -> None:
    import colorsys

    from vision.training.classifier import INK_SHIFTS, hue_turn_matrices

    def turned_hue(hue: float, degrees: float) -> float:
        rgb = np.array(colorsys.hsv_to_rgb(hue / 360, 0.8, 0.7))
        turned = hue_turn_matrices(np.array([degrees]))[0] @ rgb
        return colorsys.rgb_to_hsv(*np.clip(turned, 0, 1))[0] * 360

    assert 180 < turned_hue(226, INK_SHIFTS["blue"][0]) < 195  # teal
    assert 45 < turned_hue(26, INK_SHIFTS["orange"][1]) < 60  # yellow


def _stripe_along(up_degrees: float, size: int = 48) -> np.ndarray:
    """A (1,3,S,S) crop, white with a dark stripe 24 pixels long and 6 wide through the centre, along the
    up direction `up_degrees`."""
    theta = np.deg2rad(up_degrees)
    up = np.array([-np.sin(theta), -np.cos(theta)])  # (x, y) with y down
    ys, xs = np.mgrid[0:size, 0:size] + 0.5 - size / 2
    across = np.abs(xs * up[1] - ys * up[0])
    along = np.abs(xs * up[0] + ys * up[1])
    picture = np.where((across < 3) & (along < 12), 0.0, 1.0).astype(np.float32)
    return np.repeat(picture[None, None], 3, axis=1)


def _dark_at(crop, up_degrees: float, along: float, across: float) -> bool:
    """Whether the crop is dark at that offset from its centre, in the tile's own axes."""
    theta = np.deg2rad(up_degrees)
    up, side = np.array([-np.sin(theta), -np.cos(theta)]), np.array([np.cos(theta), -np.sin(theta)])
    x, y = 24 + along * up + across * side
    return bool(crop[0, int(y), int(x)] < 0.5)


def _sampled(crop: np.ndarray, affine: np.ndarray) -> np.ndarray:
    """A (3,S,S) crop resampled as torch's affine_grid + grid_sample do (align_corners False, border padding),
    nearest pixel: each output point (x right, y down, -1 to 1) takes the input at `affine` @ (x, y, 1)."""
    size = crop.shape[-1]
    centres = (2 * np.arange(size) + 1) / size - 1
    x, y = np.meshgrid(centres, centres)
    u = affine[0, 0] * x + affine[0, 1] * y + affine[0, 2]
    v = affine[1, 0] * x + affine[1, 1] * y + affine[1, 2]
    columns = np.clip(np.rint(((u + 1) * size - 1) / 2), 0, size - 1).astype(int)
    rows = np.clip(np.rint(((v + 1) * size - 1) / 2), 0, size - 1).astype(int)
    return crop[:, rows, columns]


@pytest.mark.parametrize("up_degrees", [0.0, 30.0, 90.0, 200.0])
def test_a_squeeze_narrows_the_content_across_the_tile_only(up_degrees: float) -> None:
    from vision.training.classifier import squeeze_matrices

    crops = np.concatenate([_stripe_along(up_degrees), _stripe_along(up_degrees + 90.0)])
    affine = squeeze_matrices(np.array([up_degrees] * 2), np.array([0.5] * 2))
    squeezed = np.stack([_sampled(crop, m) for crop, m in zip(crops, affine, strict=True)])
    # The stripe along the up direction keeps its length; the one across the tile loses half of it.
    assert _dark_at(squeezed[0], up_degrees, along=10, across=0)
    assert _dark_at(crops[1], up_degrees, along=0, across=10)
    assert not _dark_at(squeezed[1], up_degrees, along=0, across=10)
    assert _dark_at(squeezed[1], up_degrees, along=0, across=4)
    assert (squeezed < 0.5).sum() < 0.7 * (crops < 0.5).sum()


def test_a_squeeze_turns_with_the_crop() -> None:
    from vision.training.classifier import squeeze_matrices

    crop = np.random.default_rng(3).random((3, 48, 48)).astype(np.float32)
    affine = squeeze_matrices(np.array([25.0, 115.0]), np.array([0.7, 0.7]))
    squeezed = _sampled(crop, affine[0])
    turned = _sampled(np.rot90(crop, 1, axes=(1, 2)), affine[1])  # a quarter turn counter-clockwise
    assert np.array_equal(np.rot90(squeezed, 1, axes=(1, 2)), turned)


def test_the_teacher_reads_crops_as_the_shipped_reader_does() -> None:
    from datasets.render import render_indexed
    from vision.crops import crops_to_batch, cut_crops
    from vision.reader import load_classifier
    from vision.training.classifier import ensemble_teacher

    reader = load_classifier(threads=1)
    assert reader is not None
    teach = ensemble_teacher(threads=1)
    agree = tiles = 0
    for index in range(12):
        image, truth, _ = render_indexed(9000, index, long_side=1000, kind="game")
        boxes = np.array([t.box for t in truth.tiles if t.labelled], dtype=np.float64)
        crops = cut_crops(image, boxes, size=reader.crop_size, margin=reader.crop_margin)
        taught = teach(crops_to_batch(crops))
        assert taught.shape == (len(boxes), 54)
        assert np.allclose(taught.sum(axis=1), 1.0, atol=1e-4)
        read_ids, _, _ = reader.classify(image, boxes)
        agree += int((taught[:, :53].argmax(axis=1) == read_ids[:, 0]).sum())
        tiles += len(boxes)
    assert tiles >= 200
    assert agree >= 0.95 * tiles  # the reader also rereads doubtful crops turned; the teacher reads once


def test_a_checkpoint_is_exported_at_the_size_it_was_trained_at() -> None:
    from vision.training.detector import DEFAULT_IMGSZ, trained_imgsz

    assert trained_imgsz({"imgsz": 320, "epochs": 30}) == 320
    assert trained_imgsz({"imgsz": [320, 320]}) == 320
    assert trained_imgsz(None) == DEFAULT_IMGSZ
    assert trained_imgsz({}) == DEFAULT_IMGSZ


def test_a_checkpoint_given_as_model_is_fine_tuned_from_its_weights() -> None:
    from vision.training.detector import fine_tune_weights

    assert fine_tune_weights("yolo11n.yaml") is None
    started = fine_tune_weights("runs/detector/train/weights/best.pt")
    assert started is not None and started.endswith("runs/detector/train/weights/best.pt")
    assert Path(started).is_absolute()


def test_real_photos_become_crops_with_no_up_direction_and_never_held_out(tmp_path: Path) -> None:
    """Issue 37: real photos as a small share of the classifier's training (`--real`): each labelled tile
    (polygon labels as ../shared/real-dev) gives `copies` crops; the label says no up direction, so the angle
    is NaN (left out of the angle loss), and the scene index -1 keeps them out of the held-out renders."""
    import cv2

    from vision.training.classifier import CROP_SIZE, build_real_crops

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    image = np.full((300, 400, 3), (60, 120, 60), np.uint8)
    cv2.rectangle(image, (40, 50), (80, 110), (235, 235, 225), -1)
    cv2.rectangle(image, (200, 150), (240, 210), (235, 235, 225), -1)
    cv2.imwrite(str(tmp_path / "images" / "a.jpg"), image)
    (tmp_path / "labels" / "a.txt").write_text(
        "3 0.1 0.1667 0.2 0.1667 0.2 0.3667 0.1 0.3667\n52 0.5 0.5 0.1 0.2\n"
    )
    data = build_real_crops(tmp_path, seed=0, copies=3)
    assert data["crops"].shape == (6, CROP_SIZE, CROP_SIZE, 3)
    assert data["class_id"].tolist() == [3, 3, 3, 52, 52, 52]
    assert np.isnan(data["angle"]).all() and (data["scene"] == -1).all()
    assert not np.array_equal(data["crops"][0], data["crops"][1])  # jittered copies
    # With an up reader, a tile it reads as labelled takes the up it reads; one it misreads stays NaN.
    from types import SimpleNamespace

    class UpReader:
        def read(self, image, boxes):
            return SimpleNamespace(topk_class_ids=np.array([[3], [7]]), angle_deg=np.array([12.0, 200.0]))

    data = build_real_crops(tmp_path, seed=0, copies=2, up_reader=UpReader())
    assert data["angle"][:2].tolist() == [12.0, 12.0]
    assert np.isnan(data["angle"][2:]).all()
    (tmp_path / "labels" / "a.txt").unlink()
    with pytest.raises(SystemExit, match="a.txt"):
        build_real_crops(tmp_path, seed=0)


def test_split_heads_cover_every_class_once_by_its_number_and_ink() -> None:
    """Issue 37, number and colour read apart: each of the 54 classes is one (number, ink) pair, the joker
    and not-a-tile numbers of their own with no ink."""
    from vision.training.classifier import COLOUR_NAMES, MODEL_CLASSES, NUMBER_NAMES, split_indices

    numbers, colours = split_indices()
    assert COLOUR_NAMES == ("black", "blue", "orange", "red")
    pairs = {(int(n), int(c)) for n, c in zip(numbers, colours, strict=True)}
    assert len(pairs) == len(MODEL_CLASSES) == 54
    for name, number, colour in zip(MODEL_CLASSES, numbers, colours, strict=True):
        if colour < len(COLOUR_NAMES):
            assert name == f"{COLOUR_NAMES[colour]}_{NUMBER_NAMES[number]}"
        else:
            assert NUMBER_NAMES[number] == name in ("joker", "not_a_tile")


def _split_probs(number_head: tuple, colour_head: tuple, features: np.ndarray) -> np.ndarray:
    from vision.training.classifier import split_indices

    def log_softmax(z: np.ndarray) -> np.ndarray:
        z = z - z.max(axis=1, keepdims=True)
        return z - np.log(np.exp(z).sum(axis=1, keepdims=True))

    numbers, colours = split_indices()
    number_logp = log_softmax(features @ number_head[0].T + number_head[1])
    colour_logp = np.concatenate([log_softmax(features @ colour_head[0].T + colour_head[1]),
                                  np.zeros((len(features), 1))], axis=1)
    return np.exp(number_logp[:, numbers] + colour_logp[:, colours])


def test_split_heads_started_from_an_additive_joint_head_read_as_it_does() -> None:
    """A joint head whose numbered logits are a number's part plus an ink's part splits into two heads that
    give the same probabilities: exactly among the numbered tiles, and for the joker and not-a-tile too
    where the ink depends on no feature."""
    from vision.training.classifier import split_heads_from_joint, split_indices

    rng = np.random.default_rng(3)
    numbers, colours = split_indices()
    features = rng.normal(size=(40, 6))
    number_part_w, number_part_b = rng.normal(size=(15, 6)), rng.normal(size=15)
    for ink_w_scale in (1.0, 0.0):
        ink_part_w, ink_part_b = ink_w_scale * rng.normal(size=(4, 6)), rng.normal(size=4)
        coloured = colours < 4
        weight = number_part_w[numbers].copy()
        bias = number_part_b[numbers].copy()
        weight[coloured] += ink_part_w[colours[coloured]]
        bias[coloured] += ink_part_b[colours[coloured]]
        logits = features @ weight.T + bias
        joint = np.exp(logits - logits.max(axis=1, keepdims=True))
        joint /= joint.sum(axis=1, keepdims=True)
        split = _split_probs(*split_heads_from_joint(weight, bias), features)
        assert np.allclose(split.sum(axis=1), 1.0)
        split_numbered = split[:, coloured] / split[:, coloured].sum(axis=1, keepdims=True)
        joint_numbered = joint[:, coloured] / joint[:, coloured].sum(axis=1, keepdims=True)
        assert np.allclose(split_numbered, joint_numbered, atol=1e-5)
        if ink_w_scale == 0.0:
            assert np.allclose(split, joint, atol=1e-5)
