"""The real-vs-render check: reads YOLO polygon folders, measures ink colours, writes a sheet."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.compare_real import crop_measures, load_real, main, summarize
from datasets.render import render_indexed


def _polygon_folder(root: Path, scenes: int = 3) -> Path:
    """A real-dev-like folder made from rendered scenes, labels as polygons of the face corners."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for i in range(scenes):
        img, truth, _ = render_indexed(21, i, long_side=512)
        cv2.imwrite(str(root / "images" / f"s{i}.jpg"), img)
        lines = []
        for t in truth.tiles:
            if t.labelled:
                coords = (t.corners / [truth.width, truth.height]).clip(0, 1).ravel()
                lines.append(f"{t.class_id} " + " ".join(f"{v:.5f}" for v in coords))
        (root / "labels" / f"s{i}.txt").write_text("\n".join(lines) + "\n")
    return root


def test_polygon_labels_become_crops_and_stats(tmp_path: Path) -> None:
    folder = _polygon_folder(tmp_path / "real")
    source = load_real(folder)
    expected = sum(len((folder / "labels" / f"s{i}.txt").read_text().split("\n")) - 1 for i in range(3))
    assert 0 < len(source.crops) <= expected
    stats = summarize(source)
    assert stats["tiles"] == len(source.crops)
    assert set(stats["ink"]) <= {"black", "blue", "red", "orange", "joker"}


@pytest.mark.parametrize(
    ("bgr", "hue_range"),
    [((30, 40, 220), (350, 370)), ((200, 110, 20), (200, 240)), ((20, 130, 245), (15, 35))],
)
def test_ink_hue_is_measured_on_a_cream_crop(bgr, hue_range) -> None:
    crop = np.full((80, 60, 3), (215, 235, 245), np.uint8)
    cv2.circle(crop, (30, 35), 14, bgr, -1)
    m = crop_measures(crop)
    assert m is not None
    hue = m["ink_hue"]
    lo, hi = hue_range
    assert lo <= hue <= hi or lo <= hue + 360 <= hi
    assert m["body_value"] > 0.9


def test_cli_writes_sheet_and_stats(tmp_path: Path, capsys) -> None:
    folder = _polygon_folder(tmp_path / "real", scenes=2)
    out = tmp_path / "cmp"
    assert main(["--real", str(folder), "--out", str(out), "--scenes", "2", "--seed", "3"]) == 0
    assert cv2.imread(str(out / "sheet.png")) is not None
    assert (out / "stats.json").exists() and "| measure | real | rendered |" in capsys.readouterr().out


def test_cli_names_a_missing_folder(tmp_path: Path, capsys) -> None:
    assert main(["--real", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")]) == 2
    assert "nowhere" in capsys.readouterr().err
