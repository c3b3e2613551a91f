"""Rendered scenes: labels line up with pixels, output is reproducible, every class shows up."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.tiles import CLASS_NAMES, JOKER, Color, Tile, tile_from_class_name
from datasets import glyphs
from datasets.render import main as render_main
from datasets.render import render_indexed
from datasets.scene import SCENE_KINDS, SceneTruth, _angle_of, render_scene
from datasets.tile_face import Edition, render_face

SEED = 11
SIZE = 768


@pytest.fixture(scope="module")
def scenes() -> list[tuple[np.ndarray, SceneTruth]]:
    """Two scenes of each kind, small enough to render quickly."""
    out = []
    for i, kind in enumerate(SCENE_KINDS * 2):
        img, truth = render_scene(np.random.default_rng([SEED, i]), long_side=SIZE, kind=kind)
        out.append((img, truth))
    return out


def rectify(img: np.ndarray, corners: np.ndarray, height: int = 80) -> np.ndarray:
    """The tile's face warped upright (top of the tile at the top) from its labelled corners."""
    width = int(height * 0.74)
    dst = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(img, m, (width, height))


def ink_pixels(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(HSV of the ink pixels with hue in degrees, their (y, x) positions) inside the face's margin."""
    h, w = face.shape[:2]
    inner = face[int(h * 0.1) : int(h * 0.9), int(w * 0.12) : int(w * 0.88)]
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV).astype(np.float32)
    hue, sat, val = hsv[..., 0] * 2, hsv[..., 1] / 255, hsv[..., 2] / 255
    body_v = np.percentile(val, 75)
    body_s = np.median(sat[val >= body_v])
    ink = (val < body_v * 0.7) | (sat > body_s + 0.3)
    ys, xs = np.nonzero(ink)
    return np.stack([hue[ink], sat[ink], val[ink]], axis=1), np.stack([ys + int(h * 0.1), xs], axis=1)


def ink_color(hsv: np.ndarray) -> Color:
    hue = float(
        np.degrees(np.arctan2(np.sin(np.radians(hsv[:, 0])).mean(), np.cos(np.radians(hsv[:, 0])).mean()))
    )
    hue %= 360
    sat, val = float(np.median(hsv[:, 1])), float(np.median(hsv[:, 2]))
    if sat < 0.35 or val < 0.3:
        return Color.BLACK
    if 180 <= hue <= 270:
        return Color.BLUE
    if hue >= 300 or hue < 13:
        return Color.RED
    return Color.ORANGE


def clear_tiles(truth: SceneTruth, min_height: float = 40.0) -> list:
    chosen = []
    for t in truth.tiles:
        height = float(np.linalg.norm(t.corners[0] - t.corners[3]))
        inside = (
            t.corners.min() >= 0
            and (t.corners[:, 0] < truth.width).all()
            and (t.corners[:, 1] < truth.height).all()
        )
        if t.labelled and t.visible_fraction >= 0.97 and height >= min_height and inside:
            chosen.append(t)
    return chosen


def test_labelled_face_has_ink_of_its_class_in_its_upper_part(scenes) -> None:
    checked, right_color, upper = 0, 0, 0
    for img, truth in scenes:
        for t in clear_tiles(truth):
            if t.tile.is_joker:
                continue
            face = rectify(img, t.corners)
            hsv, pos = ink_pixels(face)
            checked += 1
            if len(hsv) < 15:
                continue
            right_color += ink_color(hsv) == t.tile.color
            # The numeral sits above the logo: upright faces have their ink centroid in the upper part.
            upper += pos[:, 0].mean() < face.shape[0] * 0.55
    assert checked >= 30
    assert right_color / checked >= 0.85, f"{right_color}/{checked} crops show the ink colour of their label"
    assert upper / checked >= 0.85, f"{upper}/{checked} faces have their numeral in the upper part"


def test_wrong_corners_would_be_caught(scenes) -> None:
    """The check above can fail: with the corners turned upside down the ink sits low."""
    img, truth = next((img, truth) for img, truth in scenes if len(clear_tiles(truth)) >= 5)
    low = 0
    tiles = [t for t in clear_tiles(truth) if not t.tile.is_joker]
    for t in tiles:
        face = rectify(img, np.roll(t.corners, 2, axis=0))
        _, pos = ink_pixels(face)
        low += len(pos) > 0 and pos[:, 0].mean() > face.shape[0] * 0.45
    assert low / len(tiles) >= 0.8


