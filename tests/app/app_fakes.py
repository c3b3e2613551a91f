"""Fakes for the app tests: detections of tiles laid out in rows, a reader that returns them, photos."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from assistant.tiles import Tile, class_id
from vision.detections import Detections

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TILE_W, TILE_H, GAP, SET_GAP = 40.0, 56.0, 3.0, 70.0


def scene_detections(
    rows: Sequence[Sequence[str]], runner_up: dict[str, str] | None = None, score: float = 0.97
) -> Detections:
    """Detections of tiles lying in rows; each row a list of layouts like `r5 r6 r7`, sets spaced apart.

    `runner_up` maps a token to the classifier's second reading for every tile read as that token; such a
    tile's top score is lowered so the layout marks it doubtful.
    """
    boxes, top, scores = [], [], []
    for row_index, row in enumerate(rows):
        y = 60.0 + row_index * (TILE_H * 2.5)
        x = 40.0
        for set_text in row:
            for token in set_text.split():
                boxes.append([x, y, x + TILE_W, y + TILE_H])
                tile = Tile.parse(token)
                second = Tile.parse((runner_up or {}).get(token, "J" if token != "J" else "k1"))
                doubtful = runner_up is not None and token in runner_up
                top.append([class_id(tile), class_id(second)])
                scores.append([0.45, 0.40] if doubtful else [score, 0.01])
                x += TILE_W + GAP
            x += SET_GAP
    n = len(boxes)
    topk = np.array(top, dtype=np.int64).reshape(n, 2)
    return Detections(
        xyxy=np.array(boxes, dtype=np.float32).reshape(n, 4),
        confidence=np.full(n, 0.9, dtype=np.float32),
        class_id=topk[:, 0] if n else np.zeros(0, np.int64),
        class_confidence=np.array([s[0] for s in scores], dtype=np.float32),
        topk_class_ids=topk,
        topk_scores=np.array(scores, dtype=np.float32).reshape(n, 2),
        angle=np.zeros(n, dtype=np.float32),
    )


class FakeReader:
    """Stands in for `vision.reader.TileReader`: the next photo read returns `detections`."""

    def __init__(self, detections: Detections) -> None:
        self.detections = detections
        self.calls = 0

    def read(self, image: np.ndarray, confidence: float | None = None) -> Detections:
        self.calls += 1
        return self.detections

    def with_profile(self, profile: object) -> FakeReader:
        return self  # the fake reads the same with any profile


def photo_bytes(width: int = 640, height: int = 480, seed: int = 0, ext: str = ".jpg") -> bytes:
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 255, (height, width, 3), dtype=np.uint8)
    ok, encoded = cv2.imencode(ext, image)
    assert ok
    return encoded.tobytes()


VALID_TABLE = [["r5 r6 r7", "k9 b9 o9"], ["b1 b2 b3 b4"]]


def rack_detections(racks: Sequence[str], runner_up: dict[str, str] | None = None) -> Detections:
    """Detections of tiles standing on racks, one rack per layout (`r5 k3 J`), each in a rack box."""
    detections = scene_detections([[rack] for rack in racks], runner_up=runner_up)
    boxes = []
    for row_index, rack in enumerate(racks):
        y = 60.0 + row_index * (TILE_H * 2.5)
        width = len(rack.split()) * (TILE_W + GAP)
        boxes.append([30.0, y - 8.0, 40.0 + width + 10.0, y + TILE_H + 8.0])
    detections.rack_xyxy = np.array(boxes, dtype=np.float32).reshape(-1, 4)
    detections.rack_confidence = np.full(len(boxes), 0.9, dtype=np.float32)
    return detections
