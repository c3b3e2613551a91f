"""Stability over video: the vote keeps tiles through a passing hand and a one-frame misread."""

from __future__ import annotations

import numpy as np
from layout_scenes import SceneBuilder

from assistant.tiles import format_layout
from vision.tracking import SettleWatch, TableTracker, TileVote


def table() -> SceneBuilder:
    b = SceneBuilder()
    b.row("r1 r2 r3", (100, 100), 0)
    b.row("k9 b9 o9", (300, 100), 0)
    return b


def jitter(b: SceneBuilder, rng: np.random.Generator):
    det = b.detections()
    det.xyxy += rng.normal(0, 1.0, size=(len(det), 1)).astype(np.float32)
    return det


def test_hand_hiding_tiles_for_a_few_frames_does_not_remove_them() -> None:
    rng = np.random.default_rng(0)
    vote = TileVote(window=8)
    for _ in range(6):
        vote.update(jitter(table(), rng))
    hidden = jitter(table(), rng)[np.array([0, 1, 2])]  # the hand covers the second set
    for _ in range(3):
        voted = vote.update(hidden)
    assert len(voted) == 6
    assert not vote.last_all_seen


def test_tiles_gone_for_long_leave_the_vote() -> None:
    vote = TileVote(window=6)
    for _ in range(6):
        vote.update(table().detections())
    for _ in range(6):
        voted = vote.update(table().detections()[np.array([0, 1, 2])])
    assert len(voted) == 3


def test_a_one_frame_misread_is_outvoted() -> None:
    tracker = TableTracker(window=8, settle_frames=3)
    for _ in range(5):
        tracker.update(table().detections())
    misread = table()
    misread.tokens[1] = "r7"
    frame = tracker.update(misread.detections())
    assert format_layout(frame.layout.table_tiles()) == "r1 r2 r3 | k9 b9 o9"


def test_settled_after_n_unchanged_frames_and_not_while_hidden() -> None:
    tracker = TableTracker(window=8, settle_frames=4)
    states = [tracker.update(table().detections()) for _ in range(5)]
    assert [s.settled for s in states] == [False, False, False, True, True]
    assert [s.just_settled for s in states] == [False, False, False, True, False]
    hidden = tracker.update(table().detections()[np.array([0, 1, 2, 3])])
    assert not hidden.settled
    again = [tracker.update(table().detections()) for _ in range(4)]
    assert [s.settled for s in again] == [False, False, False, True]


def test_settle_watch_resets_on_change() -> None:
    watch = SettleWatch(frames=2)
    assert [watch.update(x) for x in ("a", "a", "b", "b", "b")] == [False, True, False, True, True]
    watch.reset()
    assert not watch.settled


def test_the_stable_view_keeps_the_racks_the_detector_found() -> None:
    import dataclasses

    tracker = TableTracker(window=8, settle_frames=3)
    # The second set (boxes 285..377 x 80..120) stands on a rack the detector boxed.
    rack = np.array([[280, 70, 385, 140]], np.float32)
    for _ in range(4):
        det = table().detections()
        frame = tracker.update(dataclasses.replace(det, rack_xyxy=rack, rack_confidence=np.array([0.8])))
    assert frame.detections.rack_xyxy is not None and frame.detections.rack_xyxy.tolist() == rack.tolist()
    assert format_layout(frame.layout.table_tiles()) == "r1 r2 r3"
    assert [[t.token for t in r] for r in frame.layout.racks] == [["k9", "b9", "o9"]]
