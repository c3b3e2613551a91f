"""Train the crop classifier on rendered scenes and export it to ONNX (torch needed; inference is not).

Recipe (the shipped model, see models/README.md "Crop classifier"; renderer as of commit bcec240):

    python -m datasets.render --out data/render-cls2 --count 1800 --seed 11
    python -m vision.training.classifier --render data/render-cls2 --max-scenes 1800 --copies 3 \
        --side-extend 0.15 --intrude 0.3 --crops data/cls_crops2.npz --checkpoint data/cls_checkpoint2.pt \
        --out models/tile_classifier.onnx --epochs 12 --batch-size 64 --lr 2e-3 --seed 0

Crops are cut once with `vision.crops.cut_crop` around jittered ground-truth boxes (imitating detector
boxes) and cached in `--crops`; training adds rotations by quarter turns, light/colour/blur/noise changes
on the fly. Everything is seeded; runs on one CPU thread by default.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from vision.classifier import NOT_A_TILE, decode_angle
from vision.crops import CROP_MARGIN, CROP_SIZE, crops_to_batch, cut_crop
from vision.detections import box_iou

ANGLE_BINS = 8
BOX_JITTER = 0.04  # standard deviation of each box edge's shift, as a fraction of the box's width/height
BOX_JITTER_MAX = 0.12
MODEL_CLASSES: tuple[str, ...] = (*CLASS_NAMES, NOT_A_TILE)
NOT_A_TILE_ID = len(CLASS_NAMES)
"""Class index of "not a tile" crops: the renderer's distractors, bare patches of the table, and what a
detector found where no tile lies. Their angle is meaningless and left out of the angle loss."""


# ---------------------------------------------------------------- crop dataset


def _scene_tiles(scene: dict[str, Any]) -> Iterator[tuple[int, tuple[float, float, float, float], float]]:
    """(class id, xyxy box, angle) of each labelled tile (those a detector is trained to find) of a scene."""
    for tile in scene["tiles"]:
        if not tile.get("labelled", True):
            continue
        cls = tile["class"]
        class_id = CLASS_INDEX[cls] if isinstance(cls, str) else int(cls)
        x1, y1, x2, y2 = (float(v) for v in tile["box"])
        yield class_id, (x1, y1, x2, y2), float(tile.get("angle", 0.0))


def jitter_box(
    box: tuple[float, float, float, float], rng: np.random.Generator, side_extend: float = 0.0
) -> np.ndarray:
    """The box with each edge moved by noise proportional to the box size, as a detector's box would be.

    With `side_extend` > 0, half of the boxes also get one edge pushed out by up to that fraction of the
    box's size: the visible side (thickness) of a tile that some boxes include (real-dev outlines do).
    """
    x1, y1, x2, y2 = box
    width, height = x2 - x1, y2 - y1
    noise = np.clip(rng.normal(0.0, BOX_JITTER, 4), -BOX_JITTER_MAX, BOX_JITTER_MAX)
    if side_extend > 0 and rng.random() < 0.5:
        edge = int(rng.integers(0, 4))
        noise[edge] += (1.0 if edge >= 2 else -1.0) * rng.uniform(0.0, side_extend)
    return np.array(
        [x1 + noise[0] * width, y1 + noise[1] * height, x2 + noise[2] * width, y2 + noise[3] * height]
    )


def build_crop_dataset(
    render_dirs: list[Path],
    seed: int,
    copies: int = 1,
    max_scenes: int | None = None,
    side_extend: float = 0.0,
    background_patches: int = 0,
    detector: Any = None,
) -> dict[str, np.ndarray]:
    """Cut `copies` jittered crops per tile from rendered scenes (`images/`, `scenes/`), using the scenes
    numbered below `max_scenes` of each folder (all when None).

    Not-a-tile crops (class `NOT_A_TILE_ID`): each of the scene's `objects` (distractors, face-down tiles),
    `background_patches` tile-sized patches of the scene away from every tile, and with a `detector`
    (`vision.detector.TileDetector`) each box it finds where no tile lies.

    Returns arrays: crops (n,S,S,3) uint8 BGR, class_id (n,), angle (n,) degrees CCW, scene (n,) index.
    """
    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    class_ids: list[int] = []
    angles: list[float] = []
    scene_index: list[int] = []
    scene_count = 0
    for render_dir in render_dirs:
        scene_files = sorted((render_dir / "scenes").glob("*.json"))
        if max_scenes is not None:
            scene_files = [f for f in scene_files if int(f.stem) < max_scenes]
            if len(scene_files) != max_scenes:
                raise SystemExit(f"{render_dir} has {len(scene_files)} of the first {max_scenes} scenes")
        if not scene_files:
            raise SystemExit(f"no scenes/*.json under {render_dir}")
        for scene_file in scene_files:
            scene = json.loads(scene_file.read_text())
            image_path = render_dir / "images" / (scene_file.stem + ".jpg")
            image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
            if image is None:
                raise SystemExit(f"cannot read {image_path}")
            for class_id, box, angle in _scene_tiles(scene):
                for _ in range(copies):
                    crops.append(cut_crop(image, jitter_box(box, rng, side_extend)))
                    class_ids.append(class_id)
                    angles.append(angle)
                    scene_index.append(scene_count)
            for box in not_a_tile_boxes(scene, image, rng, background_patches, detector):
                crops.append(cut_crop(image, box))
                class_ids.append(NOT_A_TILE_ID)
                angles.append(0.0)
                scene_index.append(scene_count)
            scene_count += 1
            if scene_count % 200 == 0:
                print(f"crops: {scene_count} scenes, {len(crops)} crops", flush=True)
    return {
        "crops": np.stack(crops),
        "class_id": np.array(class_ids, dtype=np.int64),
        "angle": np.array(angles, dtype=np.float32),
        "scene": np.array(scene_index, dtype=np.int64),
    }


def build_real_crops(
    real_dir: Path, seed: int, copies: int = 1, side_extend: float = 0.0, up_reader: Any = None
) -> dict[str, np.ndarray]:
    """`copies` jittered crops of each labelled tile of real photos (`images/`, `labels/` as
    `../shared/real-dev`: YOLO polygon lines; its known label errors corrected).

    Real labels say no up direction: the angle is NaN and left out of the angle loss, unless `up_reader`
    (a `vision.classifier.TileClassifier` or ensemble, as the reader loads it) gives it: the up it reads
    for each tile whose label it also reads (a read right whole is right about its up; a 6 read as a 9 is
    not). Their scene index is -1: never in the held-out crops that calibrate the temperature (those stay
    renders).

    Raises:
        SystemExit: no labelled photo in the folder, or one without its label file (`labelled_photos`).
    """
    from vision.evaluation.crops import labelled_photos

    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    class_ids: list[int] = []
    angles: list[float] = []
    for _, image, truth, boxes in labelled_photos(real_dir):
        ups = np.full(len(boxes), np.nan)
        if up_reader is not None and len(boxes):
            readings = up_reader.read(image, np.asarray(boxes, np.float64))
            agreed = readings.topk_class_ids[:, 0] == np.asarray(truth)
            ups[agreed] = readings.angle_deg[agreed]
        for class_id, box, up in zip(truth, boxes, ups, strict=True):
            for _ in range(copies):
                crops.append(cut_crop(image, jitter_box(tuple(box), rng, side_extend)))
                class_ids.append(int(class_id))
                angles.append(float(up))
    if not crops:
        raise SystemExit(f"no labelled photo under {real_dir}")
    return {
        "crops": np.stack(crops),
        "class_id": np.array(class_ids, dtype=np.int64),
        "angle": np.array(angles, dtype=np.float32),
        "scene": np.full(len(crops), -1, dtype=np.int64),
    }


def not_a_tile_boxes(
    scene: dict[str, Any],
    image: np.ndarray,
    rng: np.random.Generator,
    background_patches: int,
    detector: Any = None,
) -> list[np.ndarray]:
    """Boxes of one scene where no tile face is: distractors, bare patches, a detector's false finds."""
    tile_boxes = np.array([t["box"] for t in scene.get("tiles", [])], dtype=np.float64).reshape(-1, 4)
    height, width = image.shape[:2]
    boxes: list[np.ndarray] = []
    for thing in scene.get("objects", []):
        x1, y1, x2, y2 = (float(v) for v in thing["box"])
        if x2 - x1 >= 4 and y2 - y1 >= 4:
            boxes.append(jitter_box((x1, y1, x2, y2), rng))
    sizes = tile_boxes[:, 2:] - tile_boxes[:, :2]
    sizes = sizes[(sizes >= 4).all(axis=1)]
    typical = np.median(sizes, axis=0) if len(sizes) else np.array([0.06, 0.08]) * max(width, height)
    tries = 0
    found = 0
    while found < background_patches and tries < 20 * max(1, background_patches):
        tries += 1
        w, h = typical * rng.uniform(0.6, 1.6)
        if rng.random() < 0.5:
            w, h = h, w
        x1, y1 = rng.uniform(0, max(1.0, width - w)), rng.uniform(0, max(1.0, height - h))
        box = np.array([x1, y1, x1 + w, y1 + h])
        if min(w, h) < 4 or (len(tile_boxes) and box_iou(box[None], tile_boxes).max() > 0.02):
            continue
        boxes.append(box)
        found += 1
    if detector is not None:
        found_boxes = detector.detect(image, 0.25).xyxy
        if len(found_boxes):
            overlap = np.zeros(len(found_boxes))
            if len(tile_boxes):
                overlap = box_iou(found_boxes, tile_boxes).max(axis=1)
            boxes.extend(np.asarray(found_boxes, np.float64)[overlap < 0.2])
    return [b for b in boxes if b[2] - b[0] >= 2 and b[3] - b[1] >= 2]


