"""The app's helpers: photo checks, layout text with `?`, put-back instructions, turn timer, standings."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from assistant.errors import InputError
from assistant.rules import find_preset
from assistant.storage import RoundRecord, RoundScore
from assistant.tiles import NotationError, Tile, parse_layout
from assistant.turn import judge_turn
from ui import helpers as support


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image)[1].tobytes()


def test_decode_photo_reads_a_jpeg() -> None:
    image = np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8)
    assert support.decode_photo(_jpeg(image)).shape == (120, 160, 3)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "is empty"),
        (b"GIF? no, plain text", "is not a picture"),
        (b"\x89PNG\r\n\x1a\n" + bytes(100), "damaged"),
        (b"\xff\xd8\xff" + bytes(support.MAX_PHOTO_BYTES), "MB"),
        (_jpeg(np.full((100, 100, 3), 40, np.uint8)), "blank frame"),
        (_jpeg(np.random.default_rng(1).integers(0, 255, (20, 20, 3), dtype=np.uint8)), "too small"),
    ],
)
def test_decode_photo_refuses_bad_input_with_a_message(data: bytes, message: str) -> None:
    with pytest.raises(support.PhotoError, match=message):
        support.decode_photo(data, "the photo")


@pytest.mark.parametrize("text", ["r1 r2 ? | k5 b5 o5", "J r5 r6", "", "? ? ?"])
def test_slots_round_trip(text: str) -> None:
    assert support.format_slots(support.parse_slots(text)) == text


def test_slots_without_question_marks_agree_with_the_contract_parser() -> None:
    text = "r1 r2 r3 | k5, b5 o5\nJ o7 o8"
    assert support.parse_slots(text) == parse_layout(text)


def test_bad_token_is_a_notation_error_naming_it() -> None:
    with pytest.raises(NotationError, match="x9"):
        support.parse_slots("r1 x9")


def test_known_sets_refuses_unread_tiles() -> None:
    with pytest.raises(InputError, match="2 tile"):
        support.known_sets(support.parse_slots("r1 ? ? | k1 k2 k3"))


def test_replace_and_remove_a_tile() -> None:
    assert support.replace_slot("r1 ? r3 | k1", 0, 1, Tile.parse("r2")) == "r1 r2 r3 | k1"
    assert support.replace_slot("r1 r2 r3 | k1", 1, 0, None) == "r1 r2 r3"
    with pytest.raises(InputError, match="no tile 4 in set 1"):
        support.replace_slot("r1 r2 r3", 0, 3, None)


def test_put_back_undoes_a_turn() -> None:
    before = parse_layout("r10 r11 r12 | k7 b7 o7")
    after = parse_layout("r10 r11 r12 r13 | k7 b7 | o7 o8")
    fix = support.put_back(before, after)
    assert [str(t) for t in fix.to_rack] == ["r13", "o8"]
    assert fix.lines() == [
        "Take back to the rack: r13 o8",
        "Take apart: r10 r11 r12 r13",
        "Take apart: k7 b7",
        "Take apart: o7 o8",
        "Put back as it was: r10 r11 r12",
        "Put back as it was: k7 b7 o7",
    ]
    assert support.put_back(before, before).lines() == ["The table is already as it was."]


def test_new_sets_are_those_not_on_the_agreed_table() -> None:
    agreed = support.parse_slots("r1 r2 r3 | k5 b5 o5")
    now = support.parse_slots("k5 b5 o5 | r1 r2 r3 | J k9 k10 | r1 r2 r3")
    assert support.new_set_indexes(agreed, now) == [2, 3]


@pytest.mark.parametrize(
    "preset, seconds, legal, penalty",
    [("standard", 500, True, 0), ("tournament", 59, True, 0), ("tournament", 61, False, 3)],
)
def test_turn_timer(preset: str, seconds: float, legal: bool, penalty: int) -> None:
    rules = find_preset(preset)
    verdict = judge_turn([], parse_layout("r10 r11 r12"), parse_layout("r10 r11 r12")[0], False, rules)
    assert verdict.legal
    judged = support.judge_time(verdict, 1000.0, 1000.0 + seconds, rules)
    assert (judged.legal, judged.penalty_tiles) == (legal, penalty)
    assert any("time is up: 61 s used, 60 s allowed" == r for r in judged.reasons) == (not legal)


def test_an_illegal_turn_keeps_the_engine_reasons_and_penalty() -> None:
    rules = find_preset("standard")
    verdict = judge_turn([], parse_layout("r1 r2"), parse_layout("r1 r2")[0], False, rules)
    judged = support.judge_time(verdict, 0.0, 10.0, rules)
    assert not judged.legal and judged.penalty_tiles == 1
    assert judged.reasons == tuple(r.text for r in verdict.reasons)


def _round(number: int, scores: dict[str, int], winner: str) -> RoundRecord:
    return RoundRecord(
        number=number,
        blocked=False,
        created_at=0.0,
        scores=tuple(
            RoundScore(seat, name, "", max(0, -score), score, name == winner)
            for seat, (name, score) in enumerate(scores.items())
        ),
    )


def test_standings_and_running_totals() -> None:
    rounds = [_round(1, {"Ann": 20, "Ben": -20}, "Ann"), _round(2, {"Ann": -30, "Ben": 30}, "Ben")]
    assert support.running_totals(rounds, ["Ann", "Ben"]) == {
        "round": [1, 2],
        "Ann": [20, -10],
        "Ben": [-20, 10],
    }
    rows = support.standings_rows(rounds, ["Ann", "Ben"], find_preset("standard"))
    assert [(r["place"], r["player"], r["total"], r["games won"]) for r in rows] == [
        (1, "Ben", 10, 1),
        (2, "Ann", -10, 1),
    ]


def test_annotate_boxes_sets_by_verdict() -> None:
    from vision.detections import Detections
    from vision.layout import rebuild

    frame = np.full((200, 400, 3), 90, np.uint8)
    boxes = [[40 + i * 43, 60, 80 + i * 43, 116] for i in range(3)]
    detections = Detections(xyxy=np.array(boxes, np.float32), confidence=np.full(3, 0.9, np.float32))
    reading = support.PhotoReading(frame=frame, layout=rebuild(detections, image_size=(400, 200)))
    assert reading.table_text == "? ? ?"
    valid = support.annotate(reading, [True])
    invalid = support.annotate(reading, [False])
    assert valid.shape == frame.shape and not np.array_equal(valid, invalid)
    assert np.array_equal(frame, np.full((200, 400, 3), 90, np.uint8))  # the photo itself is not drawn on


def test_live_overlay_returns_the_frame_when_reading_fails() -> None:
    frame = np.zeros((50, 50, 3), np.uint8)
    broken = SimpleNamespace(read=lambda image: 1 / 0)
    assert support.live_overlay(frame, broken, find_preset("standard")) is frame


def test_latest_frame_hands_over_the_newest_frame_as_jpeg() -> None:
    latest = support.LatestFrame()
    assert latest.jpeg() is None
    for value in (10, 200):
        latest.put(np.full((40, 60, 3), value, np.uint8))
    decoded = cv2.imdecode(np.frombuffer(latest.jpeg() or b"", np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == (40, 60, 3) and abs(int(decoded.mean()) - 200) <= 2
