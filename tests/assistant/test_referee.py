"""The referee's judgement of whole games from the table alone (CONTRACT.md `watch`)."""

from __future__ import annotations

import pytest

from assistant.referee import PUT_BACK, Call, Referee, RefereeError, SeenTile, seen_table
from assistant.rules import find_preset
from assistant.tiles import Tile, parse_layout, parse_tiles

T = Tile.parse


def table(text: str) -> list[list[SeenTile]]:
    return seen_table(parse_layout(text)) if text else []


def tokens(tiles: tuple[Tile, ...]) -> list[str]:
    return [str(t) for t in tiles]


def test_the_first_settled_table_is_the_start_not_a_turn() -> None:
    referee = Referee(players=2)
    assert referee.observe(table("")) is None
    assert referee.history == []
    assert referee.seat == 1


def test_seats_play_in_order_and_a_legal_opening_passes_the_turn() -> None:
    referee = Referee(players=3, first_seat=2)
    referee.observe(table(""))
    call = referee.observe(table("r10 r11 r12"), time_s=4.0, frame=40)
    assert call is not None
    assert (call.turn, call.seat, call.action, call.legal) == (1, 2, "play", True)
    assert tokens(call.added) == ["r10", "r11", "r12"] and call.removed == ()
    assert (call.time_s, call.frame) == (4.0, 40)
    assert referee.seat == 3


def test_the_same_sets_straightened_or_listed_in_another_order_are_no_turn() -> None:
    referee = Referee()
    referee.observe(table(""))
    referee.observe(table("k10 k11 k12 | b13 r13 o13"))
    assert referee.observe(table("o13 r13 b13 | k10 k11 k12")) is None
    assert len(referee.history) == 1 and referee.seat == 2


# 000_*.txt section 3: the opening meld is worth 30 points or more, from the rack alone.
def test_an_opening_under_the_threshold_is_illegal_and_stays_the_seats_turn_until_put_back() -> None:
    referee = Referee(rules=find_preset("standard"))
    referee.observe(table(""))
    bad = referee.observe(table("r1 r2 r3"))
    assert bad is not None and not bad.legal and bad.seat == 1
    assert any("worth 6 points" in r for r in bad.reasons)
    assert referee.seat == 1
    back = referee.observe(table(""))
    assert back is not None
    assert (back.action, back.legal, back.seat) == (PUT_BACK, True, 1)
    assert tokens(back.removed) == ["r1", "r2", "r3"] and back.added == ()
    assert back.penalty_tiles == 1 and "penalty" in back.reasons[0]
    assert referee.seat == 2
    assert 1 not in referee.opened


def test_a_house_rule_penalty_is_said_when_the_table_is_put_back() -> None:
    referee = Referee(rules=find_preset("standard+failed-move-penalty"))
    referee.observe(table("k1 k2 k3"))
    referee.observe(table("k1 k2 k3 | r5 r6"))
    back = referee.observe(table("k1 k2 k3"))
    assert back is not None and back.penalty_tiles == 3 and "3 penalty tiles" in back.reasons[0]


def test_an_illegal_turn_mended_into_a_legal_table_is_judged_as_the_turn() -> None:
    referee = Referee()
    referee.observe(table(""))
    bad = referee.observe(table("r10 r11 r12 | k5 k6"))
    assert bad is not None and not bad.legal
    assert any("set 2 (k5 k6)" in r for r in bad.reasons)
    mended = referee.observe(table("r10 r11 r12 | k5 k6 k7"))
    assert mended is not None and mended.legal and mended.action == "play" and mended.seat == 1
    assert tokens(mended.added) == ["k7"]  # against the table at the previous call
    assert referee.seat == 2


def test_a_tile_taken_off_the_table_is_named() -> None:
    referee = Referee()
    referee.observe(table("k10 k11 k12 k13 | b9 b10 b11"))
    call = referee.observe(table("k10 k11 k12 | b9 b10 b11 | r1 r2 r3"))
    assert call is not None and not call.legal
    assert any("black 13 was taken off the table" in r for r in call.reasons)
    assert tokens(call.removed) == ["k13"]


