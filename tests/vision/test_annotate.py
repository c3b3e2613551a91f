"""The annotator draws verdicts on a copy: green around valid sets, red around invalid, amber for doubt."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from layout_scenes import SceneBuilder

from vision.annotate import (
    AMBER,
    GREEN,
    RED,
    LayoutAnnotator,
    can_write,
    save_annotated,
    set_label,
    writable_suffixes,
)
from vision.layout import rebuild


def scene():
    b = SceneBuilder()
    b.row("r1 r2 r3", (150, 200), 0)
    b.row("k4 k5 k9", (450, 200), 0, score=0.95)
    b.add("o6", (300, 450), 30, score=0.4, runner_ups=[("o9", 0.3)])
    return b.detections()


def colour_share(image: np.ndarray, colour: tuple[int, int, int], region: tuple[int, int, int, int]) -> float:
    x0, y0, x1, y1 = region
    patch = image[y0:y1, x0:x1].astype(int)
    return float((np.abs(patch - np.array(colour)).sum(axis=2) < 40).mean())


def test_annotate_draws_on_a_copy() -> None:
    frame = np.full((600, 800, 3), 90, np.uint8)
    before = frame.copy()
    layout = rebuild(scene())
    out = LayoutAnnotator().annotate(frame, layout)
    assert np.array_equal(frame, before)
    assert out.shape == frame.shape and out.dtype == np.uint8
    # Valid set on the left is outlined green, the invalid one on the right red, the doubtful tile amber.
    assert colour_share(out, GREEN, (100, 160, 260, 240)) > 0.03
    assert colour_share(out, RED, (100, 160, 260, 240)) == 0.0
    assert colour_share(out, RED, (400, 160, 560, 240)) > 0.03
    assert colour_share(out, AMBER, (260, 410, 340, 490)) > 0.01
    # The summary bar darkens the top.
    assert out[:10].mean() < frame[:10].mean()


def test_labels_say_what_a_set_is_or_why_not() -> None:
    layout = rebuild(scene())
    assert set_label(1, layout.table[0], layout.verdicts[0]) == "1 · red 1-2-3 · 6"
    assert "9" in set_label(2, layout.table[1], layout.verdicts[1])
    assert set_label(3, layout.table[2], layout.verdicts[2]) == "3 · loose"
    summary = LayoutAnnotator.summary(layout)
    # The loose tile is a set of one, as the CLI and the app count it.
    assert summary.startswith("3 sets: 1 valid, 2 invalid (1 single tile)")


def test_grey_frame_is_accepted() -> None:
    out = LayoutAnnotator(show_summary=False).annotate(np.zeros((300, 700), np.uint8), rebuild(scene()))
    assert out.shape == (300, 700, 3)


def test_summary_wraps_on_a_narrow_frame_instead_of_running_off_it() -> None:
    from dataclasses import replace

    problem = "3 black 9s seen, but the standard edition has 2: one is misread"
    layout = replace(rebuild(scene()), problems=(problem,))

    def text_lines(image: np.ndarray) -> tuple[int, bool]:
        """Lines of white text on the summary bar, and whether any text touches the frame's right edge."""
        bar = image[: int(np.argmax(image.mean(axis=(1, 2)) > 190))]
        ink = (bar.min(axis=2) > 160).any(axis=1)
        starts = int(ink[0]) + int(np.sum(ink[1:] & ~ink[:-1]))
        return starts, bool((bar[:, -3:].min(axis=2) > 160).any())

    wide = np.full((600, 1600, 3), 200, np.uint8)
    assert text_lines(LayoutAnnotator().annotate(wide, layout)) == (1, False)
    assert text_lines(LayoutAnnotator().annotate(np.full((900, 420, 3), 200, np.uint8), layout)) == (2, False)


def test_rack_outline_hugs_its_tiles_even_on_a_slant() -> None:
    from vision.annotate import SLATE, _hull_of_boxes
    from vision.layout import Layout, PlacedTile

    # Ten standing tiles along a line sloping 30 degrees: an outline along the row holding each tile's
    # estimated rectangle at its own (upright) angle would cover the table well above and below them.
    tiles = []
    for k in range(10):
        x, y = 150 + 40 * k, 500 - 23 * k
        tiles.append(PlacedTile(index=k, tile=None, box=(x - 18, y - 25, x + 18, y + 25), center=(x, y),
                                angle=0.0, size=(36, 50)))
    outline = _hull_of_boxes(tuple(tiles), pad=4)
    xs, ys = outline[:, 0], outline[:, 1]
    distance = np.abs((ys - 500) + 23 / 40 * (xs - 150)) / np.hypot(1, 23 / 40)
    assert distance.max() < 40  # a tile's half diagonal plus the padding
    layout = Layout(racks=(tuple(tiles),))
    out = LayoutAnnotator(show_summary=False).annotate(np.full((700, 800, 3), 200, np.uint8), layout)
    drawn = np.abs(out.astype(int) - np.array(SLATE)).sum(axis=2) < 40
    assert drawn[int(ys.min()):int(ys.max()) + 1, int(xs.min()):int(xs.max()) + 1].sum() > 200


def test_save_annotated_refuses_a_suffix_opencv_cannot_write(tmp_path: Path) -> None:
    assert can_write(tmp_path / "out.png") and not can_write(tmp_path / "out.txt")
    assert ".png" in writable_suffixes() and ".txt" not in writable_suffixes()
    target = tmp_path / "out.txt"
    with pytest.raises(OSError, match="out.txt.*no image format for its suffix.*\\.png"):
        save_annotated(str(target), np.full((600, 800, 3), 90, np.uint8), rebuild(scene()))
    assert not target.exists()


def test_a_frame_over_the_drawing_limit_is_drawn_shrunk_with_its_sets(tmp_path: Path, monkeypatch) -> None:
    import cv2

    import vision.annotate

    frame = np.full((600, 800, 3), 90, np.uint8)
    monkeypatch.setattr(vision.annotate, "MAX_DRAWN_PIXELS", 800 * 600 // 4)  # half the width and height
    target = tmp_path / "out.png"
    save_annotated(str(target), frame, rebuild(scene()))
    out = cv2.imread(str(target))
    assert out.shape == (300, 400, 3)
    # The sets sit where they sat, at half the scale: green around the valid run, red around the other.
    assert colour_share(out, GREEN, (50, 80, 130, 120)) > 0.03
    assert colour_share(out, RED, (50, 80, 130, 120)) == 0.0
    assert colour_share(out, RED, (200, 80, 280, 120)) > 0.03
    monkeypatch.setattr(vision.annotate, "MAX_DRAWN_PIXELS", 800 * 600)
    save_annotated(str(target), frame, rebuild(scene()))
    assert cv2.imread(str(target)).shape == (600, 800, 3)
