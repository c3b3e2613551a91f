"""The screens' helpers: put-back instructions, new sets of a meld, the turn timer, standings."""

from __future__ import annotations

import pytest

from assistant import slots
from assistant.errors import InputError
from assistant.rules import find_preset
from assistant.storage import RoundRecord, RoundScore
from assistant.tiles import Tile, parse_layout
from assistant.turn import judge_turn
from ui import helpers


def test_put_back_undoes_a_turn() -> None:
    before = parse_layout("r10 r11 r12 | k7 b7 o7")
    after = parse_layout("r10 r11 r12 r13 | k7 b7 | o7 o8")
    fix = helpers.put_back(before, after)
    assert [str(t) for t in fix.to_rack] == ["r13", "o8"]
    assert fix.lines() == [
        "Take back to the rack: r13 o8",
        "Take apart: r10 r11 r12 r13",
        "Take apart: k7 b7",
        "Take apart: o7 o8",
        "Put back as it was: r10 r11 r12",
        "Put back as it was: k7 b7 o7",
    ]
    assert helpers.put_back(before, before).lines() == ["The table is already as it was."]


def test_new_sets_are_those_not_on_the_agreed_table() -> None:
    agreed = slots.parse_slots("r1 r2 r3 | k5 b5 o5")
    now = slots.parse_slots("k5 b5 o5 | r1 r2 r3 | J k9 k10 | r1 r2 r3")
    assert helpers.new_set_indexes(agreed, now) == [2, 3]


@pytest.mark.parametrize(
    "preset, seconds, legal, penalty",
    [("standard", 500, True, 0), ("tournament", 59, True, 0), ("tournament", 61, False, 3)],
)
def test_turn_timer(preset: str, seconds: float, legal: bool, penalty: int) -> None:
    rules = find_preset(preset)
    verdict = judge_turn([], parse_layout("r10 r11 r12"), parse_layout("r10 r11 r12")[0], False, rules)
    assert verdict.legal
    judged = helpers.judge_time(verdict, 1000.0, 1000.0 + seconds, rules)
    assert (judged.legal, judged.penalty_tiles) == (legal, penalty)
    assert any("time is up: 61 s used, 60 s allowed" == r for r in judged.reasons) == (not legal)


def test_an_illegal_turn_keeps_the_engine_reasons_and_penalty() -> None:
    rules = find_preset("standard")
    verdict = judge_turn([], parse_layout("r1 r2"), parse_layout("r1 r2")[0], False, rules)
    judged = helpers.judge_time(verdict, 0.0, 10.0, rules)
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
    assert helpers.running_totals(rounds, ["Ann", "Ben"]) == {
        "round": [1, 2],
        "Ann": [20, -10],
        "Ben": [-20, 10],
    }
    rows = helpers.standings_rows(rounds, ["Ann", "Ben"], find_preset("standard"))
    assert [(r["place"], r["player"], r["total"], r["games won"]) for r in rows] == [
        (1, "Ben", 10, 1),
        (2, "Ann", -10, 1),
    ]


# The server's database setting ------------------------------------------------------------------------------


def test_the_database_comes_from_the_command_line_first() -> None:
    environ = {"RUMMI_DB": "/srv/env.sqlite3", "HOME": "/home/x"}
    secrets = {"db": "/srv/secret.sqlite3"}
    chosen = helpers.database_setting(["--db", "/srv/cli.sqlite3"], environ, secrets)
    assert (chosen.target, chosen.source) == ("/srv/cli.sqlite3", "the --db option")
    assert helpers.database_setting([], environ, secrets).target == "/srv/env.sqlite3"
    assert helpers.database_setting([], {"HOME": "/home/x"}, secrets).target == "/srv/secret.sqlite3"
    default = helpers.database_setting(["-q", "tests"], {"HOME": "/home/x"}, {})
    assert default.source == "the default" and default.target.endswith(".sqlite3")


def test_a_database_url_is_kept_and_shown_without_its_password() -> None:
    hall = helpers.database_setting(["--db", "postgresql://ref:secret@hall/cup"], {}, {})
    assert hall.target == "postgresql://ref:secret@hall/cup"
    assert "secret" not in hall.display and "hall/cup" in hall.display
    assert helpers.database_setting(["--db", "~/club.sqlite3"], {"HOME": "/home/x"}, {}).target.endswith(
        "/club.sqlite3"
    )
    with pytest.raises(InputError, match="--db"):
        helpers.database_setting(["--db"], {}, {})


