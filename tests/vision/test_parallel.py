"""Work of one frame in parts on helper threads: the same results, in order."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import vision.classifier as classifier_module
from vision import parallel
from vision.reader import load_classifier


def test_parts_come_back_in_order_and_run_beside_the_caller() -> None:
    threads: set[str] = set()

    def work(part: int) -> int:
        threads.add(threading.current_thread().name)
        return part * 10

    assert parallel.run_parts(work, [3, 1, 2, 5]) == [30, 10, 20, 50]
    assert threading.current_thread().name in threads
    # On a machine of one core there are no helpers and the caller does it all.
    assert len(threads) >= (2 if parallel.HELPERS else 1)


def test_an_error_in_a_part_reaches_the_caller() -> None:
    def work(part: int) -> int:
        if part == 2:
            raise ValueError("part two")
        return part

    with pytest.raises(ValueError, match="part two"):
        parallel.run_parts(work, [1, 2])


def test_a_batch_read_in_parts_gives_the_probabilities_of_one_run(monkeypatch: pytest.MonkeyPatch) -> None:
    ensemble = load_classifier()
    rng = np.random.default_rng(5)
    crops = rng.integers(0, 256, (37, 64, 64, 3), dtype=np.uint8)
    monkeypatch.setattr(classifier_module, "SPLIT_BATCH_FROM", 10**6)
    whole = ensemble.probabilities(crops)
    monkeypatch.setattr(classifier_module, "SPLIT_BATCH_FROM", 2)
    in_parts = ensemble.probabilities(crops)
    for a, b in zip(whole, in_parts, strict=True):
        np.testing.assert_array_equal(a, b)