def test_box_bounds_the_tile_with_its_sides(scenes) -> None:
    """The box is the tile's outline (face plus the visible side), so it is close to the face's bounds:
    a little larger where the side shows, a little smaller where rounded corners cut a turned face."""
    checked = 0
    for _, truth in scenes:
        for t in truth.tiles:
            frame = [truth.width, truth.height]
            x1, y1, x2, y2 = t.box
            assert 0 <= x1 <= x2 <= truth.width and 0 <= y1 <= y2 <= truth.height
            if not t.labelled or not ((t.corners >= 0).all() and (t.corners < frame).all()):
                continue
            # A rack's tile seen steeply from above shows a squashed face and its whole top side: its size
            # is the face's longer edge, not the foreshortened one.
            tile_h = max(float(np.linalg.norm(t.corners[0] - t.corners[3])),
                         float(np.linalg.norm(t.corners[0] - t.corners[1])))
            lo, hi = t.corners.min(axis=0), t.corners.max(axis=0)
            centre = t.corners.mean(axis=0)
            assert x1 <= centre[0] <= x2 and y1 <= centre[1] <= y2
            assert (np.array([x1, y1]) >= lo - 0.4 * tile_h).all() and (
                np.array([x2, y2]) <= hi + 0.4 * tile_h
            ).all()
            assert (x2 - x1) * (y2 - y1) >= 0.8 * float(np.prod(hi - lo))
            checked += 1
    assert checked >= 30


def test_yolo_lines_match_labelled_tiles(scenes) -> None:
    for _, truth in scenes:
        lines = truth.yolo_lines()
        labelled = [t for t in truth.tiles if t.labelled]
        assert len(lines) == len(labelled)
        for line, t in zip(lines, labelled, strict=True):
            cls, cx, cy, w, h = line.split()
            assert CLASS_NAMES[int(cls)] == ("joker" if t.tile.is_joker else CLASS_NAMES[t.class_id])
            values = np.array([float(cx), float(cy), float(w), float(h)])
            assert ((values >= 0) & (values <= 1)).all()
            assert float(cx) * truth.width == pytest.approx((t.box[0] + t.box[2]) / 2, abs=0.01)


def test_occluded_and_cut_tiles_are_measured(scenes) -> None:
    fractions = [t.visible_fraction for _, truth in scenes for t in truth.tiles]
    assert all(0.0 <= f <= 1.0 for f in fractions)
    assert any(f < 0.95 for f in fractions), "no tile is cut or covered in the batch"
    for _, truth in scenes:
        for t in truth.tiles:
            big_enough = t.box[2] - t.box[0] >= 3 and t.box[3] - t.box[1] >= 3
            assert t.labelled == (t.visible_fraction >= 0.3 and t.facing >= 0.3 and big_enough)


def test_sets_and_racks_are_consistent(scenes) -> None:
    kinds_with_racks = 0
    for _, truth in scenes:
        for k, members in enumerate(truth.sets):
            assert [t.set_index for t in (truth.tiles[i] for i in members)] == [k] * len(members)
        in_sets = {i for s in truth.sets for i in s}
        assert {i for i, t in enumerate(truth.tiles) if t.set_index is not None} == in_sets
        on_racks = {i for r in truth.racks for i in r}
        assert {i for i, t in enumerate(truth.tiles) if t.on_rack} == on_racks
        assert not in_sets & on_racks
        for rack, rows in zip(truth.racks, truth.rack_rows, strict=True):
            assert rack == [i for row in rows for i in row]
        kinds_with_racks += bool(truth.racks)
    assert kinds_with_racks >= 2


def test_sets_are_in_reading_order(scenes) -> None:
    """Consecutive tiles of a set lie side by side along the tiles' own right direction."""
    for _, truth in scenes:
        for members in truth.sets:
            for a, b in zip(members, members[1:], strict=False):
                ta, tb = truth.tiles[a], truth.tiles[b]
                right = ta.corners[1] - ta.corners[0]
                step = tb.corners.mean(axis=0) - ta.corners.mean(axis=0)
                assert step @ right > 0


