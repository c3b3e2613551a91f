"""The photographic effects of the renders: the light a phone leaves uncorrected (`harsh_light`)."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import effects


@pytest.fixture
def table() -> np.ndarray:
    """A light tile on a mid-grey table, BGR 0-1."""
    image = np.full((40, 60, 3), 0.45, np.float32)
    image[10:30, 20:35] = 0.9
    return image


def _contrast(image: np.ndarray) -> float:
    return float(image[10:30, 20:35].mean() - image[:, :5].mean())


def _only(kind: str, monkeypatch: pytest.MonkeyPatch) -> np.random.Generator:
    """Every draw of `harsh_light` picks only `kind` (dim, veil, cast)."""
    draws = {"dim": [0.0, 1.0, 1.0], "veil": [1.0, 0.0, 1.0], "cast": [1.0, 1.0, 0.0]}[kind]

    class Picking(np.random.Generator):
        def random(self, size=None):  # type: ignore[override]
            return np.array(draws) if size == 3 else super().random(size)

    monkeypatch.setattr(effects, "HARSH_LIGHT_CHANCE", 0.5)
    return Picking(np.random.PCG64(3))


def test_a_dim_room_darkens_the_frame_and_keeps_the_tile_lighter(table, monkeypatch) -> None:
    dim = effects.harsh_light(table.copy(), _only("dim", monkeypatch))
    assert dim.mean() < 0.7 * table.mean()
    assert _contrast(dim) > 0


def test_a_veil_washes_the_contrast_out(table, monkeypatch) -> None:
    veiled = effects.harsh_light(table.copy(), _only("veil", monkeypatch))
    assert 0 < _contrast(veiled) < 0.9 * _contrast(table)
    assert veiled[:, :5].mean() > table[:, :5].mean()  # the dark table lifted towards the veil's grey


def test_a_strong_cast_moves_blue_and_red_apart(table, monkeypatch) -> None:
    cast = effects.harsh_light(table.copy(), _only("cast", monkeypatch))
    blue, red = cast[..., 0].mean(), cast[..., 2].mean()
    assert abs(blue - red) > 0.1 * table.mean()


def test_without_harsh_light_a_scene_renders_as_before_and_with_it_some_scenes_change() -> None:
    # The default draws nothing for it, so every earlier seed (hold-outs, tests) renders as it did.
    from datasets.render import render_indexed

    changed = 0
    for index in range(8):
        plain, _, _ = render_indexed(9000, index, long_side=256)
        again, _, _ = render_indexed(9000, index, long_side=256, harsh_light=0.0)
        harsh, _, _ = render_indexed(9000, index, long_side=256, harsh_light=0.5)
        assert np.array_equal(plain, again)
        changed += not np.array_equal(plain, harsh)
    assert changed >= 4


def test_most_frames_get_no_harsh_light(table) -> None:
    rng = np.random.default_rng(5)
    unchanged = sum(np.array_equal(effects.harsh_light(table.copy(), rng), table) for _ in range(200))
    assert 0.6 * 200 < unchanged < 0.85 * 200  # (1 - 0.1) ** 3 = 0.73 of frames
