"""Racks sloping across the frame: kept by their corners, found in a levelled look."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.tiles import CLASS_INDEX
from vision.detections import Detections, rack_shares, share_inside, share_inside_quads
from vision.detector import (
    SLOPED_RACK_MIN_SLOPE,
    TileDetector,
    sloping_line,
    tile_clusters,
)
from vision.layout import group
from vision.racks import rack_owners

# A rack at 45 degrees across the frame, corners clockwise from its upper left as seen.
DIAMOND = np.array([[100, 0], [200, 100], [100, 200], [0, 100]], np.float32)


def test_a_box_inside_an_upright_quad_shares_as_inside_its_box() -> None:
    # Edges between the lattice's points: the lattice counts these shares exactly.
    boxes = np.array([[10, 10, 30, 30], [80, 80, 130, 130], [-15, 40, 10, 65], [200, 0, 220, 20]], float)
    rack = np.array([[0, 0, 100, 100]], float)
    quad = np.array([[[0, 0], [100, 0], [100, 100], [0, 100]]], float)
    assert np.allclose(share_inside_quads(boxes, quad), share_inside(boxes, rack))
    # Corners either way round:
    assert np.allclose(share_inside_quads(boxes, quad[:, ::-1]), share_inside(boxes, rack))


def test_the_corner_of_a_sloping_racks_box_is_not_on_the_rack() -> None:
    corner, middle = [0, 0, 30, 30], [85, 85, 115, 115]
    share = share_inside_quads(np.array([corner, middle], float), DIAMOND[None])[:, 0]
    assert share[0] == 0.0 and share[1] == 1.0
    box = np.array([[0, 0, 200, 200]], np.float32)
    owners = rack_owners(np.array([corner, middle], float), box, DIAMOND[None])
    assert owners.tolist() == [-1, 0]
    assert rack_owners(np.array([corner, middle], float), box).tolist() == [0, 0]  # its box takes both


def test_racks_without_corners_are_their_boxes() -> None:
    boxes = np.array([[0, 0, 30, 30], [85, 85, 115, 115]], float)
    racks = np.array([[0, 0, 200, 200], [0, 0, 200, 200]], np.float32)
    quads = np.stack([np.full((4, 2), np.nan, np.float32), DIAMOND])
    share = rack_shares(boxes, racks, quads)
    assert share[:, 0].tolist() == [1.0, 1.0] and share[:, 1].tolist() == [0.0, 1.0]


def _with_quad(n: int = 2) -> Detections:
    return Detections(
        xyxy=np.array([[85, 85, 115, 115], [0, 0, 30, 30]], np.float32)[:n],
        confidence=np.full(n, 0.9, np.float32),
        rack_xyxy=np.array([[0, 0, 200, 200]], np.float32),
        rack_confidence=np.array([0.6], np.float32),
        rack_quad=DIAMOND[None],
    )


def test_a_racks_corners_go_with_its_detections() -> None:
    found = _with_quad()
    assert np.array_equal(found[[1]].rack_quad, DIAMOND[None])
    assert np.array_equal(found.with_tiles(found.xyxy, found.confidence).rack_quad, DIAMOND[None])
    read = found.with_readings(np.array([[0], [1]]), np.array([[0.9], [0.9]]))
    assert np.array_equal(read.rack_quad, DIAMOND[None])
    upright = Detections(xyxy=np.zeros((0, 4)), confidence=np.zeros(0),
                         rack_xyxy=np.array([[0, 0, 5, 5]]), rack_confidence=np.array([0.5]))
    merged = Detections.merge([upright, found])
    assert np.isnan(merged.rack_quad[0]).all() and np.array_equal(merged.rack_quad[1], DIAMOND)
    assert Detections.merge([upright, upright]).rack_quad is None


def test_corners_must_match_the_racks() -> None:
    with pytest.raises(ValueError, match="rack_quad"):
        Detections(xyxy=np.zeros((0, 4)), confidence=np.zeros(0), rack_xyxy=np.zeros((2, 4)),
                   rack_quad=DIAMOND[None])
    with pytest.raises(ValueError, match="rack_quad needs rack_xyxy"):
        Detections(xyxy=np.zeros((0, 4)), confidence=np.zeros(0), rack_quad=DIAMOND[None])


def test_the_layout_puts_only_the_tiles_on_a_sloping_rack_into_it() -> None:
    found = _with_quad().with_readings(
        np.array([[CLASS_INDEX["red_5"]], [CLASS_INDEX["black_7"]]]), np.array([[0.99], [0.99]])
    )
    layout = group(found)
    assert [[p.index for p in rack] for rack in layout.racks] == [[0]]
    assert [p.index for s in layout.table for p in s] == [1]


def _sloping_tiers(slope: float = 35.0, per_tier: int = 6, tiers: int = 2) -> np.ndarray:
    """Tile boxes 30 x 40 in `tiers` rows of `per_tier` along a line sloping `slope` degrees (clockwise as
    seen), 34 px apart along it, the rows 42 px apart across it."""
    along = np.array([np.cos(np.radians(slope)), np.sin(np.radians(slope))])
    across = np.array([-along[1], along[0]])
    centres = np.array([[200.0, 150.0] + i * 34 * along + t * 42 * across
                        for t in range(tiers) for i in range(per_tier)])
    return np.concatenate([centres - [15, 20], centres + [15, 20]], axis=1)


def test_clusters_chain_near_tiles_and_leave_far_ones_apart() -> None:
    tiles = np.concatenate([_sloping_tiers(), [[900, 900, 930, 940]]])
    clusters = tile_clusters(tiles)
    assert sorted(len(c) for c in clusters) == [1, 12]


def test_a_sloping_line_of_tiles_gives_its_slope_and_a_level_or_round_one_none() -> None:
    centres = lambda boxes: (boxes[:, :2] + boxes[:, 2:]) / 2  # noqa: E731
    assert sloping_line(centres(_sloping_tiers(35.0))) == pytest.approx(35.0, abs=0.5)
    assert sloping_line(centres(_sloping_tiers(-60.0))) == pytest.approx(-60.0, abs=0.5)
    assert abs(sloping_line(centres(_sloping_tiers(90.0)))) == pytest.approx(90.0, abs=0.5)
    assert sloping_line(centres(_sloping_tiers(SLOPED_RACK_MIN_SLOPE - 4))) is None  # level enough
    assert sloping_line(centres(_sloping_tiers(35.0, per_tier=3, tiers=3))) is None  # a block, no line


class _Levelled(TileDetector):
    """The shipped detector whose first look finds `tiles` (no rack; `parts` as its weak rack boxes) and whose
    later looks find one rack filling the middle of the window and one tile at the window's centre."""

    def __init__(self, tiles: np.ndarray, parts: np.ndarray, rack_score: float = 0.6) -> None:
        super().__init__(threads=1)
        self.tiles, self.parts, self.rack_score = tiles, parts, rack_score
        self.rack_look = False
        self.windows: list[tuple[int, ...]] = []

    def _look(self, image: np.ndarray, confidence: float | None = None
              ) -> tuple[Detections, np.ndarray, np.ndarray]:
        if not self.windows and image.shape[:2] == (600, 600):
            self.windows.append(())
            first = Detections(xyxy=self.tiles.astype(np.float32),
                               confidence=np.full(len(self.tiles), 0.9, np.float32),
                               rack_xyxy=np.zeros((0, 4)), rack_confidence=np.zeros(0))
            return first, self.parts.astype(np.float32), np.zeros((0, 5), np.float32)
        self.windows.append(image.shape)
        h, w = image.shape[:2]
        return Detections(
            xyxy=np.array([[w / 2 - 15, h / 2 - 20, w / 2 + 15, h / 2 + 20]], np.float32),
            confidence=np.array([0.5], np.float32),
            rack_xyxy=np.array([[0.1 * w, 0.1 * h, 0.9 * w, 0.9 * h]], np.float32),
            rack_confidence=np.array([self.rack_score], np.float32),
        ), np.zeros((0, 4), np.float32), np.zeros((0, 5), np.float32)