@pytest.mark.parametrize(
    ("quad", "angle"),
    [
        ([[0, 0], [10, 0], [10, 14], [0, 14]], 0.0),  # upright
        ([[0, 14], [0, 0], [14, 0], [14, 14]], 90.0),  # top points left: counter-clockwise quarter turn
        ([[10, 14], [0, 14], [0, 0], [10, 0]], 180.0),
        ([[14, 0], [14, 10], [0, 10], [0, 0]], 270.0),
    ],
)
def test_angle_convention_matches_detections(quad, angle) -> None:
    assert _angle_of(np.array(quad, float)) == pytest.approx(angle)


def test_same_seed_same_scene_and_different_seed_differs() -> None:
    a_img, a_truth, a_q = render_indexed(5, 3, long_side=384)
    b_img, b_truth, b_q = render_indexed(5, 3, long_side=384)
    c_img, _, _ = render_indexed(6, 3, long_side=384)
    assert np.array_equal(a_img, b_img)
    assert a_truth.to_json() == b_truth.to_json() and a_q == b_q
    assert a_img.shape != c_img.shape or not np.array_equal(a_img, c_img)


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.md5(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix in {".jpg", ".txt", ".json"}
    }


def test_cli_output_does_not_depend_on_workers(tmp_path: Path) -> None:
    args = ["--count", "3", "--seed", "4", "--size", "320", "--quiet", "--sheet", "0"]
    assert render_main(["--out", str(tmp_path / "one"), "--workers", "1", *args, "--sheet", "3"]) == 0
    assert render_main(["--out", str(tmp_path / "two"), "--workers", "2", *args]) == 0
    one, two = _digest(tmp_path / "one"), _digest(tmp_path / "two")
    assert len(one) == 3 * 4 + 1 and one == two  # images, labels, labels_det, scenes; det/images.txt
    sheet = cv2.imread(str(tmp_path / "one" / "contact_sheet.png"))
    assert sheet is not None and sheet.shape[0] > 100
    assert not (tmp_path / "two" / "contact_sheet.png").exists()
    scene = json.loads((tmp_path / "one" / "scenes" / "000000.json").read_text())
    assert {"tiles", "sets", "racks", "width", "height"} <= set(scene)
    assert (tmp_path / "one" / "data.yaml").read_text().count("\n  ") == len(CLASS_NAMES)


