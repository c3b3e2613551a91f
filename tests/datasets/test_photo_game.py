"""Game videos from a labelled photo's pixels: groups, the empty table, the rules and truth, the CLI."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.meld import check_meld
from assistant.sets import check_set
from assistant.tiles import Tile
from datasets.game_script import ILLEGAL_KINDS, GameScript
from datasets.photo_game import (
    Photo,
    PhotoStates,
    PhotoTile,
    empty_table,
    group_tiles,
    load_photo,
    main,
    photo_folder,
    photo_script,
    render_photo_game,
    tile_masks,
    unusable,
    zoomed_out,
)
from datasets.render import render_indexed, write_data_yaml
from vision.evaluation.game_videos import COMPARED, evaluate, score_calls
from vision.reader import load_reader

SCENE = (44, 0)
"""A rendered table (640x480, dark cloth, every tile labelled, no rack): k10 r10 o10, k10-k13, b3-b8 and
b4 r12 b3 (no set)."""


def _write_photo(root: Path, name: str, img: np.ndarray, lines: list[str]) -> None:
    (root / "images").mkdir(parents=True, exist_ok=True)
    (root / "labels").mkdir(exist_ok=True)
    cv2.imwrite(str(root / "images" / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    (root / "labels" / f"{name}.txt").write_text("".join(f"{line}\n" for line in lines))


@pytest.fixture(scope="module")
def scene() -> tuple[np.ndarray, list[list[int]], list[str]]:
    """(image, the truth's sets as tile indices, YOLO polygon label lines in the truth's tile order)."""
    img, truth, _ = render_indexed(*SCENE, long_side=640, kind="game")
    h, w = img.shape[:2]
    assert not truth.racks and all(t.labelled for t in truth.tiles)
    lines = [f"{t.class_id} " + " ".join(f"{x / w:.6f} {y / h:.6f}" for x, y in t.corners)
             for t in truth.tiles]
    return img, truth.sets, lines


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory, scene) -> Path:
    root = tmp_path_factory.mktemp("photos")
    _write_photo(root, "table", scene[0], scene[2])
    write_data_yaml(root)
    return root


@pytest.fixture(scope="module")
def photo(folder: Path) -> Photo:
    paths, labels, classes = photo_folder(folder)
    return load_photo(paths[0], labels, classes, long_side=640)


def _scripts(photo: Photo) -> list[GameScript]:
    return [photo_script(photo, seed, players) for seed in range(12) for players in (2, 3)]


def _tokens(photo: Photo, group: list[int]) -> list[str]:
    return [str(t) for t in photo.faces(group)]


def test_groups_are_the_sets_on_the_table(photo: Photo, scene) -> None:
    assert sorted(map(sorted, photo.groups)) == sorted(map(sorted, scene[1]))
    assert unusable(photo) is None
    by_tokens = {tuple(_tokens(photo, g)) for g in photo.groups}
    assert ("k10", "k11", "k12", "k13") in by_tokens  # left to right
    assert ("b3", "b4", "b5", "b6", "b7", "b8") in by_tokens


def test_legal_plays_lay_every_valid_group_exactly_once(photo: Photo) -> None:
    valid = [g for g in photo.groups if check_set(photo.faces(g)).valid]
    assert len(valid) == 3
    for script in _scripts(photo):
        laid: list[tuple[int, ...]] = []
        previous = script.states[0]
        for event in script.events:
            if event.kind != "turn":
                continue
            after = script.states[event.state]
            new = [tuple(s) for s in after.sets if list(s) not in previous.sets]
            if event.turn_kind == "legal":
                assert 1 <= len(new) <= 3 and not [s for s in previous.sets if s not in after.sets]
                laid.extend(new)
            if event.turn_kind not in ILLEGAL_KINDS:
                previous = after
        assert script.ended == "photo"
        assert sorted(map(sorted, laid)) == sorted(map(sorted, valid)), script.seed
        last = script.turn_records()[-1]["table"]
        assert Counter(t for s in last for t in s) == Counter(t for g in valid for t in _tokens(photo, g))


def test_each_play_is_judged_by_the_domain_rules(photo: Photo) -> None:
    for script in _scripts(photo):
        opened: set[int] = set()
        records = script.turn_records()
        previous: list[list[str]] = []
        for record in records:
            table = record["table"]
            new = [s for s in table if s not in previous]
            sets = [[Tile.parse(t) for t in s] for s in new]
            if record["kind"] == "legal":
                assert all(check_set(s).valid for s in sets)
                assert record["seat"] in opened or check_meld(sets).accepted
                opened.add(record["seat"])
            elif record["kind"] == "invalid-set":
                assert not all(check_set(s).valid for s in sets)
            elif record["kind"] == "opening-under-threshold":
                assert record["seat"] not in opened and all(check_set(s).valid for s in sets)
                assert not check_meld(sets).meets_threshold
            if record["kind"] not in ILLEGAL_KINDS:
                previous = table


def test_a_tile_kept_back_from_inside_a_row_leaves_two_sets_on_the_table(photo: Photo) -> None:
    # r1-r8, a gap, r10-r13 lies on the table as two runs (both valid: a legal play), not as one invalid
    # set: every set a state holds is tiles side by side in its photo group, with no place left empty.
    split = 0
    for script in _scripts(photo):
        for event in script.events:
            if event.kind != "turn" or event.turn_kind != "invalid-set":
                continue
            groups = []
            for laid in script.states[event.state].sets:
                group = next(g for g in photo.groups if laid[0] in g)
                start = group.index(laid[0])
                assert group[start : start + len(laid)] == list(laid), (script.seed, laid, group)
                groups.append(tuple(group))
            split += int(len(groups) > len(set(groups)))
    assert split > 0  # a row that lost a tile inside it, as two sets: the case exists in these scripts


def _row_photo(rows: list[list[str]]) -> Photo:
    """A photo of upright 40x60 tiles lying side by side in rows (no pixels: scripts only)."""
    tiles = []
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            x, y = 50.0 + 44 * c, 80.0 + 120 * r
            polygon = np.array([[x - 20, y - 30], [x + 20, y - 30], [x + 20, y + 30], [x - 20, y + 30]])
            up = np.array([0.0, -1.0])
            tiles.append(PhotoTile(Tile.parse(token), polygon, np.array([x, y]), up, 60, 40))
    photo = Photo("rows.jpg", np.zeros((120 * len(rows) + 40, 700, 3), np.uint8), tiles)
    photo.groups = group_tiles(tiles)
    photo.rows = list(range(len(photo.groups)))
    return photo


def test_a_tile_kept_back_from_a_group_of_four_is_no_invalid_play() -> None:
    # o13 (gap) k13 b13 with r13 kept back is a group of three with room in it: the referee reads it whole, as
    # a player would (photo game zoom 3201-p3 game 1, where the truth called it invalid).
    photo = _row_photo([["o13", "r13", "k13", "b13"], ["b2", "b3", "b4"], ["b7", "b8", "b9"],
                        ["o10", "o11", "o12"], ["k1", "k2", "k3", "k5"]])
    assert [len(g) for g in photo.groups] == [4, 3, 3, 3, 4]
    invalid = 0
    for seed in range(60):
        script = photo_script(photo, seed, 2 + seed % 2)
        for event in script.events:
            if event.kind != "turn" or event.turn_kind != "invalid-set":
                continue
            invalid += 1
            laid = [t for s in script.states[event.state].sets for t in s]
            for group in photo.groups:
                kept = [i for i in group if i in laid]
                if 0 < len(kept) < len(group):  # a group laid without one of its tiles
                    assert not check_set(photo.faces(kept)).valid, (seed, photo.faces(kept))
    assert invalid > 0


def test_an_illegal_play_is_put_back_by_the_same_seat_at_its_next_hand(photo: Photo) -> None:
    seen: Counter[str] = Counter()
    for script in _scripts(photo):
        records = script.turn_records()
        turns = [e for e in script.events if e.kind == "turn"]
        for n, record in enumerate(records):
            if record["kind"] not in ILLEGAL_KINDS:
                continue
            seen[record["kind"]] += 1
            assert record["action"] == "play" and record["legal"] is False
            follow = records[n + 1]
            assert script.events.index(turns[n + 1]) == script.events.index(turns[n]) + 1  # its next hand
            assert (follow["seat"], follow["kind"], follow["action"], follow["legal"]) == (
                record["seat"], "put-back", "put back", True)
            before = records[n - 1]["table"] if n else []
            assert follow["table"] == before
            assert follow["removed"] == record["added"] and not follow["added"]
        ends = [r["seat"] for r in records if r["kind"] in ("legal", "put-back")]
        assert ends == [k % script.players + 1 for k in range(len(ends))]
    assert seen["invalid-set"] > 0
    assert sum(e.kind == "no-change" for s in _scripts(photo) for e in s.events) > 0


def _made_photo() -> Photo:
    """Five drawn sets worth 3, 9, 12, 24 and 33, one a row: seats may try to open with too little."""
    image = np.full((480, 640, 3), 70, np.uint8)
    tiles = []
    for row, group in enumerate(["k1 r1 o1", "k2 k3 k4", "b3 b4 b5", "r7 r8 r9", "o10 o11 o12"]):
        for k, token in enumerate(group.split()):
            x, y = 60 + k * 37, 40 + row * 80
            polygon = np.array([[x, y], [x + 36, y], [x + 36, y + 50], [x, y + 50]], float)
            cv2.fillPoly(image, [polygon.astype(np.int32)], (235, 240, 240))
            up = np.array([0.0, -1.0])
            tiles.append(PhotoTile(Tile.parse(token), polygon, polygon.mean(axis=0), up, 50.0, 36.0))
    photo = Photo("made.jpg", image, tiles)
    photo.groups = group_tiles(tiles)
    photo.rows = [0, 1, 2, 3, 4]
    return photo


def test_an_opening_worth_too_little_is_tried_put_back_and_laid_later() -> None:
    photo = _made_photo()
    assert [_tokens(photo, g) for g in photo.groups][0] == ["k1", "r1", "o1"]
    records = [r for seed in range(20) for r in photo_script(photo, seed, 2).turn_records()]
    kinds = Counter(r["kind"] for r in records)
    assert kinds["opening-under-threshold"] > 0
    assert kinds["put-back"] == kinds["opening-under-threshold"] + kinds["invalid-set"]
    for seed in range(6):
        script = photo_script(photo, seed, 2)
        laid = Counter(t for r in script.turn_records() if r["kind"] == "legal" for t in r["added"])
        assert script.ended == "photo" and sum(laid.values()) == 15
        # Three seats cannot all open with 81 points: a game ends when a seat finds too little left to open
        # with (or when the others laid everything while its turns went on illegal plays).
        script = photo_script(photo, seed, 3)
        records = script.turn_records()
        on_table = {t for s in records[-1]["table"] for t in s}
        left = [g for g in photo.groups if not set(_tokens(photo, g)) <= on_table]
        if script.ended == "no play":
            assert left and sum(check_set(photo.faces(g)).value or 0 for g in left) < 30
            assert len({r["seat"] for r in records if r["kind"] == "legal"}) == 2
        else:
            assert script.ended == "photo" and not left
    assert {photo_script(photo, seed, 3).ended for seed in range(6)} == {"photo", "no play"}


def _white_blobs(img: np.ndarray, region: np.ndarray) -> int:
    """The largest near-white (tile-coloured) blob inside `region`, in pixels."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    white = ((hsv[..., 2] > 170) & (hsv[..., 1] < 60) & (region > 0)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(white)
    return int(stats[1:, cv2.CC_STAT_AREA].max()) if count > 1 else 0


