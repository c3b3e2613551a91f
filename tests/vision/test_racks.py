"""Racks told from table rows: two overlapping tiers of standing tiles on a dark bar."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.layout_scenes import TILE_H, TILE_W
from vision.racks import _split_at_bend, _tier_offset, find_racks

TABLE, FACE, BAR = 150, 225, 25


def tier_boxes(count: int, left: float, top: float, scale: float = 1.0) -> list[list[float]]:
    """Boxes of `count` upright tiles side by side, the first one's top-left corner at (left, top)."""
    w, h = TILE_W * scale, TILE_H * scale
    return [[left + k * (w + 1), top, left + k * (w + 1) + w, top + h] for k in range(count)]


def painted_frame(boxes: list[list[float]], bar_under: list[list[float]] = (),
                  size: tuple[int, int] = (800, 600), table: int = TABLE) -> np.ndarray:
    """A frame with bright tile faces on a table, and a dark strip a quarter tile high under `bar_under`."""
    frame = np.full((size[1], size[0], 3), table, np.uint8)
    for x1, y1, x2, y2 in bar_under:
        frame[int(y2):int(y2 + 0.25 * (y2 - y1)), int(x1) - 2:int(x2) + 2] = BAR
    for x1, y1, x2, y2 in boxes:
        frame[int(y1):int(y2), int(x1):int(x2)] = FACE
    return frame


def small_rack(overlap: float = 0.3) -> tuple[np.ndarray, list[list[float]], list[list[float]]]:
    """Three tiles on each tier, the back tier's foot hidden `overlap` tile heights behind the front tier."""
    back = tier_boxes(3, 300, 200)
    front = tier_boxes(3, 300, 200 + (1 - overlap) * TILE_H)
    return np.array(back + front, float), back, front


def test_small_rack_found_by_its_bar() -> None:
    xyxy, back, front = small_rack()
    angles = np.zeros(len(xyxy))
    frame = painted_frame(front + back, bar_under=front)
    assert find_racks(xyxy, angles, frame) == [[0, 1, 2, 3, 4, 5]]


def test_rack_read_back_tier_first_whatever_the_detection_order() -> None:
    xyxy, back, front = small_rack()
    order = [4, 1, 5, 0, 3, 2]
    frame = painted_frame(front + back, bar_under=front)
    racks = find_racks(xyxy[order], np.zeros(6), frame)
    assert [[order[i] for i in rack] for rack in racks] == [[0, 1, 2, 3, 4, 5]]


def test_no_bar_no_rack() -> None:
    xyxy, back, front = small_rack()
    assert find_racks(xyxy, np.zeros(6), painted_frame(front + back)) == []


def test_table_rows_on_a_dark_table_are_no_rack() -> None:
    """On a dark table every row has a dark strip under it; rows lie 1.15 tile heights apart."""
    upper = tier_boxes(5, 300, 200)
    lower = tier_boxes(5, 300, 200 + 1.15 * TILE_H)
    xyxy = np.array(upper + lower, float)
    frame = painted_frame(upper + lower, table=BAR)
    assert find_racks(xyxy, np.zeros(10), frame) == []


def test_tiers_must_be_parallel_lines() -> None:
    """A lower line that steps from one row to another (three tiles high, three low) is no tier."""
    upper = tier_boxes(6, 300, 200)
    lower = tier_boxes(3, 300, 200 + 0.7 * TILE_H) + tier_boxes(3, 300 + 3 * (TILE_W + 1), 200 + 1.1 * TILE_H)
    xyxy = np.array(upper + lower, float)
    frame = painted_frame(upper + lower, bar_under=lower)
    racks = find_racks(xyxy, np.zeros(12), frame)
    assert sorted(i for rack in racks for i in rack) != list(range(12))


