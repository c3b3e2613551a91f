"""Editions with other inks, fonts and 6/9 marks; the hold-out variants never reach training renders."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assistant.tiles import Color, Tile
from datasets.backgrounds import HOLDOUT_SURFACES, pick_surface
from datasets.render import main as render_main
from datasets.scene import SCENE_KINDS, render_scene
from datasets.tile_face import (
    HOLDOUT_FONT,
    HOLDOUT_INKS,
    INK_VARIANTS,
    MEASURE_ONLY_INKS,
    Edition,
    render_face,
)

HOLDOUT_INK_NAMES = set(HOLDOUT_INKS.values())


def _uses_holdout(edition_json: dict) -> bool:
    reserved_ink = bool(set(edition_json["inks"].values()) & HOLDOUT_INK_NAMES)
    return reserved_ink or edition_json["font"] == HOLDOUT_FONT


def test_train_editions_and_surfaces_never_use_the_holdout_set() -> None:
    inks_seen: set[str] = set()
    fonts_seen: set[str] = set()
    for seed in range(600):
        rng = np.random.default_rng(seed)
        edition = Edition.sample(rng, "train", other=1.0 if seed % 2 else 0.25)
        assert not edition.is_holdout
        inks_seen |= set(edition.ink_names.values())
        fonts_seen.add(edition.font_style)
        assert pick_surface(rng, 1.0 if seed % 2 else 0.3, "train") not in HOLDOUT_SURFACES
    # ...while every training variant does appear.
    train_inks = {n for names in INK_VARIANTS.values() for n in names} - HOLDOUT_INK_NAMES - MEASURE_ONLY_INKS
    assert not inks_seen & MEASURE_ONLY_INKS
    assert inks_seen == train_inks
    assert fonts_seen == {"bold", "thin", "large"}


def test_holdout_editions_always_use_a_reserved_variant() -> None:
    surfaces = set()
    for seed in range(200):
        rng = np.random.default_rng(seed)
        edition = Edition.sample(rng, "holdout")
        assert edition.is_holdout
        surfaces.add(pick_surface(rng, 0.3, "holdout"))
    assert surfaces & HOLDOUT_SURFACES


def test_dark_blue_editions_print_their_blue_in_navy_and_nothing_else_reserved() -> None:
    for seed in range(50):
        edition = Edition.sample(np.random.default_rng(seed), "dark_blue")
        assert edition.ink_names[Color.BLUE] == "navy"
        assert not edition.is_holdout
        blue = edition.inks[Color.BLUE]  # BGR 0-1: dark, and blue over red
        assert blue.max() < 0.45 and blue[0] > 1.5 * blue[2]


def test_rendered_train_scenes_never_show_holdout_variants() -> None:
    for i in range(2 * len(SCENE_KINDS)):
        kind = SCENE_KINDS[i % len(SCENE_KINDS)]
        _, truth = render_scene(np.random.default_rng([77, i]), long_side=256, kind=kind)
        scene = truth.to_json()
        assert scene["variants"] == "train"
        assert not _uses_holdout(scene["edition"]), scene["edition"]
        assert scene["surface"] not in HOLDOUT_SURFACES


def test_cli_holdout_run_records_its_variants(tmp_path: Path) -> None:
    args = ["--out", str(tmp_path), "--count", "4", "--seed", "3", "--size", "256", "--quiet", "--sheet", "0",
            "--workers", "1", "--variants", "holdout", "--kind", "inks"]
    assert render_main(args) == 0
    for path in (tmp_path / "scenes").glob("*.json"):
        scene = json.loads(path.read_text())
        assert scene["variants"] == "holdout" and _uses_holdout(scene["edition"])


def test_unknown_variants_are_refused() -> None:
    with pytest.raises(ValueError, match="variants"):
        Edition.sample(np.random.default_rng(0), "test")


def test_inks_kind_uses_another_edition() -> None:
    for i in range(8):
        _, truth = render_scene(np.random.default_rng([5, i]), long_side=256, kind="inks")
        ed = truth.edition
        usual = ed["inks"] == {"black": "black", "blue": "blue", "red": "red", "orange": "orange"}
        assert not usual or ed["font"] != "bold", ed


def _ink_rows(face: np.ndarray) -> np.ndarray:
    """Rows of the face (inside its margins) that hold ink."""
    h, w = face.shape[:2]
    inner = face[:, int(w * 0.15) : int(w * 0.85)]
    ink = (inner.max(axis=2) - inner.min(axis=2) > 0.25) | (inner.mean(axis=2) < 0.4)
    return np.nonzero(ink.sum(axis=1) >= 2)[0]


@pytest.mark.parametrize("mark", ["bar", "dot"])
def test_marks_sit_under_six_and_nine_only(mark: str) -> None:
    rng = np.random.default_rng(1)
    base = Edition.sample(rng)
    marked = Edition(**{**base.__dict__, "mark": mark, "logo": "none"})
    plain = Edition(**{**base.__dict__, "mark": "none", "logo": "none"})
    for number, has_mark in ((6, True), (9, True), (8, False)):
        tile = Tile(Color.BLUE, number)
        with_mark, _ = render_face(tile, marked, 160, np.random.default_rng(2))
        without, _ = render_face(tile, plain, 160, np.random.default_rng(2))
        low_marked, low_plain = _ink_rows(with_mark).max(), _ink_rows(without).max()
        if has_mark:
            assert low_marked > low_plain + 4, (number, low_marked, low_plain)
        else:
            assert abs(int(low_marked) - int(low_plain)) <= 1


def test_font_styles_change_the_numeral() -> None:
    base = Edition.sample(np.random.default_rng(3))
    usual = {"logo": "none", "digit_height": 0.35, "stroke_weight": 0.19, "squeeze": 1.0,
             "font_style": "bold"}
    tile = Tile(Color.BLACK, 8)

    def ink_share(**changes) -> tuple[float, int]:
        edition = Edition(**{**base.__dict__, **usual, **changes})
        face, _ = render_face(tile, edition, 160, np.random.default_rng(4))
        rows = _ink_rows(face)
        ink = (face.mean(axis=2) < 0.4).mean()
        return float(ink), int(rows.max() - rows.min())

    bold_ink, bold_h = ink_share()
    thin_ink, _ = ink_share(stroke_weight=0.1)
    _, large_h = ink_share(digit_height=0.5)
    narrow_ink, _ = ink_share(squeeze=0.65)
    assert thin_ink < 0.75 * bold_ink and narrow_ink < 0.8 * bold_ink
    assert large_h > 1.2 * bold_h