def test_the_empty_table_has_no_tile_left(photo: Photo) -> None:
    masks = tile_masks(photo)
    empty, report = empty_table(photo, masks)
    assert report.inpainted_tiles == 0
    empty_u8 = (np.clip(empty, 0, 1) * 255 + 0.5).astype(np.uint8)
    tile_area = photo.tile_px ** 2 * 0.7
    for core, grown in zip(*masks, strict=True):
        inside = core > 0
        diff = np.abs(empty_u8.astype(int) - photo.image.astype(int))[inside].mean()
        assert diff > 40  # a white tile on dark cloth is gone
        assert _white_blobs(photo.image, grown) > 0.5 * tile_area  # the photo shows it
        assert _white_blobs(empty_u8, grown) < 0.02 * tile_area
    near = cv2.dilate(np.max(masks[1], axis=0), np.ones((15, 15), np.uint8))
    bare = near == 0
    assert bare.mean() > 0.5 and np.array_equal(empty_u8[bare], photo.image[bare])  # nothing else changes


def test_a_state_shows_its_tiles_and_only_them(photo: Photo) -> None:
    script = photo_script(photo, 3, 2)
    masks = tile_masks(photo)
    empty, _ = empty_table(photo, masks)
    images = PhotoStates(script, photo, empty, masks)
    last = script.turn_records()[-1]["state"]
    shown = set(script.states[last].ids())
    assert shown and len(shown) < len(photo.tiles)  # b4 r12 b3 is never laid
    img = images.u8(last)
    for i, core in enumerate(masks[0]):
        inside = core > 0
        photo_diff = np.abs(img.astype(int) - photo.image.astype(int))[inside].mean()
        empty_diff = np.abs(img.astype(float) / 255 - empty)[inside].mean() * 255
        assert (photo_diff < 3) if i in shown else (empty_diff < 3)
    assert np.array_equal(images.u8(0), (np.clip(empty, 0, 1) * 255 + 0.5).astype(np.uint8))