@pytest.mark.parametrize("clockwise", [True, False])
def test_rack_turned_a_quarter_found_along_the_image_y_axis(clockwise: bool) -> None:
    xyxy, back, front = small_rack()
    frame = painted_frame(front + back, bar_under=front)
    height, width = frame.shape[:2]
    if clockwise:  # (x, y) -> (height - y, x): the tiles' tops point right
        turned = np.rot90(frame, k=-1)
        boxes = np.stack([height - xyxy[:, 3], xyxy[:, 0], height - xyxy[:, 1], xyxy[:, 2]], axis=1)
    else:  # (x, y) -> (y, width - x): the tiles' tops point left
        turned = np.rot90(frame, k=1)
        boxes = np.stack([xyxy[:, 1], width - xyxy[:, 2], xyxy[:, 3], width - xyxy[:, 0]], axis=1)
    racks = find_racks(boxes, np.full(6, -90.0 if clockwise else 90.0), np.ascontiguousarray(turned))
    assert len(racks) == 1 and sorted(racks[0]) == list(range(6))
    assert sorted(racks[0][:3]) == [0, 1, 2]  # the back tier first


def test_rows_laid_touching_are_no_rack() -> None:
    """Rows laid tight touch (a box height apart); a rack's back tier hides behind the front one."""
    upper = tier_boxes(5, 300, 200)
    lower = tier_boxes(5, 300, 200 + TILE_H)
    xyxy = np.array(upper + lower, float)
    frame = painted_frame(upper + lower, bar_under=lower)
    assert find_racks(xyxy, np.zeros(10), frame) == []
    overlapping = np.array(upper + tier_boxes(5, 300, 200 + 0.8 * TILE_H), float)
    assert len(find_racks(overlapping, np.zeros(10), painted_frame(overlapping.tolist(),
                                                                   bar_under=overlapping[5:].tolist()))) == 1


def test_one_tier_rack_but_not_under_another_row() -> None:
    front = tier_boxes(6, 300, 300)
    xyxy = np.array(front, float)
    assert find_racks(xyxy, np.zeros(6), painted_frame(front, bar_under=front)) == [list(range(6))]
    row_above = tier_boxes(6, 300, 300 - TILE_H - 2)
    both = np.array(front + row_above, float)
    assert find_racks(both, np.zeros(12), painted_frame(front + row_above, bar_under=front)) == []