# 000_*.txt section 4: a joker retrieved from the table must be played in the same turn.
def test_a_joker_taken_must_be_used_on_the_table_unless_the_gentle_joker_rule_is_played() -> None:
    start, after = "r5 J r7 | b1 b2 b3", "r5 r6 r7 | b1 b2 b3"
    strict = Referee()
    strict.observe(table(start))
    call = strict.observe(table(after))
    assert call is not None and not call.legal and any("joker" in r for r in call.reasons)
    gentle = Referee(rules=find_preset("standard+gentle-joker"))
    gentle.observe(table(start))
    call = gentle.observe(table(after))
    assert call is not None and call.legal
    reused = Referee()
    reused.observe(table(start))
    call = reused.observe(table("r5 r6 r7 | b1 b2 b3 J"))
    assert call is not None and call.legal


def test_a_first_play_that_changes_old_sets_is_illegal_and_a_later_one_is_fine() -> None:
    referee = Referee(players=2)
    referee.observe(table(""))
    assert referee.observe(table("k10 k11 k12")).legal  # seat 1 opens
    call = referee.observe(table("k9 k10 k11 k12"))  # seat 2 has not opened
    assert call is not None and not call.legal and any("before the opening meld" in r for r in call.reasons)
    referee.observe(table("k10 k11 k12"))  # put back
    assert referee.seat == 1
    call = referee.observe(table("k9 k10 k11 k12"))  # seat 1 has opened
    assert call is not None and call.legal


def test_a_game_under_way_at_the_start_counts_every_seat_as_opened() -> None:
    referee = Referee(players=2)
    referee.observe(table("k10 k11 k12"))
    call = referee.observe(table("k9 k10 k11 k12"))
    assert call is not None and call.legal


def test_more_copies_than_the_edition_has_is_illegal() -> None:
    referee = Referee()
    referee.observe(table("r5 b5 k5 | r5 o5 b5"))
    call = referee.observe(table("r5 b5 k5 | r5 o5 b5 | r5 r6 r7"))
    assert call is not None and not call.legal
    assert any("3 red 5s" in r for r in call.reasons)


def test_the_same_tiles_grouped_otherwise_are_no_turn() -> None:
    # Sets are told apart by gaps of a few millimetres: a straightened row read as two sets is no turn
    # (a rearrangement that adds no tile goes unsaid: docs/cli.md, `watch`).
    referee = Referee()
    referee.observe(table("r3 r4 r5 r6 r7 r8"))
    assert referee.observe(table("r3 r4 r5 | r6 r7 r8")) is None
    assert referee.history == []


def test_a_table_put_back_with_its_tiles_grouped_otherwise_is_put_back() -> None:
    referee = Referee()
    referee.observe(table("r3 r4 r5 r6 r7 r8"))
    referee.observe(table("r3 r4 r5 r6 r7 r8 | k1 k2"))
    back = referee.observe(table("r3 r4 r5 | r6 r7 r8"))
    assert back is not None and back.action == PUT_BACK and back.legal


def doubtful(token: str, confidence: float, *alternatives: tuple[str, float]) -> SeenTile:
    return SeenTile(T(token), confidence, tuple((T(a), s) for a, s in alternatives))


def test_a_doubtful_reading_that_would_make_a_turn_illegal_is_read_as_its_legal_runner_up() -> None:
    referee = Referee()
    referee.observe(table(""))
    seen = [[SeenTile(T("r10")), SeenTile(T("r11")), doubtful("k12", 0.55, ("r12", 0.4))]]
    call = referee.observe(seen)
    assert call is not None and call.legal
    assert tokens(call.added) == ["r10", "r11", "r12"]
    assert call.unsure and "k12" in call.unsure[0] and "r12" in call.unsure[0]


def test_a_sure_reading_is_not_excused_by_a_faint_runner_up() -> None:
    referee = Referee()
    referee.observe(table(""))
    seen = [[SeenTile(T("r10")), SeenTile(T("r11")), doubtful("k12", 0.97, ("r12", 0.02))]]
    call = referee.observe(seen)
    assert call is not None and not call.legal


def test_a_tile_that_was_on_the_table_read_with_doubt_is_not_an_accusation() -> None:
    referee = Referee()
    referee.observe(table("k7 k8 k9"))
    # The old set's k7 now reads r7 with doubt: taken as k7, the table is as it was: no turn.
    seen = [[doubtful("r7", 0.6, ("k7", 0.35)), SeenTile(T("k8")), SeenTile(T("k9"))]]
    assert referee.observe(seen) is None
    assert referee.history == []


