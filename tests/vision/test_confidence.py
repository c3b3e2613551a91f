"""`confidence` means what it says: a monotone map fitted so tiles scored c are right about c of the time."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.confidence import ConfidenceMap
from vision.onnx_models import ModelLoadError


def test_the_fit_turns_overconfident_scores_into_frequencies() -> None:
    rng = np.random.default_rng(0)
    raw = rng.uniform(0, 1, 20000)
    right = rng.uniform(0, 1, 20000) < raw**2  # right with probability raw squared
    fitted = ConfidenceMap.fit(raw, right)
    for score in (0.3, 0.6, 0.9):
        assert fitted(score) == pytest.approx(score**2, abs=0.05)
    assert np.all(np.diff(fitted(np.linspace(0, 1, 101))) >= 0)


def test_identity_without_a_shipped_map() -> None:
    assert ConfidenceMap()(0.37) == pytest.approx(0.37)


def test_the_map_round_trips_and_bad_files_are_named(tmp_path: Path) -> None:
    fitted = ConfidenceMap.fit(np.array([0.1, 0.4, 0.8, 0.9]), np.array([0, 0, 1, 1]))
    path = tmp_path / "confidence.json"
    path.write_text(json.dumps(fitted.to_json()))
    assert ConfidenceMap.load(path) == fitted
    path.write_text('{"raw": [0, 1], "calibrated": [1, 0]}')
    with pytest.raises(ModelLoadError, match="confidence.json"):
        ConfidenceMap.load(path)