def turned_scene(frame: np.ndarray, xyxy: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The frame turned `degrees` CCW about its centre, and the boxes around the turned tiles."""
    height, width = frame.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    turned = cv2.warpAffine(frame, matrix, (width, height), flags=cv2.INTER_NEAREST, borderValue=(TABLE,) * 3)
    corners = np.stack([xyxy[:, [0, 1]], xyxy[:, [2, 1]], xyxy[:, [2, 3]], xyxy[:, [0, 3]]], axis=1)
    moved = corners @ matrix[:, :2].T + matrix[:, 2]
    return turned, np.concatenate([moved.min(axis=1), moved.max(axis=1)], axis=1)


@pytest.mark.parametrize("degrees", [40.0, -35.0, 60.0])
def test_sloping_rack_found_in_a_turned_view(degrees: float) -> None:
    """A rack whose tiers slope (seen from a corner of the table): its tiles lean with it."""
    back = tier_boxes(5, 300, 250)
    front = tier_boxes(5, 300, 250 + 0.7 * TILE_H)
    xyxy = np.array(back + front, float)
    frame, boxes = turned_scene(painted_frame(front + back, bar_under=front), xyxy, degrees)
    racks = find_racks(boxes, np.full(10, degrees), frame)
    assert len(racks) == 1 and sorted(racks[0]) == list(range(10))
    assert sorted(racks[0][:5]) == [0, 1, 2, 3, 4]


def test_sloping_table_rows_on_a_dark_table_are_no_rack() -> None:
    """Rows seen from low down, turned: boxes 0.9 apart (the tiles' sides show), dark table between them.

    The band behind the middle row falls on the row behind it, bright; the table in front is dark.
    """
    rows = [tier_boxes(5, 300, 200 + k * 0.9 * TILE_H) for k in range(3)]
    xyxy = np.array([box for row in rows for box in row], float)
    faces = [[x1, y1, x2, y1 + 0.75 * (y2 - y1)] for x1, y1, x2, y2 in xyxy.tolist()]
    frame = painted_frame(faces, table=BAR + 20)
    turned, boxes = turned_scene(frame, xyxy, 30.0)
    assert find_racks(boxes, np.full(15, 30.0), turned) == []


@pytest.mark.parametrize("lip, rack", [((60, 60, 60), True), ((36, 63, 99), False)])
def test_lip_as_dark_as_a_wooden_table_told_by_its_hue(lip: tuple[int, int, int], rack: bool) -> None:
    """A grey rack on brown wood is a rack; a brown band as dark (the table in a row's shadow) is not."""
    xyxy, back, front = small_rack()
    wood = (40, 70, 110)  # BGR, grey level 73: the grey lip (60) is not 0.8 of it
    frame = np.empty((600, 800, 3), np.uint8)
    frame[:] = wood
    for x1, y1, x2, y2 in front:
        frame[int(y2):int(y2 + 0.25 * (y2 - y1)), int(x1) - 2:int(x2) + 2] = lip
    for x1, y1, x2, y2 in front + back:
        frame[int(y1):int(y2), int(x1):int(x2)] = FACE
    assert (find_racks(xyxy, np.zeros(6), frame) == [[0, 1, 2, 3, 4, 5]]) == rack


def test_tier_carried_on_past_a_cup_in_front_of_it() -> None:
    """Three slots of the front tier hidden (a cup): the two tiles past it still stand on the rack."""
    step = TILE_W + 3
    back = [[300 + k * step, 250, 300 + k * step + TILE_W, 250 + TILE_H] for k in range(10)]
    top = 250 + 0.7 * TILE_H
    front = [[300 + k * step, top, 300 + k * step + TILE_W, top + TILE_H] for k in (0, 1, 5, 6, 7, 8, 9)]
    xyxy = np.array(back + front, float)
    frame = painted_frame(front + back, bar_under=front)
    racks = find_racks(xyxy, np.zeros(17), frame)
    assert len(racks) == 1 and sorted(racks[0]) == list(range(17))


def test_sloping_racks_side_by_side_stay_apart() -> None:
    """Two racks end to end (two slots apart), turned: each tier looks carried on by the other rack's."""
    step = TILE_W + 1
    boxes, bars = [], []
    for first, drop in ((0, 0.0), (8, 0.15 * TILE_H)):
        top = 250 + drop
        back = [[300 + k * step, top, 300 + k * step + TILE_W, top + TILE_H] for k in range(first, first + 6)]
        front = [[x1 + 0.5 * step, y1 + 0.7 * TILE_H, x2 + 0.5 * step, y2 + 0.7 * TILE_H]
                 for x1, y1, x2, y2 in back]
        boxes += back + front
        bars += front
    xyxy = np.array(boxes, float)
    frame, turned = turned_scene(painted_frame(boxes, bar_under=bars), xyxy, 30.0)
    racks = find_racks(turned, np.full(24, 30.0), frame)
    assert sorted(sorted(rack) for rack in racks) == [list(range(12)), list(range(12, 24))]


def slot_boxes(slots: list[float], top: float) -> list[list[float]]:
    """Boxes of upright tiles in these slots (a slot a tile width and a pixel wide) of a tier at `top`."""
    return [[300 + k * (TILE_W + 1), top, 300 + k * (TILE_W + 1) + TILE_W, top + TILE_H] for k in slots]


def test_small_rack_with_a_tile_under_an_empty_slot() -> None:
    """Back tier in slots 0, 2, 3; front tier in slots 0, 1: the front tile in slot 1 has none behind it."""
    back, front = slot_boxes([0, 2, 3], 250), slot_boxes([0, 1], 250 + 0.7 * TILE_H)
    xyxy = np.array(back + front, float)
    racks = find_racks(xyxy, np.zeros(5), painted_frame(back + front, bar_under=front))
    assert len(racks) == 1 and sorted(racks[0]) == list(range(5))



def test_tiers_with_no_tile_in_step_have_no_offset() -> None:
    """Lines whose tiles all stand over the other's gaps (slots 0, 2, 4 and 1, 3) share no slot at all."""
    xyxy = np.array(slot_boxes([0, 2, 4], 250) + slot_boxes([1, 3], 250 + 0.7 * TILE_H), float)
    centers, size = (xyxy[:, :2] + xyxy[:, 2:]) / 2, xyxy[:, 2:] - xyxy[:, :2]
    assert _tier_offset(centers, size, size[:, 1], [0, 1, 2], [3, 4]) is None


def test_rack_read_as_found_whatever_way_up_its_tiles_stand() -> None:
    """Most tiles stood upside down: the rack still reads back tier first, left to right."""
    xyxy, back, front = small_rack()
    angles = np.array([180.0, 180.0, 0.0, 180.0, 0.0, 180.0])
    assert find_racks(xyxy, angles, painted_frame(front + back, bar_under=front)) == [[0, 1, 2, 3, 4, 5]]


def test_lying_tiles_past_a_rack_end_stay_off_it() -> None:
    """Tiles lying on the table in line with the front tier, two slots past its end, look squatter."""
    back, front = slot_boxes([0, 1, 2, 3], 250), slot_boxes([0, 1, 2, 3], 250 + 0.7 * TILE_H)
    middle = 250 + 1.2 * TILE_H
    lying = [[x1, middle - 0.33 * TILE_H, x2, middle + 0.33 * TILE_H]
             for x1, _, x2, _ in slot_boxes([6, 7, 8], 0)]
    xyxy = np.array(back + front + lying, float)
    racks = find_racks(xyxy, np.zeros(11), painted_frame(back + front + lying, bar_under=front))
    assert len(racks) == 1 and sorted(racks[0]) == list(range(8))


@pytest.mark.parametrize("table, rack", [(TABLE, True), (BAR + 15, False)])
def test_one_tier_rack_with_its_empty_back_showing(table: int, rack: bool) -> None:
    """Above a lone front tier the rack's empty back shows, as dark as its lip; on a dark table, no rack."""
    front = tier_boxes(6, 300, 300)
    frame = painted_frame(front, bar_under=front, table=table)
    frame[int(300 - 0.6 * TILE_H):300, 298:int(300 + 6 * (TILE_W + 1) + 2)] = BAR  # the back wall
    found = find_racks(np.array(front, float), np.zeros(6), frame)
    assert found == ([list(range(6))] if rack else [])


@pytest.mark.parametrize(("back_angles", "rack"), [((28.0, 30.0, 32.0), True), ((30.0, 0.0, 30.0), False)])
def test_tiers_leaning_alike_may_lean_further(back_angles: tuple[float, ...], rack: bool) -> None:
    """Tiles leaning 30 degrees count as standing where the lean is steady along each tier, not askew rows."""
    xyxy, back, front = small_rack()
    angles = np.array([*back_angles, 30.0, 31.0, 32.0])
    frame = painted_frame(front + back, bar_under=front)
    assert find_racks(xyxy, angles, frame) == ([[0, 1, 2, 3, 4, 5]] if rack else [])


def test_tiers_drawing_apart_towards_the_near_end_still_pair() -> None:
    """Slots 0.8 to 1.05 tile heights apart (perspective) pair 0.9 apart; rows a tile height apart do not."""
    upper = tier_boxes(5, 300, 200)
    lower = [[x1, y1 + dy * TILE_H, x2, y2 + dy * TILE_H]
             for (x1, y1, x2, y2), dy in zip(upper, (0.8, 0.85, 0.9, 1.0, 1.05), strict=True)]
    xyxy = np.array(upper + lower, float)
    centers, size = (xyxy[:, :2] + xyxy[:, 2:]) / 2, xyxy[:, 2:] - xyxy[:, :2]
    offset = _tier_offset(centers, size, size[:, 1], [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], 0.95)
    assert offset == pytest.approx(0.9)
    touching = np.array(upper + tier_boxes(5, 300, 200 + 1.02 * TILE_H), float)
    centers, size = (touching[:, :2] + touching[:, 2:]) / 2, touching[:, 2:] - touching[:, :2]
    assert _tier_offset(centers, size, size[:, 1], [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], 0.95) is None


def test_front_tier_of_two_reaching_past_the_back_tier() -> None:
    """Back tier in slots 0-3, front tier of two half a slot along (perspective), one tile past the end."""
    back = slot_boxes([0, 1, 2, 3], 200)
    front = slot_boxes([2.55, 3.55], 200 + 0.7 * TILE_H)
    xyxy = np.array(back + front, float)
    frame = painted_frame(back + front, bar_under=front)
    assert find_racks(xyxy, np.zeros(6), frame) == [[0, 1, 2, 3, 4, 5]]


def test_lines_leaning_apart_slot_by_slot_are_no_tiers() -> None:
    """A row lying behind a rack's tier at its own angle (20 degrees off the tier's) is no back tier."""
    xyxy, back, front = small_rack()
    frame = painted_frame(front + back, bar_under=front)
    assert find_racks(xyxy, np.array([20.0, 20.0, 20.0, -2.0, 0.0, 2.0]), frame) == []
    assert find_racks(xyxy, np.array([4.0, 6.0, 8.0, -2.0, 0.0, 2.0]), frame) == [[0, 1, 2, 3, 4, 5]]


def sloping_line(first_center: tuple[float, float], count: int, step: float,
                 slope: float) -> list[list[float]]:
    """Boxes of `count` tiles `step` apart along a line of this slope (dy/dx), the first centred there."""
    x0, y0 = first_center
    return [[x0 + k * step - TILE_W / 2, y0 + k * step * slope - TILE_H / 2,
             x0 + k * step + TILE_W / 2, y0 + k * step * slope + TILE_H / 2] for k in range(count)]


@pytest.mark.parametrize(("gap_slots", "split"), [(2.0, True), (0.8, False)])
def test_line_bent_across_an_empty_stretch_split_in_two(gap_slots: float, split: bool) -> None:
    """One rack's front tier runs on into the next rack's back tier (further back) across the gap between."""
    step = TILE_W + 1
    first = sloping_line((100, 300), 6, step, 0.35)
    start = (100 + (5 + gap_slots + 1) * step, 300 + 5 * step * 0.35)
    xyxy = np.array(first + sloping_line(start, 5, step, 0.35), float)
    centers, size = (xyxy[:, :2] + xyxy[:, 2:]) / 2, xyxy[:, 2:] - xyxy[:, :2]
    line = list(range(11))
    assert _split_at_bend(line, centers, size) == ([line[:6], line[6:]] if split else [line])
    straight = np.array(first + sloping_line((start[0], 300 + start[0] * 0.35 - 100 * 0.35), 5, step, 0.35))
    centers = (straight[:, :2] + straight[:, 2:]) / 2
    assert _split_at_bend(line, centers, size) == [line]


def test_no_tiles_no_racks_with_or_without_the_frame() -> None:
    frame = np.full((200, 300, 3), 120, np.uint8)
    assert find_racks(np.zeros((0, 4)), np.zeros(0), frame) == []
    assert find_racks(np.zeros((0, 4)), np.zeros(0), None) == []
    assert find_racks(np.array([[10.0, 10.0, 40.0, 50.0]]), np.zeros(1), frame) == []