def fit_temperature(class_probs: np.ndarray, truth: np.ndarray) -> float:
    """The temperature T minimising the negative log-likelihood of softmax(logits / T) on held-out crops
    (Guo et al. 2017, temperature scaling), found from the probabilities (p ** (1/T), normalised)."""
    logp = np.log(np.clip(class_probs, 1e-12, 1.0))
    best, best_nll = 1.0, math.inf
    for temperature in np.exp(np.linspace(np.log(0.5), np.log(4.0), 61)):
        scaled = logp / temperature
        scaled -= scaled.max(axis=1, keepdims=True)
        log_norm = np.log(np.exp(scaled).sum(axis=1))
        nll = float(np.mean(log_norm - scaled[np.arange(len(truth)), truth]))
        if nll < best_nll:
            best, best_nll = float(temperature), nll
    return best


def angle_soft_labels(angles_deg: np.ndarray, bins: int = ANGLE_BINS) -> np.ndarray:
    """(n, bins) targets splitting each angle linearly between its two nearest bin centres."""
    position = (np.asarray(angles_deg, dtype=np.float64) % 360.0) / (360.0 / bins)
    lower = np.floor(position).astype(np.int64) % bins
    upper_weight = position - np.floor(position)
    targets = np.zeros((len(position), bins), dtype=np.float32)
    rows = np.arange(len(position))
    targets[rows, lower] = 1.0 - upper_weight
    targets[rows, (lower + 1) % bins] += upper_weight
    return targets


# ---------------------------------------------------------------- model


HEADS = ("joint", "split")
"""`joint`: one head of the 54 model classes. `split`: a number head (1-13, joker, not a tile) and a colour
head (the four inks), as the published anchor reads a tile (number and colour by two classifiers): a numeral
learned in one ink is learned in all, and the colour is one decision of its own. The split network still
outputs the 54 classes' log-probabilities, log P(number) + log P(colour) (a joker and not-a-tile from the
number head alone), so the exported file and everything that reads it are the same for both."""
NUMBER_NAMES: tuple[str, ...] = (*(str(n) for n in range(1, 14)), "joker", NOT_A_TILE)
COLOUR_NAMES: tuple[str, ...] = tuple(sorted({name.split("_")[0] for name in CLASS_NAMES if name != "joker"}))


