"""Reading with a calibration profile: what `rummi calibrate` learned of a table and a tile set, applied to
each read (`TileReader.read_faces`). The profile is fitted in `vision.calibration`; this module is the part
a read runs, so the reader loads neither the fitting nor the face renderer it uses.

- Finds like the bare table's (`cloth_like`): a detection whose classifier descriptor lies near what the
  reader found on the empty cloth, and is not read confidently as a tile, is left out.
- The set's inks (`read_crops_profiled`): crops are read as they are and recoloured to the inks the
  classifier knows; the more confident reading wins, tile by tile.
- Second boxes of one tile (`second_boxes`) where the profile lowers the detector's threshold.
"""

from __future__ import annotations

import cv2
import numpy as np

from assistant.tiles import CLASS_NAMES
from vision.classifier import CropReadings, TileClassifier, readings_of
from vision.crops import cut_crops
from vision.detections import Detections, box_iou
from vision.detector import DEFAULT_CONFIDENCE, on_rack_boxes
from vision.profile import ModelVersions, Profile, file_hash

NEARER_THAN_TILES = 0.8
"""A detection is like the cloth when its distance to the cloth's finds is under this share of its
distance to the nearest tile face (drawn on this cloth, or the set's own tiles)."""
SAME_TILE_IOU = 0.4
"""Under the reader's own threshold the detector also gives second, shifted boxes of a tile it found with a
higher score (real-dev at 0.2: 12 of the 13 false tiles, IoU 0.42-0.6 with the better box); a find there
overlapping a stronger one this much is that tile again. Tiles side by side in rows overlap less (most
under 0.35 on the rendered tables), and where they overlap more they read as another tile."""
SAME_TILE_UNSURE = 0.5
"""A second box read with less confidence than this is taken as the tile again whatever it reads."""


def model_versions(reader: object) -> ModelVersions:
    """Hashes of the reader's detector and classifier files."""
    detector = reader.detector  # type: ignore[attr-defined]
    classifier = reader.classifier  # type: ignore[attr-defined]
    if classifier is None:
        return ModelVersions(file_hash(detector.path), "none")
    members = getattr(classifier, "members", [classifier])
    return ModelVersions(file_hash(detector.path), "+".join(file_hash(m.path) for m in members))


def describe_crops(classifier: TileClassifier, crops: np.ndarray) -> np.ndarray:
    """(n, d) descriptors of crops: the classifier's log-probabilities, centred per crop (= its logits)."""
    if len(crops) == 0:
        return np.zeros((0, len(CLASS_NAMES)), np.float32)
    return descriptors_of(classifier.probabilities(crops)[0])


def descriptors_of(tile_probs: np.ndarray) -> np.ndarray:
    """`describe_crops` from the classifier's (n, 53) tile probabilities of the crops, already made."""
    logs = np.log(np.clip(tile_probs, 1e-6, 1.0))
    return (logs - logs.mean(axis=1, keepdims=True)).astype(np.float32)


def nearest_distance(descriptors: np.ndarray, bank: np.ndarray) -> np.ndarray:
    """(n,) Euclidean distance of each descriptor to its nearest one in `bank` (inf for an empty bank)."""
    if len(bank) == 0 or len(descriptors) == 0:
        return np.full(len(descriptors), np.inf, np.float32)
    squared = (
        (descriptors**2).sum(axis=1)[:, None] + (bank**2).sum(axis=1)[None, :] - 2.0 * descriptors @ bank.T
    )
    return np.sqrt(np.clip(squared.min(axis=1), 0.0, None)).astype(np.float32)


def _hue_anchors(profile: Profile) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(from hues, to hues, saturation gains) of the coloured inks, sorted by the set's hue."""
    names = [n for n in ("blue", "red", "orange") if n in profile.inks and n in profile.reference_inks]
    source = np.array([profile.inks[n].hue for n in names])
    target = np.array([profile.reference_inks[n].hue for n in names])
    gain = np.array(
        [profile.reference_inks[n].saturation / max(profile.inks[n].saturation, 1e-3) for n in names]
    )
    order = np.argsort(source)
    return source[order], target[order], gain[order]


def _circular_interp(
    hue: np.ndarray,
    source: np.ndarray,
    values: np.ndarray,
    period: float = 360.0,
) -> np.ndarray:
    xs = np.concatenate([source - period, source, source + period])
    ys = np.concatenate([values, values, values])
    return np.interp(hue, xs, ys)


def recolour_crops(crops: np.ndarray, profile: Profile) -> np.ndarray:
    """Crops with the set's coloured inks turned to the inks the classifier knows (hue and saturation),
    in proportion to how saturated each pixel is: the ivory body and black ink barely change."""
    source, target, gain = _hue_anchors(profile)
    if len(source) == 0 or len(crops) == 0:
        return crops
    shift = (target - source + 180.0) % 360.0 - 180.0
    hsv = cv2.cvtColor(crops.reshape(-1, crops.shape[2], 3), cv2.COLOR_BGR2HSV_FULL).astype(np.float32)
    hue = hsv[..., 0] * (360.0 / 256.0)
    sat = hsv[..., 1] / 255.0
    weight = np.clip((sat - 0.2) / 0.2, 0.0, 1.0)
    new_hue = hue + weight * _circular_interp(hue, source, shift)
    new_sat = sat * (1.0 + weight * (_circular_interp(hue, source, gain) - 1.0))
    hsv[..., 0] = (new_hue % 360.0) * (256.0 / 360.0)
    hsv[..., 1] = np.clip(new_sat, 0.0, 1.0) * 255.0
    hsv = np.clip(hsv + 0.5, 0, 255).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR_FULL).reshape(crops.shape)