def test_a_game_video_and_its_truth_for_the_evaluator(tmp_path: Path, photo: Photo) -> None:
    truth, data, _ = render_photo_game(photo, tmp_path / "game-000.mp4", seed=7, players=2, fps=5)
    written = json.loads((tmp_path / "game-000.json").read_text())
    assert written == data and written["photo"] == "table.jpg" and written["surface"] == "photo:table.jpg"
    for key in ("video", "seed", "players", "first_seat", "rules", "fps", "frames", "duration_s", "width",
                "height", "settle_s", "tile_px", "surface", "hands", "order", "start_table", "turns",
                "events", "ended"):
        assert key in written, key
    assert (written["width"], written["height"]) == photo.size and written["start_table"] == []
    capture = cv2.VideoCapture(str(tmp_path / "game-000.mp4"))
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == written["frames"]
    capture.release()
    turns = written["turns"]
    assert turns and all(set(COMPARED) | {"time_s"} <= set(t) for t in turns)
    assert all(a["time_s"] < b["time_s"] for a, b in zip(turns, turns[1:], strict=False))
    assert all(t["time_s"] < written["duration_s"] for t in turns)
    perfect = score_calls(turns, [dict(t) for t in turns])
    assert (perfect.right, perfect.missed, perfect.invented) == (len(turns), 0, 0)
    # The evaluator reads it as it reads game_video's: every true turn counted, the referee saw some.
    score = evaluate(tmp_path, load_reader())
    assert score.turns == len(turns) and score.missed < len(turns) and score.frames > 0
    assert abs(score.video_s - written["duration_s"]) < 1.0
    again, _, _ = render_photo_game(photo, tmp_path / "again.mp4", seed=7, players=2, fps=5)
    assert again.turns == truth.turns and again.events == truth.events


