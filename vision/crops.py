"""Tile crops for the classifier: the one place a crop is cut, used alike in training and inference.

A crop is the tile's axis-aligned box from the full-resolution frame, widened by a context margin on each
side and stretched to a fixed square. Stretching (rather than padding to a square) keeps the neighbours
of a tightly packed run out of the crop, except for the margin.
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_SIZE = 64
CROP_MARGIN = 0.08  # fraction of the box's width (height) added left and right (top and bottom)


def cut_crop(
    image: np.ndarray,
    box_xyxy: np.ndarray | tuple[float, ...],
    size: int = CROP_SIZE,
    margin: float = CROP_MARGIN,
) -> np.ndarray:
    """Cut the tile at `box_xyxy` (pixels of `image`) as a `size`x`size` crop in `image`'s channel order.

    Parts of the widened box outside the frame repeat the frame's edge pixels.

    Raises:
        ValueError: `image` is not an HxWx3 uint8 array or the box has no area.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an HxWx3 uint8 image, got shape {image.shape} dtype {image.dtype}")
    x1, y1, x2, y2 = (float(v) for v in box_xyxy)
    width, height = x2 - x1, y2 - y1
    if not (width > 0 and height > 0) or not np.isfinite([x1, y1, x2, y2]).all():
        raise ValueError(f"box {[x1, y1, x2, y2]} has no area")
    left, top = x1 - margin * width, y1 - margin * height
    scale_x = size / (width * (1 + 2 * margin))
    scale_y = size / (height * (1 + 2 * margin))
    # Pixel centres: crop pixel (u + 0.5) maps to frame coordinate left + (u + 0.5) / scale_x, frame pixel
    # centres sit at integer + 0.5 too, hence the half-pixel terms.
    affine = np.array(
        [
            [scale_x, 0.0, -left * scale_x + 0.5 * scale_x - 0.5],
            [0.0, scale_y, -top * scale_y + 0.5 * scale_y - 0.5],
        ],
        dtype=np.float64,
    )
    if scale_x < 0.5 or scale_y < 0.5:
        # A box much larger than the crop: average the pixels away first, as bilinear sampling alone aliases.
        return _cut_downscaled(image, (left, top, width * (1 + 2 * margin), height * (1 + 2 * margin)), size)
    return cv2.warpAffine(
        image, affine, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _cut_downscaled(
    image: np.ndarray, region_xywh: tuple[float, float, float, float], size: int
) -> np.ndarray:
    left, top, width, height = region_xywh
    img_h, img_w = image.shape[:2]
    ix1, iy1 = int(np.floor(left)), int(np.floor(top))
    ix2, iy2 = int(np.ceil(left + width)), int(np.ceil(top + height))
    pad = (max(0, -iy1), max(0, iy2 - img_h), max(0, -ix1), max(0, ix2 - img_w))
    region = image[max(0, iy1) : min(img_h, iy2), max(0, ix1) : min(img_w, ix2)]
    if any(pad):
        region = cv2.copyMakeBorder(region, *pad, borderType=cv2.BORDER_REPLICATE)
    return cv2.resize(region, (size, size), interpolation=cv2.INTER_AREA)


def cut_crops(
    image: np.ndarray, boxes_xyxy: np.ndarray, size: int = CROP_SIZE, margin: float = CROP_MARGIN
) -> np.ndarray:
    """All boxes of one frame as an (n, size, size, 3) uint8 stack, each exactly as `cut_crop` cuts it.

    Raises:
        ValueError: as `cut_crop`, or `boxes_xyxy` is not (n, 4).
    """
    boxes = np.asarray(boxes_xyxy, dtype=np.float64)
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"expected boxes of shape (n, 4), got {boxes.shape}")
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an HxWx3 uint8 image, got shape {image.shape} dtype {image.dtype}")
    crops = np.empty((len(boxes), size, size, 3), dtype=np.uint8)
    if len(boxes) == 0:
        return crops
    x1, y1, x2, y2 = boxes.T
    width, height = x2 - x1, y2 - y1
    with np.errstate(divide="ignore", invalid="ignore"):
        bad = ~((width > 0) & (height > 0) & np.isfinite(boxes).all(axis=1))
        if bad.any():
            raise ValueError(f"box {boxes[np.flatnonzero(bad)[0]].tolist()} has no area")
        # The affine maps of `cut_crop`, all boxes at once; the per-crop calls only sample.
        left, top = x1 - margin * width, y1 - margin * height
        scale_x = size / (width * (1 + 2 * margin))
        scale_y = size / (height * (1 + 2 * margin))
    affines = np.zeros((len(boxes), 2, 3), dtype=np.float64)
    affines[:, 0, 0] = scale_x
    affines[:, 1, 1] = scale_y
    affines[:, 0, 2] = -left * scale_x + 0.5 * scale_x - 0.5
    affines[:, 1, 2] = -top * scale_y + 0.5 * scale_y - 0.5
    downscaled = ((scale_x < 0.5) | (scale_y < 0.5)).tolist()
    for box, affine, small, out in zip(boxes, affines, downscaled, crops, strict=True):
        if small:
            out[:] = cut_crop(image, box, size=size, margin=margin)
        else:  # sampled straight into the stack
            cv2.warpAffine(image, affine, (size, size), dst=out, flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    return crops


def crops_to_batch(crops_bgr: np.ndarray) -> np.ndarray:
    """The model's input: (n, 3, size, size) float32, RGB, scaled to [-1, 1].

    Raises:
        ValueError: `crops_bgr` is not an (n, size, size, 3) uint8 stack.
    """
    if crops_bgr.ndim != 4 or crops_bgr.shape[3] != 3 or crops_bgr.dtype != np.uint8:
        raise ValueError(
            f"expected (n, h, w, 3) uint8 crops, got shape {crops_bgr.shape} dtype {crops_bgr.dtype}"
        )
    # Channels first in bytes, then in place in float32 (each step exact or correctly rounded, the values
    # of `(rgb.astype(np.float32) - 127.5) / 127.5`): four times faster than a table look-up per byte.
    rgb = np.ascontiguousarray(crops_bgr[..., ::-1].transpose(0, 3, 1, 2))
    batch = rgb.astype(np.float32)
    batch -= np.float32(127.5)
    batch /= np.float32(127.5)
    return batch