def read_crops_profiled(
    classifier: TileClassifier,
    crops: np.ndarray,
    profile: Profile,
    plain: CropReadings | None = None,
    on_rack: np.ndarray | None = None,
) -> CropReadings:
    """`classifier.read_crops`, with the set's inks mapped where the profile says so (the more confident
    of the plain and the mapped reading wins, tile by tile). `plain`: the plain reading, if already made;
    `on_rack`: which crops are of tiles standing on a found rack."""
    plain = classifier.read_crops(crops, on_rack) if plain is None else plain
    if not profile.map_inks or len(crops) == 0:
        return plain
    mapped = classifier.read_crops(recolour_crops(crops, profile), on_rack)
    better = mapped.topk_scores[:, 0] > plain.topk_scores[:, 0]
    if not better.any():
        return plain
    pick = better[:, None]
    return CropReadings(
        np.where(pick, mapped.topk_class_ids, plain.topk_class_ids),
        np.where(pick, mapped.topk_scores, plain.topk_scores),
        np.where(better, mapped.angle_deg, plain.angle_deg),
        np.where(better, mapped.not_tile, plain.not_tile),
    )


def cloth_like(
    classifier: TileClassifier,
    crops: np.ndarray,
    top_scores: np.ndarray,
    profile: Profile,
    tile_probs: np.ndarray | None = None,
) -> np.ndarray:
    """(n,) bool: the crop is like what the reader found on the bare table, and not confidently a tile.
    `tile_probs`: the classifier's probabilities of the crops, where already made as `describe_crops` makes
    them."""
    if profile.false_finds == 0 or profile.false_radius <= 0 or len(crops) == 0:
        return np.zeros(len(crops), bool)
    descriptors = describe_crops(classifier, crops) if tile_probs is None else descriptors_of(tile_probs)
    distance = nearest_distance(descriptors, profile.false_descriptors)
    like = distance < profile.false_radius
    if len(profile.tile_descriptors):
        like |= distance < NEARER_THAN_TILES * nearest_distance(descriptors, profile.tile_descriptors)
    return like & (top_scores < profile.keep_above)


def second_boxes(
    found: Detections, profile: Profile, read_as: np.ndarray | None = None, scores: np.ndarray | None = None
) -> np.ndarray:
    """(n,) bool: finds under the reader's own threshold (a profile's lower one lets them in:
    `vision.calibration.LOWEST_MIN_SCORE`) that overlap a stronger find by `SAME_TILE_IOU` or more and,
    given the readings (`read_as` class ids, `scores` their confidence), are read as the same tile or read
    unsure: that tile again. A neighbour in a tight row reads as another tile and stays."""
    again = np.zeros(len(found), bool)
    if profile.min_score is None or profile.min_score >= DEFAULT_CONFIDENCE or len(found) < 2:
        return again
    weak = np.flatnonzero(found.confidence < DEFAULT_CONFIDENCE)
    if not len(weak):
        return again
    overlap = box_iou(found.xyxy[weak], found.xyxy)
    overlap[found.confidence[None, :] <= found.confidence[weak][:, None]] = 0.0  # stronger ones only
    best = overlap.argmax(axis=1)
    same = overlap.max(axis=1) >= SAME_TILE_IOU
    if read_as is not None and scores is not None:
        same &= (read_as[weak] == read_as[best]) | (scores[weak] < SAME_TILE_UNSURE)
    again[weak[same]] = True
    return again


def read_profiled(
    classifier: TileClassifier, image: np.ndarray, found: Detections, profile: Profile
) -> tuple[Detections, CropReadings, Detections]:
    """Read the detections `found` in `image` with the profile: (the kept detections, their readings, the
    detections left out as like the bare table). Second boxes of a tile (`second_boxes`) are dropped."""
    crops = cut_crops(image, found.xyxy, size=classifier.crop_size, margin=classifier.crop_margin)
    on_rack = on_rack_boxes(found.xyxy, found.rack_xyxy, rack_quad=found.rack_quad)
    if not len(found):
        return found, classifier.read_crops(crops), Detections.empty()
    probs = classifier.probabilities(crops, on_rack=on_rack)
    plain = readings_of(*probs, k=classifier.k)
    readings = read_crops_profiled(classifier, crops, profile, plain, on_rack)
    # Whether a find is confidently a tile is judged on the plain reading: recolouring must not make
    # the cloth look like tiles. The cloth was described without racks: the same probabilities serve
    # unless an ensemble mixed some crops as standing on a rack.
    same_mix = not on_rack.any() or getattr(classifier, "rack_weights", None) is None
    cloth = cloth_like(classifier, crops, plain.topk_scores[:, 0], profile, probs[0] if same_mix else None)
    again = second_boxes(found, profile, readings.topk_class_ids[:, 0], readings.topk_scores[:, 0])
    if not cloth.any() and not again.any():
        return found, readings, Detections.empty()
    keep = ~cloth & ~again
    kept = CropReadings(
        readings.topk_class_ids[keep],
        readings.topk_scores[keep],
        readings.angle_deg[keep],
        readings.not_tile[keep],
    )
    return found[keep], kept, found[cloth]