@pytest.mark.parametrize(
    "layout, photo, key, chosen, expected",
    [
        ("", "", "example:1", False, True),  # a game never filled: the example fills it
        ("r1 r2 r3", "upload:9", "example:1", False, False),  # a reload after an upload: kept
        ("r1 r2 r3", "", "example:1", False, False),  # typed: kept
        ("r1 r2 r3", "example:1", "example:1", False, True),  # the stored table's own photo, to show
        ("r1 r2 r3", "upload:9", "example:1", True, True),  # the player chose the example
    ],
)
def test_photo_may_replace_table(layout: str, photo: str, key: str, chosen: bool, expected: bool) -> None:
    assert helpers.photo_may_replace_table(layout, photo, key, chosen) is expected


# Racks at the end of a round --------------------------------------------------------------------------------


def test_racks_still_to_enter() -> None:
    r5 = slots.parse_slots("r5")[0]
    assert helpers.racks_still_to_enter({"Ann": [], "Ben": []}).startswith("Type (or read")
    assert helpers.racks_still_to_enter({"Ann": r5, "Ben": [], "Cy": []}) == (
        "Still to enter: Ben, Cy (leave only the winner's rack blank)."
    )
    assert helpers.racks_still_to_enter({"Ann": r5, "Ben": [None]}) == (
        "Tap the unread tiles (?) of Ben and pick what they are."
    )
    assert helpers.racks_still_to_enter({"Ann": r5, "Ben": []}) is None


def test_assign_racks_goes_round_the_table_from_the_first() -> None:
    assert helpers.assign_racks(2, [0, 1, 2], 2) == ([2, 0], 0)
    assert helpers.assign_racks(4, [0, 1], 0) == ([0, 1], 2)


def test_replace_in_rack() -> None:
    assert helpers.replace_in_rack("r4 ? k1", 1, Tile.parse("r6")) == "r4 r6 k1"
    assert helpers.replace_in_rack("r4 r6", 0, None) == "r6"
    with pytest.raises(InputError):
        helpers.replace_in_rack("r4", 3, None)
    assert helpers.parse_rack("r1 | r2") == [Tile.parse("r1"), Tile.parse("r2")]


def test_running_total_rows_are_long_form() -> None:
    rounds = [
        RoundRecord(
            1, False, 0.0, (RoundScore(0, "Ann", "", 0, 5, True), RoundScore(1, "Ben", "r5", 5, -5, False))
        )
    ]
    assert helpers.running_total_rows(rounds, ["Ann", "Ben"]) == [
        {"round": 1, "player": "Ann", "total": 5},
        {"round": 1, "player": "Ben", "total": -5},
    ]


def test_meld_metric_never_shows_an_invalid_meld_as_enough() -> None:
    from assistant.meld import check_meld

    standard = find_preset("standard")
    meld = check_meld(parse_layout("r10 r11 r12 | k13 b13 o13 | r4 r5"), standard)
    assert meld.value >= meld.threshold
    invalid = helpers.MeldMetric("not valid", "a set breaks the rules", "red", "off")
    assert helpers.meld_metric(meld) == invalid
    two_broken = check_meld(parse_layout("r10 r11 r12 | r4 r5 | k1 b2 o3"), standard)
    assert helpers.meld_metric(two_broken).delta == "2 sets break the rules"
    enough = helpers.MeldMetric("33 / 30", "enough", "green", "up")
    assert helpers.meld_metric(check_meld(parse_layout("r10 r11 r12"), standard)) == enough
    short = helpers.MeldMetric("6 / 30", "24 short", "red", "down")
    assert helpers.meld_metric(check_meld(parse_layout("r1 r2 r3"), standard)) == short


def test_meld_lines_give_each_reason_once() -> None:
    from assistant.meld import check_meld

    meld = check_meld(parse_layout("r10 r11 r12 | r4 r5"), find_preset("standard"))
    lines = helpers.meld_lines(meld)
    assert sum("only 2 tiles" in line for line in lines) == 1
    assert len(lines) == 2


def test_phone_address_and_camera_rule() -> None:
    assert helpers.phone_url(True, "192.168.1.20", 8501) == "https://192.168.1.20:8501"
    assert helpers.camera_blocked("http://192.168.1.20:8501/?game=1")
    assert not helpers.camera_blocked("https://192.168.1.20:8501/")
    assert not helpers.camera_blocked("http://localhost:8501/")
    png = helpers.qr_png("https://192.168.1.20:8501")
    assert png.startswith(b"\x89PNG")
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(cv2.resize(image, None, fx=2, fy=2))
    assert text == "https://192.168.1.20:8501"


def test_a_big_picture_is_shown_at_screen_size() -> None:
    import numpy as np

    assert helpers.fit_for_screen(np.zeros((3024, 4032, 3), np.uint8)).shape == (1200, 1600, 3)
    assert helpers.fit_for_screen(np.zeros((480, 640, 3), np.uint8)).shape == (480, 640, 3)