def test_an_illegal_turn_with_a_doubtful_added_tile_asks_to_check_it() -> None:
    referee = Referee()
    referee.observe(table(""))
    seen = [[SeenTile(T("r1")), SeenTile(T("r2")), doubtful("r3", 0.6, ("o3", 0.3))]]
    call = referee.observe(seen)
    assert call is not None and not call.legal
    assert call.unsure and "r3" in call.unsure[0]


def test_drew_passes_the_turn_and_is_refused_while_the_table_is_illegal() -> None:
    referee = Referee(players=2)
    referee.observe(table(""))
    call = referee.drew(time_s=3.0)
    assert (call.action, call.seat, referee.seat) == ("drew", 1, 2)
    referee.observe(table("r1 r2 r3"))
    with pytest.raises(RefereeError, match="put it back"):
        referee.drew()


def test_an_override_makes_a_wrong_call_right_and_the_game_goes_on_from_it() -> None:
    referee = Referee(players=2)
    referee.observe(table(""))
    referee.observe(table("r1 r2 r3"))
    assert referee.seat == 1
    fixed = referee.override(legal=True)
    assert fixed.legal and fixed.overridden and referee.seat == 2 and 1 in referee.opened
    undone = referee.override(legal=False)
    assert not undone.legal and referee.seat == 1 and referee.pending


def test_a_saved_game_resumes_where_it_stopped() -> None:
    referee = Referee(players=3)
    referee.observe(table(""))
    referee.observe(table("r10 r11 r12"))
    referee.observe(table("r10 r11 r12 | k1 k2"))
    saved = referee.to_json()
    resumed = Referee.from_json(saved)
    assert resumed.history == referee.history
    assert (resumed.seat, resumed.pending, resumed.opened) == (2, True, {1})
    back = resumed.observe(table("r10 r11 r12"))
    assert back is not None and back.action == PUT_BACK and resumed.seat == 3
    assert Call.from_json(back.to_json()) == back


BROKEN_STATE = {
    "players": 2, "first_seat": 1, "started": True, "state": {"seat": 1}, "states": [], "history": []
}


@pytest.mark.parametrize("saved", [{}, {"players": "two"}, BROKEN_STATE])
def test_an_unreadable_saved_game_is_a_clear_error(saved: dict) -> None:
    with pytest.raises(RefereeError, match="cannot be read"):
        Referee.from_json(saved)


def test_a_bad_seat_is_refused() -> None:
    with pytest.raises(RefereeError, match="first seat"):
        Referee(players=2, first_seat=3)


def test_the_call_in_the_contracts_json_shape() -> None:
    referee = Referee()
    referee.observe(table(""))
    call = referee.observe(table("o9 o10 o11 o12"), time_s=1.25, frame=5)
    data = call.to_json()
    assert {k: data[k] for k in ("turn", "seat", "time_s", "frame", "action", "added", "removed", "legal",
                                 "reasons", "table")} == {
        "turn": 1, "seat": 1, "time_s": 1.25, "frame": 5, "action": "play",
        "added": ["o9", "o10", "o11", "o12"], "removed": [], "legal": True, "reasons": [],
        "table": [["o9", "o10", "o11", "o12"]],
    }
    assert "Turn 1 · seat 1 · played o9 o10 o11 o12 · legal" == call.describe()
    assert parse_tiles("o9 o10") == [T("o9"), T("o10")]


def test_with_no_legal_reading_the_one_breaking_the_fewest_rules_is_taken() -> None:
    referee = Referee()
    referee.observe(table("b5 b6 b7 b8"))
    # b5 is taken off (illegal either way); the b6 left reads b5 with doubt. Read as b5 the run would also
    # have a gap and b6 would be the tile taken: one mistake is likelier than two.
    seen = [[doubtful("b5", 0.7, ("b8", 0.07), ("b6", 0.06)), SeenTile(T("b7")), SeenTile(T("b8"))]]
    call = referee.observe(seen)
    assert call is not None and not call.legal
    assert tokens(call.removed) == ["b5"]
    assert not any("gap" in r for r in call.reasons)
    assert referee.reading == ((T("b6"), T("b7"), T("b8")),)


