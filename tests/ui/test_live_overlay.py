"""The live screen's frame: sets boxed by verdict and the frame rate drawn, a failing frame shown as is."""

from __future__ import annotations

import numpy as np

from assistant.rules import STANDARD
from datasets.render import render_indexed
from ui.table import live_overlay
from vision.reader import load_reader
from vision.tracking import LiveReader


def test_a_read_frame_comes_back_as_rgb_with_the_sets_and_the_rate() -> None:
    image, _, _ = render_indexed(9001, 0, long_side=1000, kind="game")
    live = LiveReader(load_reader(), STANDARD)
    first = live_overlay(image, live)
    again = live_overlay(image, live)
    assert first.shape == image.shape and first.dtype == np.uint8
    assert not np.array_equal(first[60:], image[60:, :, ::-1])  # the sets are outlined
    assert live.fps > 0
    assert again[4:30, 4:100].max() == 255  # the rate in the top left corner


def test_a_frame_that_cannot_be_read_shows_as_it_is() -> None:
    class Broken:
        def read(self, frame: np.ndarray) -> None:
            raise RuntimeError("no models")

    image = np.full((240, 320, 3), (10, 20, 30), np.uint8)
    shown = live_overlay(image, LiveReader(Broken(), STANDARD))
    assert np.array_equal(shown[100:], image[100:, :, ::-1])