def _middle(tiles: np.ndarray) -> np.ndarray:
    return ((tiles[:, :2] + tiles[:, 2:]) / 2).mean(axis=0)


def test_a_sloping_rack_is_found_levelled_and_kept_by_its_corners() -> None:
    tiles = _sloping_tiers(35.0)
    middle = _middle(tiles)
    part = np.array([[*(middle - [60, 20]), *(middle + [60, 20])]])
    detector = _Levelled(tiles, part)
    found = detector.detect(np.zeros((600, 600, 3), np.uint8))
    (window,) = detector.windows[1:]
    assert window[1] > 1.4 * window[0]  # the rack runs level across the window given to the detector
    assert found.rack_quad is not None and len(found.rack_xyxy) == 1
    quad = found.rack_quad[0]
    edge = quad[1] - quad[0]
    assert np.degrees(np.arctan2(edge[1], edge[0])) == pytest.approx(35.0, abs=0.5)
    assert (rack_owners(found.xyxy, found.rack_xyxy, found.rack_quad) == 0).sum() >= len(tiles)
    # The levelled look's tile at its centre is the one between the tiers the first look missed.
    added = [box for box in found.xyxy if not any(np.allclose(box, t) for t in tiles.astype(np.float32))]
    assert len(added) == 1
    assert np.allclose((added[0][:2] + added[0][2:]) / 2, middle, atol=2.0)


def test_no_levelled_look_without_a_hint_of_a_rack_in_the_first_look_or_at_one_row() -> None:
    tiles = _sloping_tiers(35.0)
    far_part = np.array([[500, 500, 580, 540]])
    detector = _Levelled(tiles, far_part)
    found = detector.detect(np.zeros((600, 600, 3), np.uint8))
    assert found.rack_quad is None and len(found.rack_xyxy) == 0 and len(found) == len(tiles)
    assert detector.windows == [()]  # the first look only: a look costs a forward pass
    row = _sloping_tiers(35.0, per_tier=8, tiers=1)
    middle = _middle(row)
    part = np.array([[*(middle - [60, 20]), *(middle + [60, 20])]])
    detector = _Levelled(row, part)
    found = detector.detect(np.zeros((600, 600, 3), np.uint8))
    assert found.rack_quad is None  # one row of tiles sloping: a set lying on the table, more often
    assert detector.windows == [()]


def test_a_rack_found_levelled_off_the_first_looks_hint_is_not_kept() -> None:
    tiles = _sloping_tiers(35.0)
    # A weak rack part centred 55 px before the first tiles along the line: inside the window (which reaches
    # 2 tile sides, 69 px, beyond them) but not on the rack the levelled look finds (from 38 px before them).
    along = np.array([np.cos(np.radians(35.0)), np.sin(np.radians(35.0))])
    across = np.array([-along[1], along[0]])
    centre = np.array([200.0, 150.0]) + 21 * across - 55 * along
    part = np.array([[*(centre - 5), *(centre + 5)]])
    detector = _Levelled(tiles, part)
    found = detector.detect(np.zeros((600, 600, 3), np.uint8))
    assert len(detector.windows) == 2 and found.rack_quad is None


def test_level_rows_get_no_levelled_look() -> None:
    tiles = _sloping_tiers(3.0)
    detector = _Levelled(tiles, np.zeros((0, 4)))
    detector.detect(np.zeros((600, 600, 3), np.uint8))
    assert detector.windows == [()]

