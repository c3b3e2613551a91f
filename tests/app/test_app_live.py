"""Live video with a stream running (streamlit-webrtc replaced by a stand-in that hands the app one frame):
the verdicts under the stream are the camera's, not the stored table's (issue 31, item 5)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import streamlit_webrtc
from app_fakes import FakeReader, scene_detections
from test_app import NewTab, stored_game, texts

FRAME = np.random.default_rng(5).integers(0, 255, (480, 640, 3), dtype=np.uint8)


class StreamedFrame:
    """Stands in for an `av.VideoFrame` from the browser's camera."""

    def to_ndarray(self, format: str) -> np.ndarray:  # noqa: A002 (av's own argument name)
        assert format == "bgr24"
        return FRAME


@pytest.fixture
def streaming(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """A running stream: each run of the app the camera sends one frame through the app's callback."""
    returned: list[Any] = []

    def webrtc_streamer(**kwargs: Any) -> Any:
        returned.append(kwargs["video_frame_callback"](StreamedFrame()))
        return SimpleNamespace(state=SimpleNamespace(playing=True))

    monkeypatch.setattr(streamlit_webrtc, "webrtc_streamer", webrtc_streamer)
    return returned


def test_under_a_running_stream_the_verdicts_are_the_cameras(
    app: NewTab, reader: FakeReader, streaming: list[Any]
) -> None:
    at = app()  # the example is stored: three valid sets
    reader.detections = scene_detections([["k1 k2 k3 k5", "o9 b9 r9"]])
    at.radio(key="source").set_value("live").run()
    assert not at.exception
    assert streaming and streaming[-1].width == 640  # the frame went back to the browser, boxed
    shown = [line for line in texts(at, "markdown") if " Set " in line]
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
