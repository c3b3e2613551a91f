"""The live screen's frame: sets boxed by verdict and the frame rate drawn, a failing frame shown as is."""

from __future__ import annotations

import numpy as np

from assistant.rules import STANDARD
from datasets.render import render_indexed
from ui.helpers import LIVE_SHOWN_WIDTH, shown_rgb
from ui.table import live_overlay
from vision.reader import load_reader
from vision.tracking import LiveReader


class Broken:
    def read(self, frame: np.ndarray) -> None:
        raise RuntimeError("no models")


def test_a_read_frame_comes_back_as_rgb_with_the_sets_and_the_rate() -> None:
    image, _, _ = render_indexed(9001, 0, long_side=1000, kind="game")
    live = LiveReader(load_reader(), STANDARD)
    first = live_overlay(image, live)
    again = live_overlay(image, live)
    assert first.shape == (540, LIVE_SHOWN_WIDTH, 3) and first.dtype == np.uint8  # 1000x750 sent at 720 wide
    assert not np.array_equal(first[60:], shown_rgb(image)[60:])  # the sets are outlined
    assert live.fps > 0
    assert again[4:30, 4:100].max() == 255  # the rate in the top left corner


def test_a_frame_that_cannot_be_read_shows_as_it_is() -> None:
    image = np.full((240, 320, 3), (10, 20, 30), np.uint8)
    shown = live_overlay(image, LiveReader(Broken(), STANDARD))
    assert np.array_equal(shown[100:], image[100:, :, ::-1])  # small enough to be sent as it is


def test_a_frame_that_cannot_be_read_is_sent_no_wider_than_shown() -> None:
    image = np.full((750, 1000, 3), (10, 20, 30), np.uint8)
    shown = live_overlay(image, LiveReader(Broken(), STANDARD))
    assert shown.shape == (540, LIVE_SHOWN_WIDTH, 3)
    assert tuple(shown[300, 300]) == (30, 20, 10)
