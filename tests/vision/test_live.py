"""The live screen's reader: the full read only when the picture changes, readings kept for tiles that did
not change, and the frame rate it sustains (issue 16)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant.rules import STANDARD
from datasets.render import render_indexed
from vision.layout import rebuild
from vision.reader import TileReader, load_reader, video_reader
from vision.tracking import LiveReader, draw_rate


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return load_reader()


@pytest.fixture(scope="module")
def scene() -> np.ndarray:
    image, _, _ = render_indexed(9001, 0, long_side=1000, kind="game")
    return image


def tokens(layout) -> list[list[str]]:  # noqa: ANN001
    return [[t.token for t in s] for s in layout.table] + [[t.token for t in r] for r in layout.racks]


def test_a_still_picture_is_read_once_and_kept(reader: TileReader, scene: np.ndarray) -> None:
    clock = Clock()
    live = LiveReader(reader, STANDARD, clock=clock)
    first = live.update(scene)
    assert first.step == "read" and first.classified == len(first.detections) + len(reader.rejected)
    full = video_reader(reader).read(scene)  # the live screen reads a video's frames
    assert tokens(first.layout) == tokens(rebuild(full, STANDARD, image_size=(1000, 750), frame=scene))
    noise = np.random.default_rng(0).normal(0, 2.0, scene.shape)
    clock.now += 0.1
    again = live.update(np.clip(scene + noise, 0, 255).astype(np.uint8))  # camera noise only
    assert again.step == "kept" and again.classified == 0
    assert again.layout is first.layout


def test_a_changed_picture_rereads_only_the_changed_tiles(reader: TileReader, scene: np.ndarray) -> None:
    clock = Clock()
    live = LiveReader(reader, STANDARD, clock=clock)
    first = live.update(scene)
    box = first.detections.xyxy[0].astype(int)
    changed = scene.copy()
    # A hand over one tile and a strip of cloth: the picture changes, most tiles do not.
    hand = (40, 60, 90)
    cv2.rectangle(changed, (int(box[0]) - 2, int(box[1]) - 2), (int(box[2]) + 2, int(box[3]) + 2), hand, -1)
    cv2.rectangle(changed, (0, 0), (1000, 60), hand, -1)
    clock.now += 0.1
    second = live.update(changed)
    assert second.step == "tracked"
    assert 0 < second.classified < len(first.detections)
    # Tiles that kept their readings read as the full read of the changed frame reads them.
    full = video_reader(reader).read(changed)
    def by_box(detections):  # noqa: ANN001, ANN202
        return {tuple(np.round(b)): t for b, t in zip(detections.xyxy, detections.tiles(), strict=True)}

    kept, fresh = by_box(second.detections), by_box(full)
    common = set(kept) & set(fresh)
    assert len(common) >= len(fresh) - 2
    assert sum(kept[b] == fresh[b] for b in common) >= len(common) - 1


def test_the_picture_is_read_in_full_again_after_refresh_s(reader: TileReader, scene: np.ndarray) -> None:
    clock = Clock()
    live = LiveReader(reader, STANDARD, clock=clock, refresh_s=1.0)
    live.update(scene)
    clock.now += 0.5
    assert live.update(scene).step == "kept"
    clock.now += 0.6
    assert live.update(scene).step == "read"


def test_the_frame_rate_is_counted_over_the_window(reader: TileReader, scene: np.ndarray) -> None:
    clock = Clock()
    live = LiveReader(reader, STANDARD, clock=clock, window_s=2.0)
    assert live.fps == 0.0
    for _ in range(30):
        live.update(scene)
        clock.now += 0.1
    assert live.fps == pytest.approx(10.0, rel=0.01)
    canvas = np.zeros((480, 640, 3), np.uint8)
    draw_rate(canvas, live.fps)
    assert canvas[4:40, 4:120].max() == 255  # the rate is written in the top left corner


def test_a_reader_without_the_crop_classifier_reads_every_changed_frame(scene: np.ndarray) -> None:
    class Boxes:
        def __init__(self, inner: TileReader) -> None:
            self.inner, self.calls = inner, 0

        def read(self, frame: np.ndarray):  # noqa: ANN202
            self.calls += 1
            return self.inner.detector.detect(frame)

    fake = Boxes(load_reader())
    clock = Clock()
    live = LiveReader(fake, STANDARD, clock=clock)
    assert live.update(scene).step == "read"
    clock.now += 0.1
    assert live.update(scene).step == "kept" and fake.calls == 1
    clock.now += 0.1
    assert live.update(255 - scene).step == "read" and fake.calls == 2


def test_a_reader_with_a_table_profile_reads_every_changed_frame_in_full(scene: np.ndarray) -> None:
    # The profile (threshold, bare-table filter, inks) lives in TileReader.read: the live screen must use it.
    class Profiled:
        def __init__(self, inner: TileReader) -> None:
            self.inner, self.calls = inner, 0
            self.classifier, self.detector, self.profile = inner.classifier, inner.detector, object()

        def read(self, frame: np.ndarray):  # noqa: ANN202
            self.calls += 1
            return self.inner.read(frame)

    profiled = Profiled(load_reader())
    clock = Clock()
    live = LiveReader(profiled, STANDARD, clock=clock)
    assert live.update(scene).step == "read" and profiled.calls == 1
    changed = scene.copy()
    changed[:40] = 0
    clock.now += 0.1
    assert live.update(changed).step == "read" and profiled.calls == 2