def test_the_cli_names_the_fonts_its_numerals_come_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import datasets.render as render

    monkeypatch.setattr(render, "available_fonts", lambda: ("/usr/share/fonts/x/Some-Bold.ttf", "hershey"))
    assert render_main(["--out", str(tmp_path), "--count", "1", "--size", "160", "--quiet", "--sheet", "0",
                        "--workers", "1"]) == 0
    assert "numeral fonts on this machine: Some-Bold.ttf, hershey" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [["--count", "0"], ["--count", "2", "--workers", "0"], ["--count", "2", "--size", "50"],
     ["--count", "2", "--harsh-light", "1.5"]],
)
def test_cli_rejects_bad_numbers(tmp_path: Path, capsys, argv) -> None:
    assert render_main(["--out", str(tmp_path), *argv]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_every_class_appears_over_a_small_batch() -> None:
    seen: set[str] = set()
    for i in range(16):
        _, truth = render_scene(np.random.default_rng([99, i]), long_side=384, kind="scatter")
        seen |= {CLASS_NAMES[t.class_id] for t in truth.tiles if t.labelled}
    assert seen == set(CLASS_NAMES), f"missing: {sorted(set(CLASS_NAMES) - seen)}"


def test_every_face_renders_with_its_own_numeral() -> None:
    rng = np.random.default_rng(0)
    edition = Edition.sample(rng)
    faces = {}
    for name in CLASS_NAMES:
        tile = tile_from_class_name(name)
        face, alpha = render_face(tile, edition, 96, rng)
        assert face.shape[:2] == alpha.shape and face.dtype == np.float32
        assert 0.85 < alpha.mean() < 1.0  # rounded corners, otherwise opaque
        faces[name] = face
    # Same colour, different number: different ink.
    assert np.abs(faces["red_6"] - faces["red_9"]).mean() > 0.005
    assert np.abs(faces["black_1"] - faces["black_11"]).mean() > 0.005


def test_jokers_come_in_red_and_black() -> None:
    rng = np.random.default_rng(1)
    edition = Edition.sample(rng)
    colors = set()
    for _ in range(12):
        face, _ = render_face(JOKER, edition, 96, rng)
        hsv = cv2.cvtColor((face * 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
        colors.add("red" if (hsv[..., 1] > 120).sum() > 50 else "black")
    assert colors == {"red", "black"}


def test_faces_render_without_system_fonts(monkeypatch) -> None:
    monkeypatch.setattr(glyphs, "available_fonts", lambda: (glyphs.HERSHEY,))
    monkeypatch.setattr("datasets.tile_face.available_fonts", lambda: (glyphs.HERSHEY,))
    rng = np.random.default_rng(2)
    edition = Edition.sample(rng)
    assert edition.font_key == glyphs.HERSHEY
    face, _ = render_face(Tile(Color.BLUE, 8), edition, 96, rng)
    hsv = cv2.cvtColor((face * 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
    assert (hsv[..., 1] > 120).sum() > 100  # blue ink was drawn


def test_numeral_mask_has_the_requested_height() -> None:
    for font in glyphs.available_fonts():
        mask = glyphs.number_mask(font, 8, 40, 100)
        rows = np.nonzero(mask.max(axis=1) > 0.5)[0]
        assert 36 <= rows.max() - rows.min() + 1 <= 44


@pytest.mark.parametrize("variant", range(4))
def test_joker_is_a_big_dense_face_in_a_ring(variant: int) -> None:
    size = 96
    mask = glyphs.joker_mask(size, variant)
    ys, xs = np.nonzero(mask > 0.5)
    assert xs.max() - xs.min() + 1 >= size * 0.95  # the ring spans the whole mask
    yy, xx = np.mgrid[:size, :size]
    dist = np.hypot(xx - (size - 1) / 2, yy - (size - 1) / 2)
    inside = mask[dist < size * 0.36]
    assert inside.mean() > 0.23  # brows, eyes, nose and grin: dense ink, not a thin smiley
    upper = mask[(dist < size * 0.36) & (yy < size * 0.4)].mean()
    lower = mask[(dist < size * 0.36) & (yy > size * 0.55)].mean()
    assert upper > 0.15 and lower > 0.15  # features above (brows, eyes) and below (grin) the centre


def test_joker_fills_most_of_the_tile_width() -> None:
    rng = np.random.default_rng(4)
    edition = Edition.sample(rng)
    face, alpha = render_face(JOKER, edition, 120, rng)
    ink = (face.max(axis=2) - face.min(axis=2) > 0.25) | (face.mean(axis=2) < 0.45)
    ink &= alpha > 0.99
    cols = np.nonzero(ink[: int(120 * 0.7)].any(axis=0))[0]
    assert 0.6 <= (cols.max() - cols.min() + 1) / face.shape[1] <= 0.8


@pytest.mark.parametrize("stroke", [0.175, 0.215])
def test_numerals_are_as_heavy_as_the_print_in_every_font(stroke: float) -> None:
    for font in glyphs.available_fonts():
        measured = [glyphs._stroke_of(glyphs.digit_mask(font, char, 80, stroke)) / 80 for char in "2345689"]
        assert abs(float(np.median(measured)) - stroke) < 0.035, (font, measured)
        assert max(abs(m - stroke) for m in measured) < 0.055, (font, measured)


def test_seven_has_a_full_bar_and_a_straight_stem_landing_left() -> None:
    mask = glyphs.digit_mask(glyphs.available_fonts()[0], "7", 80, 0.19) > 0.5
    h, w = mask.shape
    top = np.nonzero(mask[int(h * 0.05)])[0]
    assert top.max() - top.min() + 1 >= 0.8 * w  # the bar spans the glyph, unlike the 1's short flag
    centres = [np.nonzero(mask[y])[0].mean() for y in range(int(h * 0.3), int(h * 0.95))]
    assert centres[-1] < w * 0.5  # the stem lands left of the middle
    slope = np.polyfit(np.arange(len(centres)), centres, 1)
    residual = np.abs(np.polyval(slope, np.arange(len(centres))) - centres).max()
    assert residual < 0.05 * h  # straight, not curved


def test_editions_use_bold_truetype_fonts_when_the_machine_has_them() -> None:
    fonts = set(glyphs.available_fonts()) - {glyphs.PILLOW_DEFAULT, glyphs.HERSHEY}
    picked = {Edition.sample(np.random.default_rng(i)).font_key for i in range(40)}
    assert picked <= fonts if fonts else picked <= {glyphs.PILLOW_DEFAULT, glyphs.HERSHEY}
