"""Synthetic tile boxes for layout tests: rows of rotated tiles placed with known gaps, no pixels."""

from __future__ import annotations

import math

import numpy as np

from assistant.tiles import class_id, parse_tiles
from vision.detections import Detections

TILE_W, TILE_H = 30.0, 40.0


def rotated_box(
    center: tuple[float, float], angle: float, w: float = TILE_W, h: float = TILE_H
) -> list[float]:
    """Axis-aligned box of a `w x h` tile at `center`, its up turned `angle` degrees counter-clockwise."""
    t = math.radians(angle)
    c, s = abs(math.cos(t)), abs(math.sin(t))
    bw, bh = w * c + h * s, w * s + h * c
    return [center[0] - bw / 2, center[1] - bh / 2, center[0] + bw / 2, center[1] + bh / 2]


def row_centers(
    start: tuple[float, float], count: int, angle: float, pitch: float
) -> list[tuple[float, float]]:
    """Centres of `count` tiles side by side along the tiles' own right direction."""
    t = math.radians(angle)
    right = (math.cos(t), -math.sin(t))
    return [(start[0] + k * pitch * right[0], start[1] + k * pitch * right[1]) for k in range(count)]


class SceneBuilder:
    """Collects tiles (tokens, centres, angles, sizes) and yields `Detections` with known readings."""

    def __init__(self) -> None:
        self.tokens: list[str] = []
        self.boxes: list[list[float]] = []
        self.angles: list[float] = []
        self.scores: list[float] = []
        self.runners: list[list[tuple[str, float]]] = []

    def add(self, token: str, center: tuple[float, float], angle: float = 0.0, scale: float = 1.0,
            score: float = 0.95, runner_ups: list[tuple[str, float]] | None = None) -> int:
        self.tokens.append(token)
        self.boxes.append(rotated_box(center, angle, TILE_W * scale, TILE_H * scale))
        self.angles.append(angle)
        self.scores.append(score)
        self.runners.append(runner_ups or [])
        return len(self.tokens) - 1

    def row(self, text: str, start: tuple[float, float], angle: float = 0.0, gap: float = 1.0,
            scale: float = 1.0, **kwargs: object) -> list[int]:
        """Tiles of `text` (in reading order) laid side by side from `start`, `gap` pixels apart."""
        tokens = text.split()
        centers = row_centers(start, len(tokens), angle, (TILE_W + gap) * scale)
        return [self.add(tok, c, angle, scale, **kwargs) for tok, c in zip(tokens, centers, strict=True)]

    def detections(self, with_angle: bool = True, k: int = 3) -> Detections:
        n = len(self.tokens)
        ids = np.full((n, k), -1, dtype=np.int64)
        scores = np.zeros((n, k), dtype=np.float32)
        for i, (tok, score, runners) in enumerate(zip(self.tokens, self.scores, self.runners, strict=True)):
            ids[i, 0], scores[i, 0] = class_id(parse_tiles(tok)[0]), score
            for r, (alt, alt_score) in enumerate(runners[: k - 1], start=1):
                ids[i, r], scores[i, r] = class_id(parse_tiles(alt)[0]), alt_score
        detections = Detections(xyxy=np.array(self.boxes).reshape(-1, 4), confidence=np.full(n, 0.9))
        return detections.with_readings(ids, scores, np.array(self.angles) if with_angle else np.zeros(n))
