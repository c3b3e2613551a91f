"""Real tiles cut out of a labelled photo and laid anew: the cuts, the scenes' labels, the CLI."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.tiles import tile_from_class_id
from datasets.photo_game import load_photo, photo_folder
from datasets.real_tiles import cut_tiles, label_lines, load_pool, main, make_scene
from datasets.render import render_indexed, write_data_yaml
from vision.evaluation.reading import parse_label_polygons

SCENE = (44, 0)
"""A rendered table (640x480, dark cloth, every tile labelled, no rack), as tests/datasets/test_photo_game."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    img, truth, _ = render_indexed(*SCENE, long_side=640, kind="game")
    h, w = img.shape[:2]
    root = tmp_path_factory.mktemp("photos")
    (root / "images").mkdir()
    (root / "labels").mkdir()
    cv2.imwrite(str(root / "images" / "table.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    lines = [f"{t.class_id} " + " ".join(f"{x / w:.6f} {y / h:.6f}" for x, y in t.corners)
             for t in truth.tiles]
    (root / "labels" / "table.txt").write_text("".join(f"{line}\n" for line in lines))
    write_data_yaml(root)
    return root


def test_each_whole_tile_is_cut_out_upright_with_its_own_face(folder: Path) -> None:
    paths, labels, classes = photo_folder(folder)
    photo = load_photo(paths[0], labels, classes, long_side=640)
    cuts = cut_tiles(photo)
    assert len(cuts) == len(photo.tiles)  # the render's tiles all lie whole inside the frame
    for cut, tile in zip(cuts, photo.tiles, strict=True):
        assert cut.tile == tile.tile
        h, w = cut.mask.shape
        assert h > w  # upright: its long side runs up the cut
        assert cut.mask[h // 2, w // 2] == pytest.approx(1.0)
        assert cut.mask[0, 0] == 0.0  # the margin around the tile is no part of it
        # The cut's middle is the photo around the tile's centre (a numeral's edge: a few pixels' mean).
        cx, cy = np.round(tile.centre).astype(int)
        ours = cut.image[h // 2 - 3:h // 2 + 4, w // 2 - 3:w // 2 + 4].mean(axis=(0, 1))
        theirs = photo.image[cy - 3:cy + 4, cx - 3:cx + 4].mean(axis=(0, 1)) / 255.0
        assert np.allclose(ours, theirs, atol=0.1)


def test_a_tile_cut_by_the_frame_is_not_cut_out(folder: Path) -> None:
    paths, labels, classes = photo_folder(folder)
    photo = load_photo(paths[0], labels, classes, long_side=640)
    whole = len(cut_tiles(photo))
    photo.tiles[0].polygon = photo.tiles[0].polygon - photo.tiles[0].polygon.min(axis=0)  # to the corner
    assert len(cut_tiles(photo)) == whole - 1


def test_a_scene_labels_every_tile_it_lays_where_it_lies(folder: Path) -> None:
    pool = load_pool([folder], long_side=640)
    image, labels, _ = make_scene(pool, seed=3, index=0, long_side=640, tile_px=(30, 40))
    h, w = image.shape[:2]
    assert max(h, w) == 640 and labels
    for tile, polygon in labels:
        assert polygon.min() >= 0 and polygon[:, 0].max() < w and polygon[:, 1].max() < h
        box_h = float(np.linalg.norm(polygon[1] - polygon[2])) if len(polygon) == 4 else 0
        assert box_h == 0 or 20 < max(box_h, float(np.linalg.norm(polygon[0] - polygon[1]))) < 50
        assert tile in {c.tile for c in pool.cuts}
    # The label lines read back as they were laid.
    read_back = parse_label_polygons("\n".join(label_lines(labels, (w, h))), w, h)
    assert [tile_from_class_id(c) for c, _ in read_back] == [t for t, _ in labels]
    # No two tiles overlap: each polygon's middle lies in no other polygon.
    for i, (_, a) in enumerate(labels):
        for j, (_, b) in enumerate(labels):
            if i != j:
                inside = cv2.pointPolygonTest(b.astype(np.float32), tuple(map(float, a.mean(axis=0))), False)
                assert inside < 0


def test_the_same_seed_lays_the_same_scene(folder: Path) -> None:
    pool = load_pool([folder], long_side=640)
    a, la, qa = make_scene(pool, seed=5, index=2, long_side=640)
    b, lb, qb = make_scene(pool, seed=5, index=2, long_side=640)
    c, _, _ = make_scene(pool, seed=5, index=3, long_side=640)
    assert np.array_equal(a, b) and qa == qb and len(la) == len(lb)
    assert not np.array_equal(a, c) or a.shape != c.shape


def test_cli_writes_a_folder_the_trainer_takes(folder: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "laid"
    assert main([str(out), "--photos", str(folder), "--count", "2", "--seed", "1", "--long-side", "640"]) == 0
    assert sorted(p.name for p in (out / "images").iterdir()) == ["000000.jpg", "000001.jpg"]
    assert (out / "data.yaml").is_file()
    assert "2 scenes" in capsys.readouterr().out


def test_cli_says_what_is_wrong(tmp_path: Path, capsys) -> None:
    assert main([str(tmp_path / "o"), "--photos", str(tmp_path / "none"), "--count", "1"]) == 2
    assert "no folder" in capsys.readouterr().err
    bad_sizes = ["--tile-px", "40", "20"]
    assert main([str(tmp_path / "o"), "--photos", str(tmp_path), "--count", "1", *bad_sizes]) == 2
    assert "--tile-px" in capsys.readouterr().err
