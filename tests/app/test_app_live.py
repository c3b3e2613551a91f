"""Live video with a stream running (streamlit-webrtc replaced by a stand-in that hands the app one frame):
the verdicts under the stream are the camera's, not the stored table's (issue 31, item 5)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import streamlit_webrtc
from app_fakes import FakeReader, scene_detections
from test_app import NewTab, stored_game, texts


def camera_picture(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 255, (480, 640, 3), dtype=np.uint8)


CAMERA = {"picture": camera_picture(5)}  # what the camera films now


class StreamedFrame:
    """Stands in for an `av.VideoFrame` from the browser's camera."""

    def to_ndarray(self, format: str) -> np.ndarray:  # noqa: A002 (av's own argument name)
        assert format == "bgr24"
        return CAMERA["picture"]


@pytest.fixture
def streaming(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """A running stream: each run of the app the camera sends one frame through the app's callback."""
    returned: list[Any] = []

    def webrtc_streamer(**kwargs: Any) -> Any:
        returned.append(kwargs["video_frame_callback"](StreamedFrame()))
        return SimpleNamespace(state=SimpleNamespace(playing=True))

    monkeypatch.setattr(streamlit_webrtc, "webrtc_streamer", webrtc_streamer)
    monkeypatch.setitem(CAMERA, "picture", camera_picture(5))
    return returned


def test_under_a_running_stream_the_verdicts_are_the_cameras(
    app: NewTab, reader: FakeReader, streaming: list[Any]
) -> None:
    at = app()  # the example is stored: three valid sets
    reader.detections = scene_detections([["k1 k2 k3 k5", "o9 b9 r9"]])
    at.radio(key="source").set_value("live").run()
    assert not at.exception
    assert streaming and streaming[-1].width == 640  # the frame went back to the browser, boxed
    shown = [line for line in texts(at, "markdown") if re.search(r" Set \d+: ", line)]
    assert len(shown) == 2
    assert "Set 1:" in shown[0] and "gap between 3 and 5" in shown[0]
    assert "Set 2:" in shown[1] and "group of 9s" in shown[1]
    assert "Table valid: 3 sets, 10 tiles, 55 points." not in texts(at, "success")  # not the stored table
    # Checking the frame keeps it: corrected and judged below like a photo.
    [check] = [b for b in at.button if b.label == "Check this frame"]
    check.click().run()
    assert not at.exception
    assert stored_game().table_layout == "k1 k2 k3 k5 | o9 b9 r9"
    assert texts(at, "error") == ["Table not valid: 1 of 2 sets break the rules."]


def test_a_second_checked_frame_is_read(app: NewTab, reader: FakeReader, streaming: list[Any]) -> None:
    at = app()
    reader.detections = scene_detections([["r1 r2 r3"]])
    at.radio(key="source").set_value("live").run()
    [b for b in at.button if b.label == "Check this frame"][0].click().run()
    assert stored_game().table_layout == "r1 r2 r3"
    CAMERA["picture"] = camera_picture(6)  # the players moved tiles
    reader.detections = scene_detections([["r1 r2 r3 r4"]])
    at.run()
    [b for b in at.button if b.label == "Check this frame"][0].click().run()
    assert not at.exception
    assert stored_game().table_layout == "r1 r2 r3 r4"
    assert texts(at, "success") == ["Table valid: 1 set, 4 tiles, 10 points."]