def split_indices() -> tuple[np.ndarray, np.ndarray]:
    """For each model class, its row in `NUMBER_NAMES` and in `COLOUR_NAMES` (len(COLOUR_NAMES) where the
    class has no colour: the joker, not a tile)."""
    numbers, colours = [], []
    for name in MODEL_CLASSES:
        if name in NUMBER_NAMES:  # the joker, not a tile
            numbers.append(NUMBER_NAMES.index(name))
            colours.append(len(COLOUR_NAMES))
        else:
            colour, number = name.split("_")
            numbers.append(NUMBER_NAMES.index(number))
            colours.append(COLOUR_NAMES.index(colour))
    return np.array(numbers), np.array(colours)


def build_model(width: int = 16, bins: int = ANGLE_BINS, heads: str = "joint") -> Any:
    """A small CNN for 64x64 crops (about 8M multiply-adds at width 16): class logits (53 + not a tile) and
    orientation-bin logits. Strided early layers keep it cheap: a frame's 20-40 crops take a few ms.
    `heads` (`HEADS`): the classes from one head, or from a number head and a colour head."""
    import torch
    from torch import nn

    if heads not in HEADS:
        raise ValueError(f"heads must be one of {HEADS}, not {heads!r}")

    def block(c_in: int, c_out: int, stride: int = 1) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
            nn.BatchNorm2d(c_out),
            nn.ReLU(inplace=True),
        )

    chans = (width, 2 * width, 4 * width, 6 * width)
    number_of_class, colour_of_class = split_indices()

    class TileNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.heads = heads
            self.features = nn.Sequential(
                block(3, chans[0], stride=2),  # 32x32
                block(chans[0], chans[1], stride=2),  # 16x16
                block(chans[1], chans[1]),
                nn.MaxPool2d(2),  # 8x8
                block(chans[1], chans[2]),
                block(chans[2], chans[2]),
                nn.MaxPool2d(2),  # 4x4
                block(chans[2], chans[3]),
                nn.Flatten(),
                nn.Dropout(0.2),
            )
            flat = chans[3] * (CROP_SIZE // 16) ** 2
            if heads == "joint":
                self.classes = nn.Linear(flat, len(MODEL_CLASSES))
            else:
                self.numbers = nn.Linear(flat, len(NUMBER_NAMES))
                self.colours = nn.Linear(flat, len(COLOUR_NAMES))
                self.register_buffer("number_of_class", torch.from_numpy(number_of_class), persistent=False)
                self.register_buffer("colour_of_class", torch.from_numpy(colour_of_class), persistent=False)
            self.angle = nn.Linear(flat, bins)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            features = self.features(x)
            if self.heads == "joint":
                return self.classes(features), self.angle(features)
            number_logp = torch.log_softmax(self.numbers(features), 1)
            colour_logp = torch.log_softmax(self.colours(features), 1)
            no_colour = torch.zeros_like(colour_logp[:, :1])
            colour_logp = torch.cat([colour_logp, no_colour], 1)
            class_logp = number_logp[:, self.number_of_class] + colour_logp[:, self.colour_of_class]
            return class_logp, self.angle(features)

    return TileNet()


# ---------------------------------------------------------------- augmentation


INK_SHIFTS = {"blue": (-45.0, 0.0), "orange": (0.0, 28.0)}
"""Hue turns (degrees) given to a share of the crops of these colours: editions print teal or cyan for blue
(blue 218-236 degrees turned down to 173-236) and yellow for orange (17-30 up to 45-58); the ranges never
reach another colour's (red 347-361, black unsaturated)."""


def ink_groups(class_ids: np.ndarray) -> np.ndarray:
    """(n,) index into `INK_SHIFTS` (+1) of each class id's colour, 0 for colours left alone."""
    groups = np.zeros(len(MODEL_CLASSES), np.int64)
    for group, colour in enumerate(INK_SHIFTS, start=1):
        groups[[i for i, name in enumerate(MODEL_CLASSES) if name.startswith(colour + "_")]] = group
    return groups[np.asarray(class_ids, np.int64)]


def hue_turn_matrices(degrees: np.ndarray) -> np.ndarray:
    """(m, 3, 3) rotations of RGB about the grey axis: a hue turn by `degrees` (m,), as in HSV."""
    theta = np.deg2rad(np.asarray(degrees, np.float64))[:, None, None]
    k = np.full(3, 1.0 / math.sqrt(3.0))
    cross = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    cos, sin = np.cos(theta), np.sin(theta)
    return (cos * np.eye(3) + sin * cross + (1 - cos) * np.outer(k, k)).astype(np.float32)


SQUEEZE_RANGE = (0.55, 0.95)
"""The share of its extent a squeezed crop's content keeps along the squeezed axis."""


def squeeze_matrices(up_degrees: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """(m, 2, 3) affine maps, as `torch.nn.functional.affine_grid` takes them (x right, y down, -1 to 1), from
    each output point to the input point it samples: the content narrowed about the centre to `factors` (m,)
    of its extent across each tile's up direction (`up_degrees`, counter-clockwise from the picture's up)."""
    theta = np.deg2rad(np.asarray(up_degrees, np.float64))
    # Across the tile: up is (-sin, -cos), across (cos, -sin).
    across = np.stack([np.cos(theta), -np.sin(theta)], axis=1)  # (m, 2)
    stretch = (1.0 / np.asarray(factors, np.float64) - 1.0)[:, None, None]
    # Each output point samples the input further out along `across`, so the content looks narrower.
    matrix = np.eye(2)[None] + stretch * across[:, :, None] * across[:, None, :]
    return np.concatenate([matrix, np.zeros((len(matrix), 2, 1))], axis=2).astype(np.float32)


def squeeze_across(x: Any, up_degrees: Any, factors: Any) -> Any:
    """Crops (m,3,S,S) with their content narrowed as `squeeze_matrices` says; what comes in at the sides
    repeats the border."""
    import torch
    import torch.nn.functional as F

    affine = torch.from_numpy(squeeze_matrices(np.asarray(up_degrees), np.asarray(factors)))
    grid = F.affine_grid(affine, list(x.shape), align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


def augment_batch(
    crops_bgr: Any,
    angles: Any,
    generator: Any,
    intrude: float = 0.0,
    groups: Any = None,
    ink_shift: float = 0.0,
    squeeze: float = 0.0,
) -> tuple[Any, Any]:
    """Quarter-turn rotations plus light, colour, resolution, blur and noise changes on a uint8 (n,S,S,3)
    BGR batch. Returns the model input (n,3,S,S) in [-1,1] (RGB, as `crops_to_batch`) and the turned angles.
    With `groups` (`ink_groups` of the crops' classes), a share `ink_shift` of the blue and orange crops get
    another edition's ink hue (`INK_SHIFTS`). A share `squeeze` of the crops are narrowed (`squeeze_across`),
    half across their tile's up direction (a tile seen from the side, an edition's narrower numerals), half
    along it (a face seen from low: a rack at an angle).

    Written for one CPU thread: few full passes over the batch (the tone curve is a per-crop lookup table).
    """
    import torch
    import torch.nn.functional as F

    n = crops_bgr.shape[0]

    def uniform(low: float, high: float, *shape: int) -> torch.Tensor:
        return low + (high - low) * torch.rand(*shape, generator=generator)

    # Tone curve per crop (gamma 0.75-1.35), applied while converting uint8 to float 0-1.
    gamma = torch.exp(uniform(np.log(0.75), np.log(1.35), n, 1))
    lut = (torch.arange(256, dtype=torch.float32)[None, :] / 255.0) ** gamma  # (n, 256)
    rgb = crops_bgr.permute(0, 3, 1, 2).flip(1).reshape(n, -1).long()
    x = torch.gather(lut, 1, rgb).reshape(n, 3, crops_bgr.shape[1], crops_bgr.shape[2])

    turns = torch.randint(0, 4, (n,), generator=generator)
    for k in range(1, 4):
        mask = turns == k
        if mask.any():
            # torch.rot90 over (H, W) turns the picture counter-clockwise: the tile's up gains 90 deg per k.
            x[mask] = torch.rot90(x[mask], k, dims=(2, 3))
    angles = (angles + 90.0 * turns.float()) % 360.0

    if groups is not None and ink_shift > 0:
        shift = torch.zeros(n)
        picked = torch.rand(n, generator=generator) < ink_shift
        for group, (low, high) in enumerate(INK_SHIFTS.values(), start=1):
            rows = picked & (groups == group)
            if rows.any():
                shift[rows] = uniform(low, high, int(rows.sum()))
        rows = shift != 0
        if rows.any():
            turns_rgb = torch.from_numpy(hue_turn_matrices(shift[rows].numpy()))
            x[rows] = torch.einsum("mij,mjhw->mihw", turns_rgb, x[rows]).clamp_(0.0, 1.0)

    if squeeze > 0:
        rows = (torch.rand(n, generator=generator) < squeeze) & ~torch.isnan(angles)
        if rows.any():
            count = int(rows.sum())
            # Half across the tile, half along its up (90 degrees on: across a tile turned a quarter).
            axis = angles[rows] + 90.0 * (torch.rand(count, generator=generator) < 0.5).float()
            x[rows] = squeeze_across(x[rows], axis, uniform(*SQUEEZE_RANGE, count))

    # Neighbour intrusion: for a share `intrude` of the batch, a strip from the middle of another crop
    # (digits of a tightly packed neighbour) replaces the left or right edge (any side after the turns).
    intruded = torch.rand(n, generator=generator) < intrude
    if intruded.any():
        rows = intruded.nonzero().squeeze(1)
        donors = x[torch.randint(0, n, (len(rows),), generator=generator)]
        size = x.shape[3]
        strip = int(torch.randint(size // 10, size // 3, (1,), generator=generator))
        start = (
            size // 2 - strip // 2 + int(torch.randint(-size // 8, size // 8 + 1, (1,), generator=generator))
        )
        if bool(torch.rand(1, generator=generator) < 0.5):
            x[rows, :, :, :strip] = donors[:, :, :, start : start + strip]
        else:
            x[rows, :, :, size - strip :] = donors[:, :, :, start : start + strip]

    # Low resolution (small far tiles): down to a random size and back, for about a third of the batch.
    low_res = torch.rand(n, generator=generator) < 0.35
    if low_res.any():
        side = int(torch.randint(20, 44, (1,), generator=generator))
        small = F.interpolate(x[low_res], size=(side, side), mode="area")
        x[low_res] = F.interpolate(small, size=x.shape[-2:], mode="bilinear", align_corners=False)
    # Blur (focus) for a fifth.
    blurred = torch.rand(n, generator=generator) < 0.2
    if blurred.any():
        kernel = torch.tensor([1.0, 2.0, 1.0]) / 4.0
        kernel2d = (kernel[:, None] * kernel[None, :]).expand(3, 1, 3, 3).contiguous()
        x[blurred] = F.conv2d(F.pad(x[blurred], (1, 1, 1, 1), mode="replicate"), kernel2d, groups=3)
    # Saturation, then contrast, brightness and white balance as one affine map per crop and channel.
    # The channel gains stay small: red/orange and black/blue must stay apart.
    saturation = uniform(0.7, 1.3, n, 1, 1, 1)
    x = torch.lerp(x.mean(dim=1, keepdim=True), x, saturation)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = uniform(0.7, 1.3, n, 1, 1, 1)
    gain = uniform(0.65, 1.25, n, 1, 1, 1) * uniform(0.92, 1.08, n, 3, 1, 1)
    x = torch.addcmul(mean * (1.0 - contrast) * gain, x, contrast * gain)
    # Sensor/JPEG-like noise, drawn at half resolution (cheap, slightly blotchy like real noise).
    half = torch.randn((n, 3, x.shape[2] // 2, x.shape[3] // 2), generator=generator)
    half.mul_(uniform(0.0, 0.04, n, 1, 1, 1))
    x.add_(F.interpolate(half, scale_factor=2.0, mode="nearest")).clamp_(0.0, 1.0)
    return x.mul_(2.0).sub_(1.0), angles


# ---------------------------------------------------------------- training


def angle_error_deg(predicted: np.ndarray, truth: np.ndarray) -> np.ndarray:
    diff = (np.asarray(predicted) - np.asarray(truth)) % 360.0
    return np.minimum(diff, 360.0 - diff)


def evaluate_arrays(model: Any, crops: np.ndarray, batch_size: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """Class probabilities and angle probabilities of crops (uint8 BGR) under a torch model in eval mode."""
    import torch

    model.eval()
    class_out, angle_out = [], []
    with torch.no_grad():
        for start in range(0, len(crops), batch_size):
            batch = torch.from_numpy(crops_to_batch(crops[start : start + batch_size]))
            class_logits, angle_logits = model(batch)
            class_out.append(torch.softmax(class_logits, 1).numpy())
            angle_out.append(torch.softmax(angle_logits, 1).numpy())
    return np.concatenate(class_out), np.concatenate(angle_out)


def ensemble_teacher(listing_folder: Path | None = None, threads: int = 1) -> Any:
    """The shipped reader's crop classifier as a teacher: a function from a network input batch (n,3,S,S)
    to (n, 54) probabilities (53 tiles, then not a tile) as the reader would mix them, read once (no
    turned rereads: the student learns the turns from the augmentation)."""
    from vision import reader

    shipped = reader.model_path
    if listing_folder is not None:
        from vision import onnx_models

        def in_folder(filename: str) -> Path:
            path = listing_folder / filename
            if not path.is_file():
                raise onnx_models.ModelLoadError(f"teacher model {path} not found")
            return path

        reader.model_path = in_folder  # type: ignore[assignment]
    try:
        ensemble = reader.load_classifier(threads=threads)
    finally:
        reader.model_path = shipped  # the teacher's folder is for the teacher only
    if ensemble is None:
        raise SystemExit("no crop classifier to learn from")
    for member in getattr(ensemble, "members", [ensemble]):
        member.recheck_below = 0.0
    ensemble.recheck_below = 0.0

    def teach(batch: np.ndarray) -> np.ndarray:
        tile, not_tile, _ = ensemble.probabilities(np.zeros((len(batch), 1, 1, 3), np.uint8), batch)
        tile = tile / np.maximum(tile.sum(axis=1, keepdims=True), 1e-12) * (1.0 - not_tile)[:, None]
        return np.concatenate([tile, not_tile[:, None]], axis=1).astype(np.float32)

    return teach


def split_heads_from_joint(
    weight: np.ndarray, bias: np.ndarray
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """A number head and a colour head that start near a joint head (`weight` (54, f), `bias` (54,)): each
    numbered class's logit taken as a number's part plus a colour's (the least-squares split of the 13 x 4
    table of logits: a number's mean over the inks, an ink's mean over the numbers less the grand mean), the
    number's bias raised by the log-sum over the inks so that a joker or not-a-tile weighs against a number
    as it did against its four tiles. Returns ((number weight, bias), (colour weight, bias))."""
    number_of_class, colour_of_class = split_indices()
    coloured = colour_of_class < len(COLOUR_NAMES)
    table_w = np.zeros((len(NUMBER_NAMES), len(COLOUR_NAMES), weight.shape[1]), np.float64)
    table_b = np.zeros((len(NUMBER_NAMES), len(COLOUR_NAMES)), np.float64)
    table_w[number_of_class[coloured], colour_of_class[coloured]] = weight[coloured]
    table_b[number_of_class[coloured], colour_of_class[coloured]] = bias[coloured]
    numbered = sorted(set(number_of_class[coloured]))
    grand_w, grand_b = table_w[numbered].mean(axis=(0, 1)), table_b[numbered].mean()
    colour_w = table_w[numbered].mean(axis=0) - grand_w
    colour_b = table_b[numbered].mean(axis=0) - grand_b
    number_w = np.zeros((len(NUMBER_NAMES), weight.shape[1]), np.float64)
    number_b = np.zeros(len(NUMBER_NAMES), np.float64)
    number_w[numbered] = table_w[numbered].mean(axis=1)
    number_b[numbered] = table_b[numbered].mean(axis=1) + np.logaddexp.reduce(colour_b)
    for row in np.flatnonzero(~coloured):
        number_w[number_of_class[row]] = weight[row]
        number_b[number_of_class[row]] = bias[row]
    number_head = (number_w.astype(np.float32), number_b.astype(np.float32))
    return number_head, (colour_w.astype(np.float32), colour_b.astype(np.float32))


def init_from_onnx(model: Any, path: Path, crops: np.ndarray, batch_size: int = 256) -> None:
    """Start `model` (`build_model`) from an exported classifier: its convolutions (their batch norms folded
    in by the export) and heads (a file with number and colour heads only into a `--heads split` network).
    A narrower network keeps each layer's filters of largest weight (L1), and their inputs in the next
    layer. Each batch norm is set to pass its convolution's output on unchanged, with its running statistics
    those of the convolution's output on `crops`, so that it goes on the same in training (batch
    statistics) as in inference. A class the exported model lacks (not a tile, where it has 53) starts with
    zero weights and a low bias."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    proto = onnx.load(str(path))
    values = {i.name: numpy_helper.to_array(i) for i in proto.graph.initializer}
    convs = [(values[n.input[1]], values[n.input[2]]) for n in proto.graph.node if n.op_type == "Conv"]
    gemms = [(values[n.input[1]], values[n.input[2]]) for n in proto.graph.node if n.op_type == "Gemm"]
    blocks = [m for m in model.features if isinstance(m, nn.Sequential)]
    split_file = len(gemms) == 3  # a number head, a colour head and the angle head (`--heads split`)
    if len(convs) != len(blocks) or len(gemms) not in (2, 3):
        raise SystemExit(
            f"{path}: {len(convs)} convolutions and {len(gemms)} heads, the network has {len(blocks)} and 2-3"
        )
    if split_file and (model.heads != "split" or sorted(len(w) for w, _ in gemms)
                       != sorted((len(NUMBER_NAMES), len(COLOUR_NAMES), model.angle.weight.shape[0]))):
        raise SystemExit(f"{path} has number and colour heads: start a --heads split network from it")
    kept_in = np.arange(3)
    pruned = []
    for block, (weight, bias) in zip(blocks, convs, strict=True):
        wanted = block[0].weight.shape[0]
        if wanted > weight.shape[0] or weight.shape[1] != 3 and weight.shape[1] < len(kept_in):
            raise SystemExit(
                f"{path}: a convolution of shape {weight.shape} is narrower than the network's "
                f"{tuple(block[0].weight.shape)}"
            )
        strongest = np.sort(np.argsort(-np.abs(weight).sum(axis=(1, 2, 3)), kind="stable")[:wanted])
        pruned.append((weight[strongest][:, kept_in], bias[strongest]))
        kept_in = strongest
    spatial = (CROP_SIZE // 16) ** 2
    columns = (kept_in[:, None] * spatial + np.arange(spatial)[None, :]).reshape(-1)
    gemms = [(weight[:, columns], bias) for weight, bias in gemms]
    convs = pruned
    outputs: dict[int, list[torch.Tensor]] = {k: [] for k in range(len(blocks))}
    hooks = [
        block[0].register_forward_hook(lambda _m, _i, out, k=k: outputs[k].append(out.detach()))
        for k, block in enumerate(blocks)
    ]
    with torch.no_grad():
        for block, (weight, bias) in zip(blocks, convs, strict=True):
            block[0].weight.copy_(torch.from_numpy(np.array(weight)))
            norm = block[1]
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(np.array(bias)))
        if split_file:  # the heads as they are
            by_rows = {len(w): (w, b) for w, b in gemms}
            for head in (model.numbers, model.colours, model.angle):
                weight, bias = by_rows[head.weight.shape[0]]
                head.weight.copy_(torch.from_numpy(np.array(weight)))
                head.bias.copy_(torch.from_numpy(np.array(bias)))
        else:
            (class_w, class_b), (angle_w, angle_b) = gemms
            full_w = np.zeros((len(MODEL_CLASSES), class_w.shape[1]), np.float32)
            full_b = np.full(len(MODEL_CLASSES), -4.0, np.float32)
            rows = min(len(class_w), len(MODEL_CLASSES))
            full_w[:rows], full_b[:rows] = class_w[:rows], class_b[:rows]
            if model.heads == "joint":
                model.classes.weight.copy_(torch.from_numpy(full_w))
                model.classes.bias.copy_(torch.from_numpy(full_b))
            else:
                split = split_heads_from_joint(full_w, full_b)
                for head, values in zip((model.numbers, model.colours), split, strict=True):
                    head.weight.copy_(torch.from_numpy(values[0]))
                    head.bias.copy_(torch.from_numpy(values[1]))
            model.angle.weight.copy_(torch.from_numpy(np.array(angle_w)))
            model.angle.bias.copy_(torch.from_numpy(np.array(angle_b)))
        model.eval()  # the network now computes what the exported one does: record its convolutions' outputs
        for start in range(0, len(crops), batch_size):
            model(torch.from_numpy(crops_to_batch(crops[start : start + batch_size])))
        for hook in hooks:
            hook.remove()
        for k, block in enumerate(blocks):
            seen = torch.cat(outputs[k])
            mean = seen.mean(dim=(0, 2, 3))
            var = seen.var(dim=(0, 2, 3), unbiased=False)
            norm = block[1]
            bias = norm.bias.clone()
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.copy_(mean + bias)
    print(f"started from {path} (statistics of {len(crops)} crops)", flush=True)


def train(
    data: dict[str, np.ndarray],
    epochs: int,
    seed: int,
    batch_size: int = 128,
    width: int = 16,
    lr: float = 3e-3,
    val_every: int = 20,
    checkpoint: Path | None = None,
    intrude: float = 0.0,
    resume: bool = False,
    ink_shift: float = 0.0,
    squeeze: float = 0.0,
    teacher: Any = None,
    distil: float = 0.5,
    init_onnx: Path | None = None,
    real_val: dict[str, np.ndarray] | None = None,
    heads: str = "joint",
) -> tuple[Any, float]:
    """Train on all scenes except every `val_every`-th (held out and reported each epoch); returns the
    model and the temperature that calibrates its scores on the held-out crops.

    With `resume`, carry on from `checkpoint` (model, optimiser, schedule and random state of the last
    finished epoch), so a run cut short by the end of a session goes on where it stopped.

    With a `teacher` (`ensemble_teacher`), the class loss is `distil` x cross-entropy against the teacher's
    probabilities of the same augmented crops plus the rest against the labels: a smaller network learns
    to read as the shipped ensemble does. `init_onnx`: start from that exported classifier
    (`init_from_onnx`) instead of random weights. `real_val` (`build_real_crops` of photos not trained on):
    its crop accuracy is reported each epoch beside the renders'."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    is_val = (data["scene"] % val_every == 0) & (data["scene"] >= 0)  # scene -1: real crops, trained on
    train_crops = torch.from_numpy(data["crops"][~is_val])
    train_classes = torch.from_numpy(data["class_id"][~is_val])
    train_groups = torch.from_numpy(ink_groups(data["class_id"][~is_val]))
    train_angles = torch.from_numpy(data["angle"][~is_val].astype(np.float32))
    val_crops, val_classes, val_angles = (
        data["crops"][is_val],
        data["class_id"][is_val],
        data["angle"][is_val],
    )
    print(f"train {len(train_crops)} crops, held out {len(val_crops)}", flush=True)

    model = build_model(width=width, heads=heads)
    if init_onnx is not None and not resume:
        count = min(4096, len(train_crops))
        sample = np.sort(np.random.default_rng(seed).choice(len(train_crops), count, replace=False))
        init_from_onnx(model, init_onnx, train_crops.numpy()[sample])
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    steps_per_epoch = len(train_crops) // batch_size
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=lr, total_steps=epochs * steps_per_epoch, pct_start=0.15
    )
    first_epoch = 0
    if resume:
        if checkpoint is None or not checkpoint.exists():
            raise SystemExit(f"nothing to resume: {checkpoint} does not exist")
        saved = torch.load(checkpoint, weights_only=False)
        if saved.get("epochs", epochs) != epochs:
            raise SystemExit(
                f"{checkpoint} is a run of {saved['epochs']} epochs: resume it with --epochs "
                f"{saved['epochs']}"
            )
        if (trained_heads := saved.get("heads", "joint")) != heads:
            raise SystemExit(f"{checkpoint} was trained with --heads {trained_heads}")
        model.load_state_dict(saved["state"])
        if "optimizer" in saved:
            optimizer.load_state_dict(saved["optimizer"])
            scheduler.load_state_dict(saved["scheduler"])
            generator.set_state(saved["generator"])
        first_epoch = int(saved["epoch"])
        print(f"resumed after epoch {first_epoch} from {checkpoint}", flush=True)
    started = time.time()
    for epoch in range(first_epoch, epochs):
        model.train()
        order = torch.randperm(len(train_crops), generator=generator)
        loss_sum = 0.0
        for step in range(steps_per_epoch):
            index = order[step * batch_size : (step + 1) * batch_size]
            inputs, angles = augment_batch(
                train_crops[index],
                train_angles[index],
                generator,
                intrude,
                train_groups[index],
                ink_shift,
                squeeze,
            )
            angle_known = ~torch.isnan(angles)
            angle_targets = torch.from_numpy(angle_soft_labels(np.nan_to_num(angles.numpy())))
            class_logits, angle_logits = model(inputs)
            loss = F.cross_entropy(class_logits, train_classes[index], label_smoothing=0.05)
            if teacher is not None:
                taught = torch.from_numpy(teacher(inputs.numpy()))
                soft = -(taught * F.log_softmax(class_logits, 1)).sum(1).mean()
                loss = (1.0 - distil) * loss + distil * soft
            is_tile = (train_classes[index] != NOT_A_TILE_ID) & angle_known
            if is_tile.any():
                loss = loss + 0.3 * F.cross_entropy(angle_logits[is_tile], angle_targets[is_tile])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
            loss_sum += loss.item()
            if step % 100 == 0:
                print(
                    f"epoch {epoch + 1}/{epochs} step {step}/{steps_per_epoch} "
                    f"loss {loss_sum / (step + 1):.4f} {time.time() - started:.0f}s",
                    flush=True,
                )
        class_probs, angle_probs = evaluate_arrays(model, val_crops)
        accuracy = float((class_probs.argmax(1) == val_classes).mean()) if len(val_crops) else float("nan")
        val_tiles = val_classes != NOT_A_TILE_ID
        angle_err = angle_error_deg(decode_angle(angle_probs[val_tiles]), val_angles[val_tiles])
        real_note = ""
        if real_val is not None:
            real_probs, _ = evaluate_arrays(model, real_val["crops"])
            real_note = f", real crops {float((real_probs.argmax(1) == real_val['class_id']).mean()):.4f}"
        print(
            f"epoch {epoch + 1} done: loss {loss_sum / max(1, steps_per_epoch):.4f}, held-out accuracy "
            f"{accuracy:.4f}, angle error median {np.median(angle_err):.1f} deg, >45 deg "
            f"{float((angle_err > 45).mean()):.4f}{real_note}, {time.time() - started:.0f}s",
            flush=True,
        )
        if checkpoint is not None:
            torch.save(
                {
                    "epoch": epoch + 1,
                    "epochs": epochs,
                    "width": width,
                    "heads": heads,
                    "state": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(),
                    "generator": generator.get_state(),
                },
                checkpoint,
            )
    model.eval()
    class_probs, _ = evaluate_arrays(model, val_crops)
    temperature = fit_temperature(class_probs, val_classes) if len(val_crops) else 1.0
    print(f"temperature fitted on {len(val_crops)} held-out crops: {temperature:.3f}", flush=True)
    return model, temperature


# ---------------------------------------------------------------- export


def export_onnx(model: Any, out_path: Path, metadata: dict[str, str]) -> None:
    """Export with softmax outputs `class_probs` (n,54), `angle_probs` (n,bins); check onnxruntime agrees."""
    import onnx
    import onnxruntime as ort
    import torch

    class WithSoftmax(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            class_logits, angle_logits = self.inner(x)
            return torch.softmax(class_logits, 1), torch.softmax(angle_logits, 1)

    wrapped = WithSoftmax(model).eval()
    example = torch.zeros(2, 3, CROP_SIZE, CROP_SIZE)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        wrapped,
        (example,),
        str(out_path),
        input_names=["crops"],
        output_names=["class_probs", "angle_probs"],
        dynamic_axes={"crops": {0: "n"}, "class_probs": {0: "n"}, "angle_probs": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    proto = onnx.load(str(out_path))
    for key, value in metadata.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(proto, str(out_path))

    probe = torch.from_numpy(
        np.random.default_rng(0).uniform(-1, 1, (5, 3, CROP_SIZE, CROP_SIZE)).astype(np.float32)
    )
    with torch.no_grad():
        expected = [t.numpy() for t in wrapped(probe)]
    session = ort.InferenceSession(str(out_path), providers=["CPUExecutionProvider"])
    got = session.run(None, {"crops": probe.numpy()})
    worst = max(float(np.abs(e - g).max()) for e, g in zip(expected, got, strict=True))
    if worst > 1e-4:
        raise SystemExit(f"onnxruntime output differs from torch by {worst}")
    print(
        f"exported {out_path} ({out_path.stat().st_size / 1e6:.2f} MB), "
        f"onnxruntime matches torch (max diff {worst:.1e})"
    )


# ---------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.training.classifier", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--render", type=Path, action="append", default=[], help="renderer output dir (repeatable)"
    )
    parser.add_argument("--max-scenes", type=int, default=None, help="use scenes 0..N-1 of each --render dir")
    parser.add_argument(
        "--crops", type=Path, default=Path("data/cls_crops.npz"), help="crop cache (made if absent)"
    )
    parser.add_argument("--copies", type=int, default=3, help="jittered crops per rendered tile")
    parser.add_argument(
        "--side-extend",
        type=float,
        default=0.15,
        help="push one box edge out by up to this fraction (half the crops)",
    )
    parser.add_argument("--out", type=Path, default=Path("models/tile_classifier.onnx"))
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--width", type=int, default=16, help="channels of the first layer")
    parser.add_argument(
        "--heads", choices=HEADS, default="joint",
        help="joint: one head of 54 classes; split: a number head and a colour head (see HEADS)",
    )
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--intrude", type=float, default=0.3, help="share of crops given a neighbour's strip")
    parser.add_argument(
        "--checkpoint", type=Path, default=Path("data/cls_checkpoint.pt"), help="saved each epoch"
    )
    parser.add_argument(
        "--export-only", action="store_true", help="export --checkpoint to --out, no training"
    )
    parser.add_argument("--resume", action="store_true", help="carry on from --checkpoint")
    parser.add_argument(
        "--teacher",
        type=Path,
        default=None,
        metavar="MODELS_DIR",
        help="learn also from the ensemble classifiers.json in this folder lists (distillation)",
    )
    parser.add_argument("--distil", type=float, default=0.5, help="weight of the teacher's loss, 0-1")
    parser.add_argument(
        "--init-onnx",
        type=Path,
        default=None,
        metavar="CLASSIFIER_ONNX",
        help="start from this exported classifier (same --width) instead of random weights",
    )
    parser.add_argument(
        "--add-render",
        type=Path,
        action="append",
        default=[],
        metavar="RENDER_DIR",
        help="renders whose crops are added to a loaded --crops cache (not saved into it)",
    )
    parser.add_argument(
        "--real",
        type=Path,
        action="append",
        default=[],
        metavar="PHOTOS_DIR",
        help="also train on the labelled tiles of these real photos (images/, labels/ as ../shared/real-dev)",
    )
    parser.add_argument(
        "--real-val",
        type=Path,
        default=None,
        metavar="PHOTOS_DIR",
        help="real photos not trained on: their crop accuracy is reported each epoch",
    )
    parser.add_argument("--real-copies", type=int, default=6, help="jittered crops per real tile")
    parser.add_argument(
        "--real-up",
        action="store_true",
        help="learn the real tiles' up directions too, as the shipped classifiers read them (where they read "
        "the tile right)",
    )
    parser.add_argument(
        "--ink-shift", type=float, default=0.35, help="share of blue/orange crops given another edition's hue"
    )
    parser.add_argument(
        "--squeeze",
        type=float,
        default=0.0,
        help="share of crops narrowed across or along their tile (a slanted view, narrow numerals)",
    )
    parser.add_argument(
        "--background-patches", type=int, default=4, help="not-a-tile patches of bare table per scene"
    )
    parser.add_argument(
        "--hard-negatives",
        type=Path,
        default=None,
        metavar="DETECTOR_ONNX",
        help="also learn as not-a-tile every box this detector finds where no tile lies",
    )
    args = parser.parse_args(argv)

    import torch

    torch.set_num_threads(args.threads)
    started = time.time()
    metadata = {
        "crop_size": str(CROP_SIZE),
        "crop_margin": str(CROP_MARGIN),
        "angle_bins": str(ANGLE_BINS),
        "class_names": ",".join(MODEL_CLASSES),
        "input": "BGR crop from vision.crops.cut_crop -> vision.crops.crops_to_batch (RGB, [-1, 1])",
        "recipe": " ".join(
            ["python -m vision.training.classifier", *(argv if argv is not None else sys.argv[1:])]
        ),
    }
    if args.export_only:
        saved = torch.load(args.checkpoint, weights_only=False)
        heads = saved.get("heads", "joint")
        model = build_model(width=saved["width"], heads=heads)
        model.load_state_dict(saved["state"])
        trained = {"epochs_trained": str(saved["epoch"]), "heads": heads}
        export_onnx(model.eval(), args.out, metadata | trained)
        return 0
    negatives = None  # the detector whose boxes where no tile lies are learned as not a tile
    if args.hard_negatives and (args.add_render or not args.crops.exists()):
        from vision.detector import TileDetector

        negatives = TileDetector(args.hard_negatives, threads=args.threads)
    if args.crops.exists():
        with np.load(args.crops) as cached:
            data = {key: cached[key] for key in cached.files}
        print(f"loaded {len(data['crops'])} crops from {args.crops}", flush=True)
    else:
        if not args.render:
            parser.error("--render is needed to cut the crop cache")
        data = build_crop_dataset(
            args.render,
            seed=args.seed,
            copies=args.copies,
            max_scenes=args.max_scenes,
            side_extend=args.side_extend,
            background_patches=args.background_patches,
            detector=negatives,
        )
        args.crops.parent.mkdir(parents=True, exist_ok=True)
        np.savez(args.crops, **data)
        print(f"cut {len(data['crops'])} crops into {args.crops} in {time.time() - started:.0f}s", flush=True)
    if args.add_render:
        added = build_crop_dataset(
            args.add_render,
            seed=args.seed + 1,
            copies=args.copies,
            side_extend=args.side_extend,
            background_patches=args.background_patches,
            detector=negatives,
        )
        added["scene"] += int(data["scene"].max()) + 1  # their own scenes, held out as the cache's are
        data = {key: np.concatenate([data[key], added[key]]) for key in data}
        print(f"added {len(added['crops'])} crops of {args.add_render}", flush=True)
    up_reader = None
    if args.real_up:
        from vision.reader import load_classifier

        up_reader = load_classifier(threads=args.threads)
    for real_dir in args.real:
        real = build_real_crops(
            real_dir, seed=args.seed, copies=args.real_copies, side_extend=args.side_extend,
            up_reader=up_reader,
        )
        data = {key: np.concatenate([data[key], real[key]]) for key in data}
        print(f"added {len(real['crops'])} crops of real photos from {real_dir}", flush=True)
    counts = np.bincount(data["class_id"], minlength=len(MODEL_CLASSES))
    print(
        f"crops per class: min {counts.min()} ({MODEL_CLASSES[counts.argmin()]}), max {counts.max()}, "
        f"not a tile {counts[NOT_A_TILE_ID]}",
        flush=True,
    )

    model, temperature = train(
        data,
        epochs=args.epochs,
        seed=args.seed,
        batch_size=args.batch_size,
        width=args.width,
        lr=args.lr,
        checkpoint=args.checkpoint,
        intrude=args.intrude,
        resume=args.resume,
        ink_shift=args.ink_shift,
        squeeze=args.squeeze,
        teacher=ensemble_teacher(args.teacher, threads=args.threads) if args.teacher else None,
        distil=args.distil,
        init_onnx=args.init_onnx,
        real_val=build_real_crops(args.real_val, seed=args.seed) if args.real_val else None,
        heads=args.heads,
    )
    export_onnx(
        model, args.out,
        metadata
        | {"epochs_trained": str(args.epochs), "temperature": f"{temperature:.4f}", "heads": args.heads},
    )
    print(f"total {math.ceil((time.time() - started) / 60)} min", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