def test_cli_writes_games_and_skips_photos_without_a_game(tmp_path: Path, folder: Path, scene,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    mixed = tmp_path / "mixed"
    _write_photo(mixed, "table", scene[0], scene[2])
    _write_photo(mixed, "lone", scene[0], scene[2][:2])  # two tiles of one set: one group
    write_data_yaml(mixed)
    out = tmp_path / "out"
    assert main([str(out), "--photos", str(mixed), "--games", "2", "--seed", "4", "--fps", "2",
                 "--long-side", "320"]) == 0
    err = capsys.readouterr().err
    assert "skipped lone.jpg: 1 group of tiles" in err
    assert sorted(p.name for p in out.iterdir()) == ["game-000.json", "game-000.mp4", "game-001.json",
                                                      "game-001.mp4"]
    games = [json.loads((out / f"game-00{i}.json").read_text()) for i in range(2)]
    assert [g["photo"] for g in games] == ["table.jpg", "table.jpg"]
    assert [g["seed"] for g in games] == [4000, 4001]
    assert (games[0]["width"], games[0]["height"]) == (320, 240)


def test_a_zoomed_out_photo_lies_in_the_middle_of_its_own_table_mirrored(photo: Photo) -> None:
    masks = tile_masks(photo)
    empty, _ = empty_table(photo, masks)
    wide, wide_empty = zoomed_out(photo, empty, 1.6)
    (w, h), (width, height) = photo.size, wide.size
    assert (width, height) == (round(w * 1.6 / 2) * 2, round(h * 1.6 / 2) * 2)
    assert wide_empty.shape[:2] == (height, width)
    left, top = (width - w) // 2, (height - h) // 2
    assert np.array_equal(wide.image[top:top + h, left:left + w], photo.image)  # the photo's own pixels
    for before, after in zip(photo.tiles, wide.tiles, strict=True):
        assert after.tile == before.tile and after.height == before.height  # the same tiles, smaller in frame
        assert np.allclose(after.polygon - before.polygon, [left, top])
    assert wide.groups == photo.groups and wide.rows == photo.rows
    # Around the photo, its empty table mirrored: no tile there (white blobs), and the seam continuous.
    around = np.full((height, width), 255, np.uint8)
    around[top:top + h, left:left + w] = 0
    assert _white_blobs(wide.image, around) < 0.02 * photo.tile_px ** 2
    assert np.allclose(wide_empty[top:top + h, left:left + w], empty)
    assert np.allclose(wide_empty[top - 1, left:left + w], empty[1])
    # The whole game still plays: every state's image at the wide size.
    images = PhotoStates(photo_script(wide, 3, 2), wide, wide_empty, tile_masks(wide))
    assert images.u8(0).shape[:2] == (height, width)
    with pytest.raises(ValueError, match="from 1 to 3"):
        zoomed_out(photo, empty, 3.5)


def test_cli_zooms_out_to_the_long_side_asked_for(tmp_path: Path, folder: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main([str(out), "--photos", str(folder), "--seed", "4", "--fps", "2", "--long-side", "320",
                 "--zoom-out", "2"]) == 0
    game = json.loads((out / "game-000.json").read_text())
    assert game["zoom_out"] == 2.0 and (game["width"], game["height"]) == (320, 240)
    with pytest.raises(SystemExit):
        main([str(out), "--photos", str(folder), "--zoom-out", "5"])
    assert "must be from 1 to 3, not 5" in capsys.readouterr().err


@pytest.mark.parametrize("case", ["missing", "no labels", "unknown class"])
def test_cli_says_what_is_wrong_with_the_folder(tmp_path: Path, scene, case: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "photos"
    if case != "missing":
        _write_photo(root, "table", scene[0], scene[2])
        write_data_yaml(root)
    if case == "no labels":
        (root / "labels" / "table.txt").unlink()
    if case == "unknown class":
        (root / "data.yaml").write_text("names:\n  - black_1\n  - purple_14\n")
    assert main([str(tmp_path / "out"), "--photos", str(root)]) == 2
    err = capsys.readouterr().err
    expected = {"missing": "no folder", "no labels": "no labels in",
                "unknown class": "unknown class name 'purple_14'"}
    assert err.startswith("error: ") and expected[case] in err and "Traceback" not in err


def test_real_dev_s_known_label_errors_are_corrected_as_the_reader_s_measures_correct_them(
    tmp_path: Path, scene
) -> None:
    # real-dev's rummy-2 has its black run labelled blue (vision.evaluation.reading.fix_known_label_errors):
    # of two tiles labelled with the same blue number, the lower is black. The scene has b3 and b4 twice.
    img, _, lines = scene
    _write_photo(tmp_path, "rummy-2_jpeg.rf.0123", img, lines)
    _write_photo(tmp_path, "rummy-3_jpeg.rf.0123", img, lines)
    write_data_yaml(tmp_path)
    paths, labels, classes = photo_folder(tmp_path)
    fixed, kept = (load_photo(p, labels, classes, long_side=640) for p in paths)
    assert fixed.name.startswith("rummy-2") and kept.name.startswith("rummy-3")
    for number in (3, 4):
        pair = [i for i, t in enumerate(kept.tiles) if str(t.tile) == f"b{number}"]
        assert len(pair) == 2
        lower = max(pair, key=lambda i: kept.tiles[i].centre[1])
        upper = min(pair, key=lambda i: kept.tiles[i].centre[1])
        assert str(fixed.tiles[lower].tile) == f"k{number}"
        assert str(fixed.tiles[upper].tile) == f"b{number}"
    changed = [i for i, (a, b) in enumerate(zip(fixed.tiles, kept.tiles, strict=True)) if a.tile != b.tile]
    assert len(changed) == 2
