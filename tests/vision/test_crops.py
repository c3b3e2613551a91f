"""vision.crops: the one crop cutter shared by training and inference."""

from __future__ import annotations

import numpy as np
import pytest

from vision.crops import CROP_SIZE, crops_to_batch, cut_crop, cut_crops


def _frame_with_patch(box: tuple[int, int, int, int], height: int = 300, width: int = 400) -> np.ndarray:
    frame = np.zeros((height, width, 3), dtype=np.uint8)
    frame[:] = (20, 40, 60)
    x1, y1, x2, y2 = box
    frame[y1:y2, x1:x2] = (200, 150, 100)
    return frame


def test_crop_has_fixed_size_and_channel_order() -> None:
    frame = _frame_with_patch((100, 50, 160, 140))
    crop = cut_crop(frame, (100, 50, 160, 140))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert crop.dtype == np.uint8
    assert tuple(crop[CROP_SIZE // 2, CROP_SIZE // 2]) == (200, 150, 100)


def test_zero_margin_crop_is_exactly_the_box() -> None:
    frame = _frame_with_patch((100, 50, 160, 140))
    crop = cut_crop(frame, (100, 50, 160, 140), size=32, margin=0.0)
    assert (crop == np.array([200, 150, 100], dtype=np.uint8)).all()


def test_margin_brings_in_context_on_every_side() -> None:
    frame = _frame_with_patch((100, 50, 160, 140))
    crop = cut_crop(frame, (100, 50, 160, 140), size=64, margin=0.1)
    background = np.array([20, 40, 60])
    # A margin of 0.1 on a 1.2-wide window is 1/12 of the crop: about 5 pixels on each side.
    for edge in (crop[0], crop[-1], crop[:, 0], crop[:, -1]):
        assert (np.abs(edge.astype(int) - background).sum(axis=-1) < 10).all()
    inner = crop[8:-8, 8:-8].astype(int)
    assert (np.abs(inner - np.array([200, 150, 100])).sum(axis=-1) < 10).all()


@pytest.mark.parametrize("box", [(-30, -20, 40, 60), (350, 250, 430, 330)])
def test_box_past_the_frame_edge_repeats_edge_pixels(box: tuple[int, int, int, int]) -> None:
    frame = _frame_with_patch((0, 0, 400, 300))
    crop = cut_crop(frame, box)
    assert (crop == np.array([200, 150, 100], dtype=np.uint8)).all()


def test_large_box_is_averaged_not_aliased() -> None:
    # A one-pixel checkerboard averages to mid grey when shrunk; bilinear sampling would pick stripes.
    frame = np.zeros((800, 800, 3), dtype=np.uint8)
    frame[::2, ::2] = 255
    frame[1::2, 1::2] = 255
    crop = cut_crop(frame, (100, 100, 700, 700), size=32, margin=0.0)
    assert abs(float(crop.mean()) - 127.5) < 3
    assert float(crop.std()) < 10


def test_quarter_turn_of_frame_turns_the_crop() -> None:
    # Training rotates cached crops by quarter turns; that equals cutting from the turned frame.
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    x1, y1, x2, y2 = 30.0, 20.0, 90.0, 100.0
    crop = cut_crop(frame, (x1, y1, x2, y2), size=32)
    turned = np.rot90(frame).copy()  # counter-clockwise: frame pixel (x, y) goes to (y, W - x)
    width = frame.shape[1]
    turned_crop = cut_crop(turned, (y1, width - x2, y2, width - x1), size=32)
    assert np.abs(np.rot90(crop).astype(int) - turned_crop.astype(int)).max() <= 1


@pytest.mark.parametrize(
    ("image", "box"),
    [
        (np.zeros((10, 10), dtype=np.uint8), (1, 1, 5, 5)),
        (np.zeros((10, 10, 3), dtype=np.float32), (1, 1, 5, 5)),
        (np.zeros((10, 10, 3), dtype=np.uint8), (5, 5, 5, 8)),
        (np.zeros((10, 10, 3), dtype=np.uint8), (6, 5, 2, 8)),
        (np.zeros((10, 10, 3), dtype=np.uint8), (1, 1, float("nan"), 5)),
    ],
)
def test_bad_image_or_box_is_a_value_error(image: np.ndarray, box: tuple[float, ...]) -> None:
    with pytest.raises(ValueError):
        cut_crop(image, box)


def test_cut_crops_stacks_and_checks_shape() -> None:
    frame = _frame_with_patch((100, 50, 160, 140))
    stack = cut_crops(frame, np.array([[100, 50, 160, 140], [0, 0, 50, 50]]), size=24)
    assert stack.shape == (2, 24, 24, 3)
    assert cut_crops(frame, np.zeros((0, 4))).shape == (0, CROP_SIZE, CROP_SIZE, 3)
    with pytest.raises(ValueError):
        cut_crops(frame, np.zeros((3, 5)))


def test_batch_is_rgb_planes_in_minus_one_to_one() -> None:
    crops = np.zeros((2, 8, 8, 3), dtype=np.uint8)
    crops[..., 0] = 255  # blue in BGR
    batch = crops_to_batch(crops)
    assert batch.shape == (2, 3, 8, 8)
    assert batch.dtype == np.float32
    assert np.allclose(batch[:, 2], 1.0)
    assert np.allclose(batch[:, :2], -1.0)
    with pytest.raises(ValueError):
        crops_to_batch(np.zeros((8, 8, 3), dtype=np.uint8))


def test_batch_values_are_each_byte_scaled_exactly() -> None:
    """Every byte value maps to float32 (byte - 127.5) / 127.5, as the models were trained on."""
    crops = np.arange(256, dtype=np.uint8).reshape(1, 16, 16, 1).repeat(3, axis=3)
    crops[..., 0] = crops[..., 0][:, ::-1]  # blue differs from red: the channels must swap
    batch = crops_to_batch(crops)
    planes = crops[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32)
    expected = (planes - np.float32(127.5)) / np.float32(127.5)
    assert batch.dtype == np.float32 and batch.flags.c_contiguous
    assert np.array_equal(batch, expected)
    assert batch[0, 0, 0, 0] == -1.0 and batch[0, 0, -1, -1] == 1.0


def test_cut_crops_cuts_each_box_as_cut_crop_does() -> None:
    rng = np.random.default_rng(16)
    frame = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    boxes = np.array([[10.5, 20.2, 60.0, 90.7],  # sampled
                      [-8.0, -5.0, 30.0, 40.0],  # past the frame's edge
                      [0.0, 0.0, 400.0, 300.0],  # large: averaged (cut_crop's other path)
                      [350.2, 250.9, 399.0, 299.5]])
    stack = cut_crops(frame, boxes)
    for box, crop in zip(boxes, stack, strict=True):
        assert np.array_equal(crop, cut_crop(frame, box))