def test_a_tile_taken_off_is_not_hidden_by_reading_still_tiles_as_rack_tiles_played() -> None:
    """Tuning games seed 1203 p3 and 1201 p3: a blue 10 taken off; k9 r9 beside it read k2 r2 (3 %), so the
    turn "played" two rack tiles (one breach fewer) and took three tiles off."""
    referee = Referee()
    referee.observe(table("b7 b8 b9 b10 | k9 r9 J | k2 b2 r2"))
    seen = [[SeenTile(T("b7")), SeenTile(T("b8")), SeenTile(T("b9"))],
            [doubtful("k9", 0.94, ("k2", 0.03)), doubtful("r9", 0.9, ("r2", 0.04)), SeenTile(T("J"))],
            [SeenTile(T("k2")), SeenTile(T("b2")), SeenTile(T("r2"))]]
    call = referee.observe(seen)
    assert call is not None and not call.legal
    assert tokens(call.removed) == ["b10"] and call.added == ()
    assert referee.reading[1] == (T("k9"), T("r9"), T("J"))


def test_a_tile_read_again_where_it_lies_is_no_tile_taken_and_the_call_says_so() -> None:
    referee = Referee()
    referee.observe(table("k8 b8 o8"))  # a red 8 read blue 8
    call = referee.observe(table("k8 r8 o8 | k11 k12 k13"), read_again=[(T("b8"), T("r8"))])
    assert call is not None and call.legal
    assert tokens(call.added) == ["k11", "k12", "k13"] and call.removed == ()
    assert any("read blue 8 before is red 8" in r for r in call.reasons)
    # Only as read now: with no read-again the blue 8 is taken off and a red 8 laid.
    other = Referee()
    other.observe(table("k8 b8 o8"))
    call = other.observe(table("k8 r8 o8 | k11 k12 k13"))
    assert call is not None and not call.legal and tokens(call.removed) == ["b8"]
    # A read-again names no tile the box has no copy of left: two red 8s lie there already.
    third = Referee()
    third.observe(table("k8 b8 o8 | r8 r9 r10 | r6 r7 r8"))
    call = third.observe(table("k8 r8 o8 | r8 r9 r10 | r6 r7 r8"), read_again=[(T("b8"), T("r8"))])
    assert call is not None and tokens(call.removed) == ["b8"]


@pytest.mark.parametrize(("preset", "players"), [("standard", 5), ("standard", 0), ("six-player", 7)])
def test_more_players_than_the_preset_allows_is_refused(preset: str, players: int) -> None:
    with pytest.raises(RefereeError, match="players"):
        Referee(rules=find_preset(preset), players=players)


def test_six_players_under_the_six_player_preset() -> None:
    assert Referee(rules=find_preset("six-player"), players=6, first_seat=6).seat == 6


def test_play_that_goes_on_beside_an_illegal_call_takes_it_for_a_misread() -> None:
    referee = Referee(players=2)
    referee.observe(table("k10 k11 k12"))
    wrong = referee.observe(table("k10 k11 k12 | r5 r6 b7"))  # b7 a misread r7
    assert wrong is not None and not wrong.legal and referee.seat == 1
    # Seat 2 plays beside it; the set called wrong lies as it was.
    call = referee.observe(table("k10 k11 k12 | r5 r6 b7 | o1 o2 o3"))
    assert call is not None and call.legal and call.seat == 2
    assert [str(t) for t in call.added] == ["o1", "o2", "o3"]
    assert "misread" in call.reasons[0]
    assert referee.seat == 1 and not referee.pending


def test_a_seat_that_mends_half_of_its_illegal_turn_keeps_the_turn() -> None:
    referee = Referee(players=2)
    referee.observe(table("k10 k11 k12"))
    referee.observe(table("k10 k11 k12 | r5 r6 | b1 b2"))
    # The wrong sets do not lie as they were: no misread, seat 1 is still at it.
    call = referee.observe(table("k10 k11 k12 | r5 r6 r7 | b1 b2"))
    assert call is not None and not call.legal and call.seat == 1


def test_two_sets_lying_end_to_end_are_read_as_one_where_that_makes_the_turn_legal() -> None:
    referee = Referee()
    referee.observe(table("k5 k6 k7"))
    # k3 k4 laid before k5 k6 k7 with a gap the camera took for two sets.
    call = referee.observe(table("k3 k4 | k5 k6 k7"), joinable=[(0, 1)])
    assert call is not None and call.legal
    assert call.table == ((T("k3"), T("k4"), T("k5"), T("k6"), T("k7")),)
    assert "lie end to end" in call.unsure[0]
    # Sets that do not lie end to end are not joined.
    apart = Referee()
    apart.observe(table("k5 k6 k7"))
    call = apart.observe(table("k3 k4 | k5 k6 k7"))
    assert call is not None and not call.legal


