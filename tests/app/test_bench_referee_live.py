"""The live referee bench's split of the camera-to-server delay (benchmarks/bench_referee_live.py)."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_referee_live.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_referee_live", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_delay_split_into_camera_behind_and_on_the_way(bench):
    """A camera that falls behind the video (0 s at the start, 0.6 s by 30 s in) and frames 0.1 s on the way:
    the whole delay grows, and the split gives the growth to the camera, not to the way to the server."""
    rng = np.random.default_rng(3)
    fps, frames = 10.0, 400
    thumbs = rng.uniform(0, 255, size=(frames, 60, 80)).astype(np.float32)
    start = 1000.0
    server = []
    for index in range(5, frames - 5, 3):
        game_s = index / fps
        behind = 0.02 * game_s
        captured = 77.0 + game_s + behind  # the stream's own clock, with its own zero
        server.append((start + game_s + behind + 0.1, thumbs[index], captured))
    delay = bench.picture_delay(thumbs, server, start, fps)
    assert delay["frames_found"] == len(server)
    assert delay["median_by_10s_of_game"]["30-40"] == pytest.approx(0.1 + 0.02 * 35, abs=0.05)
    assert delay["camera_behind_by_10s_of_game"]["30-40"] == pytest.approx(0.02 * 35 - 0.02 * 5, abs=0.05)
    assert max(delay["on_the_way_by_10s_of_game"].values()) == pytest.approx(0.0, abs=1e-6)
    assert bench.camera_behind_at(delay, 35.0) == pytest.approx(0.6, abs=0.05)


def test_no_stream_times_no_split(bench):
    rng = np.random.default_rng(4)
    thumbs = rng.uniform(0, 255, size=(100, 60, 80)).astype(np.float32)
    server = [(10.0 + i / 10 + 0.2, thumbs[i], float("nan")) for i in range(5, 95, 3)]
    delay = bench.picture_delay(thumbs, server, 10.0, 10.0)
    assert delay["median_s"] == pytest.approx(0.2, abs=1e-6)
    assert "camera_behind" not in delay
    assert bench.camera_behind_at(delay, 5.0) is None