def test_a_set_wrong_before_the_turn_and_left_alone_is_not_held_against_the_player() -> None:
    referee = Referee(players=2)
    referee.observe(table("k6 b6 o10 | r1 r2 r3"))  # a game joined with a set read wrong
    call = referee.observe(table("k6 b6 o10 | r1 r2 r3 | b9 b10 b11"))
    assert call is not None and call.legal
    # Touching it is judged as usual.
    call = referee.observe(table("k6 b6 o10 o11 | r1 r2 r3 | b9 b10 b11"))
    assert call is not None and not call.legal


def test_that_was_seat_n_judges_the_turn_again_as_that_seats_and_play_goes_on_from_it() -> None:
    referee = Referee(players=3)
    referee.observe(seen_table([]))
    first = referee.observe(seen_table([[Tile.parse(t) for t in ("r10", "r11", "r12")]]))
    assert first is not None and first.seat == 1 and first.legal
    fixed = referee.reassign(2)
    assert (fixed.turn, fixed.seat, fixed.legal) == (1, 2, True)
    assert referee.seat == 3 and referee.opened == {2}
    with pytest.raises(RefereeError, match="seats are 1 to 3"):
        referee.reassign(4)


def test_a_hand_seen_from_another_seats_side_takes_the_turn_unless_a_table_waits_to_be_put_back() -> None:
    referee = Referee(players=3)
    referee.observe(seen_table([]))
    call = referee.observe(seen_table([[Tile.parse(t) for t in ("r10", "r11", "r12")]]), seat=2)
    assert call is not None and call.seat == 2 and "seat 2's side, not seat 1's" in call.reasons[-1]
    assert referee.seat == 3
    bad = referee.observe(seen_table([[Tile.parse(t) for t in ("r10", "r11", "r12")], [Tile.parse("k1")]]))
    assert bad is not None and not bad.legal and bad.seat == 3
    back = referee.observe(seen_table([[Tile.parse(t) for t in ("r10", "r11", "r12")]]), seat=1)
    assert back is not None and back.seat == 3 and back.action == "put back"


def test_play_that_goes_on_from_another_side_after_a_tile_called_taken_takes_it_for_a_misread() -> None:
    """Rendered tuning game seed 1204 game 1: a blue 9 read as a joker for a moment was called "taken off
    the table"; every later turn, whoever's hand made it, was then called seat 2's and not legal."""
    referee = Referee(players=2)
    referee.observe(table("k10 k11 k12 | b9 r9 o9"))
    referee.observe(table("k10 k11 k12 k13 | b9 r9 o9"), seat=1)
    wrong = referee.observe(table("k10 k11 k12 k13 | J r9 o9 | b1 b2 b3"), seat=2)  # b9 misread as J
    assert wrong is not None and not wrong.legal and [str(t) for t in wrong.removed] == ["b9"]
    assert referee.pending and referee.seat == 2
    # The same seat's hand again: still its turn to put the table back (no misread taken).
    again = referee.observe(table("k10 k11 k12 k13 | J r9 o9 | b1 b2 b3 b4"), seat=2)
    assert again is not None and not again.legal and again.seat == 2 and referee.pending
    # Seat 1's hand plays beside it, the "taken" tile still gone: the call is taken for a misread.
    call = referee.observe(table("k10 k11 k12 k13 | J r9 o9 | b1 b2 b3 b4 | o5 o6 o7"), seat=1)
    assert call is not None and call.legal and call.seat == 1
    assert [str(t) for t in call.added] == ["o5", "o6", "o7"] and "misread" in call.reasons[-1]
    assert referee.seat == 2 and not referee.pending


def test_a_tile_taken_and_kept_off_with_no_other_hand_seen_stays_the_seats_to_put_back() -> None:
    referee = Referee(players=2)
    referee.observe(table("k10 k11 k12 k13"))
    wrong = referee.observe(table("k10 k11 k12 | r1 r2 r3"))  # seat 1 took k13 off
    assert wrong is not None and not wrong.legal
    for seat in (None, 1):  # no hand seen, or seat 1's own: no misread
        call = referee.observe(table("k10 k11 k12 | r1 r2 r3 | o4 o5 o6"), seat=seat)
        assert call is not None and not call.legal and call.seat == 1 and referee.pending
        referee.override(False)
        referee.observe(table("k10 k11 k12 | r1 r2 r3"))


def test_table_tiles_moved_into_a_set_that_is_not_valid_are_called_not_legal() -> None:
    # Rendered tuning game seed 1205 game 0, turn 11: seat 1 split a set for a rack tile it laid only a
    # turn later; the table between, the same tiles in a set that is not valid, was not called.
    referee = Referee(players=2)
    referee.observe(table("k10 k11 k12 k13 | r5 r6 r7"))
    call = referee.observe(table("k10 k11 k12 | k13 | r5 r6 r7"))
    assert call is not None and call.action == "play" and not call.legal
    assert call.added == () and call.removed == () and call.seat == 1
    assert any("(k13)" in reason for reason in call.reasons)
    mended = referee.observe(table("k10 k11 k12 | k13 r13 b13 | r5 r6 r7"))
    assert mended is not None and mended.legal and mended.seat == 1
    assert sorted(str(t) for t in mended.added) == ["b13", "r13"]


def test_a_nudge_that_splits_a_set_where_it_lies_is_no_turn() -> None:
    # The row read as two sets lying end to end (`joinable`): the same set, a gap the camera saw.
    referee = Referee()
    referee.observe(table("r3 r4 r5 r6 | k1 k2 k3"))
    assert referee.observe(table("r3 r4 | r5 r6 | k1 k2 k3"), joinable=[(0, 1)]) is None
    assert referee.history == []


def test_a_set_split_wide_apart_with_nothing_laid_is_a_turn_called_not_legal() -> None:
    # Hands hold-out 3, seed 1940-p2 game 0, turn 5: b7..b11 split into b7 b8 and b9 b10 b11 with a gap of
    # 0.9 of a tile (1.9 tile widths centre to centre), nothing laid; a nudge moves a tile a few millimetres.
    referee = Referee()
    referee.observe(table("b7 b8 b9 b10 b11 | k1 k2 k3"))
    call = referee.observe(table("b7 b8 | b9 b10 b11 | k1 k2 k3"), joinable=[(0, 1)], apart=[(0, 1)])
    assert call is not None and not call.legal
    assert call.added == () and call.removed == ()


def test_a_set_laid_this_turn_with_a_wide_gap_is_still_one_set() -> None:
    # Rendered game seed 913 game 1: k3 k4 laid with a gap before k5 k6 k7 (a set the table never held).
    referee = Referee(players=2)
    referee.observe(table("r3 r4 r5 r6"))
    call = referee.observe(table("r3 r4 r5 r6 | k3 k4 | k5 k6 k7"), joinable=[(1, 2)], apart=[(1, 2)])
    assert call is not None and call.legal
    assert call.added == tuple(sorted(T(t) for t in ("k3", "k4", "k5", "k6", "k7")))


def test_tiles_moved_on_a_table_already_called_wrong_are_no_second_call() -> None:
    referee = Referee()
    referee.observe(table("r3 r4 r5 r6"))
    wrong = referee.observe(table("r3 r4 r5 r6 | k1 k2"))
    assert wrong is not None and not wrong.legal
    assert referee.observe(table("r3 r4 | r5 r6 | k1 k2")) is None


def test_table_tiles_moved_into_a_wrong_set_are_called_with_a_doubtful_tile_among_them() -> None:
    # Tuning game seed 1205 game 0, turn 11 as the camera read it: o10 moved to o11 o12 o13 read o11 (0.85,
    # runner-up o10), so only the doubtful tile differed, and the split left o13 J alone.
    referee = Referee(players=3)
    referee.observe(table("o11 o12 o13 | o10 J o12 o13 | k12 b12 r12"))
    seen = [[doubtful("o11", 0.85, ("o10", 0.1)), SeenTile(T("o11")), SeenTile(T("o12")), SeenTile(T("o13"))],
            [SeenTile(T(t)) for t in ("k12", "b12", "r12", "o12")], [SeenTile(T("o13")), SeenTile(T("J"))]]
    call = referee.observe(seen)
    assert call is not None and not call.legal and call.added == () and call.removed == ()
    assert any("(o13 J)" in reason for reason in call.reasons)

