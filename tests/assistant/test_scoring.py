import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules import find_preset
from assistant.scoring import FailedOpening, Ledger, ScoringError, score_round
from assistant.tiles import ALL_FACES, JOKER, parse_tiles


def test_round_from_000_section_5() -> None:
    # "three losing players retain tiles worth 12, 18, and 25 points ... The round winner scores +55."
    result = score_round(
        {"win": [], "a": parse_tiles("r12"), "b": parse_tiles("k10 b8"), "c": parse_tiles("o13 r12")}
    )
    assert not result.blocked and result.winners == ("win",)
    assert result.scores == {"win": 55, "a": -12, "b": -18, "c": -25}


def test_blocked_round_from_000_section_5() -> None:
    # "rack totals of 8, 14, 21, and 30 ... opponents score -6, -13, and -22, and the winner scores +41."
    racks = {
        "a": parse_tiles("r8"),
        "b": parse_tiles("k7 b7"),
        "c": parse_tiles("o13 r8"),
        "d": parse_tiles("J"),
    }
    result = score_round(racks)
    assert result.blocked and result.winners == ("a",)
    assert result.rack_values == {"a": 8, "b": 14, "c": 21, "d": 30}
    assert result.scores == {"a": 41, "b": -6, "c": -13, "d": -22}


def test_blocked_tie_shares_the_win_and_stays_zero_sum() -> None:
    racks = {"a": parse_tiles("r8"), "b": parse_tiles("k8"), "c": parse_tiles("o13 r8")}
    result = score_round(racks)
    assert result.winners == ("a", "b")
    assert result.scores == {"a": 7, "b": 6, "c": -13}  # 13 split 7/6, the odd point to the first seat


@pytest.mark.parametrize(
    ("preset", "penalty"), [("standard", 30), ("goliath", 25), ("six-player", 30), ("tournament", 50)]
)
def test_joker_penalty_per_preset(preset: str, penalty: int) -> None:
    result = score_round({"a": [], "b": parse_tiles("J r1")}, find_preset(preset))
    assert result.scores == {"a": penalty + 1, "b": -(penalty + 1)}


def test_failed_opening_penalty_tournament() -> None:
    rules = find_preset("tournament")
    racks = {"a": [], "b": parse_tiles("r1"), "c": parse_tiles("r2")}
    result = score_round(racks, rules, {"b": FailedOpening.COULD_NOT, "c": FailedOpening.CHOSE_NOT})
    assert result.scores == {"a": 303, "b": -101, "c": -202}
    with pytest.raises(ScoringError):
        score_round(racks, find_preset("standard"), {"b": FailedOpening.COULD_NOT})


@pytest.mark.parametrize(
    "racks",
    [
        {"a": []},
        {"a": [], "b": []},
        {name: parse_tiles("r1") for name in "abcde"},
        {"a": [], "b": parse_tiles("J r1"), "c": parse_tiles("J J")},
    ],
    ids=["one player", "two out", "five players in standard", "three jokers"],
)
def test_unscorable_rounds(racks: dict) -> None:
    with pytest.raises(ScoringError):
        score_round(racks)


def test_six_player_allows_six() -> None:
    racks = {name: parse_tiles(f"r{number}") for number, name in enumerate("abcdef", start=1)}
    assert score_round(racks, find_preset("six-player")).scores["a"] == 1 + 2 + 3 + 4 + 5


tiles = st.lists(st.sampled_from([*ALL_FACES, JOKER]), max_size=14)


@settings(deadline=None)
@given(
    st.lists(tiles, min_size=2, max_size=5),  # plus the player who went out: at most 6 players
    st.booleans(),
    st.sampled_from(["standard", "goliath", "tournament", "american", "six-player"]),
)
def test_scores_sum_to_zero(racks: list, someone_out: bool, preset: str) -> None:
    named = {f"p{i}": rack for i, rack in enumerate(racks)}
    named = {k: v for k, v in named.items() if v} | ({"out": []} if someone_out else {})
    if len(named) < 2:
        return
    # Plenty of copies so that random racks are always possible.
    rules = dataclasses.replace(find_preset(preset), copies=99, jokers=99, max_players=6)
    result = score_round(named, rules)
    assert sum(result.scores.values()) == 0
    assert all(result.scores[w] >= 0 for w in result.winners)
    assert all(result.scores[p] <= 0 for p in named if p not in result.winners)


def test_ledger_sums_to_zero_and_counts_wins() -> None:
    ledger = Ledger(("a", "b", "c"))
    ledger.record(score_round({"a": [], "b": parse_tiles("r5"), "c": parse_tiles("k9")}))
    ledger.record(score_round({"a": parse_tiles("r1"), "b": [], "c": parse_tiles("k13 J")}))
    assert ledger.totals == {"a": 14 - 1, "b": -5 + 44, "c": -9 - 43}
    assert sum(ledger.totals.values()) == 0
    assert ledger.wins == {"a": 1, "b": 1, "c": 0}


def test_ledger_standings_by_score_or_wins() -> None:
    rounds = [
        {"a": [], "b": parse_tiles("r1"), "c": parse_tiles("r2")},
        {"a": [], "b": parse_tiles("r1"), "c": parse_tiles("r2")},
        {"a": parse_tiles("k13 o13 J"), "b": parse_tiles("r1"), "c": []},
    ]
    by_score = Ledger(("a", "b", "c"))
    by_wins = Ledger(("a", "b", "c"), find_preset("standard+simple-win-counting"))
    for racks in rounds:
        by_score.record(score_round(racks))
        by_wins.record(score_round(racks))
    assert by_score.leaders() == ("c",)
    assert by_wins.leaders() == ("a",)


def test_partnership_totals() -> None:
    ledger = Ledger(("a", "b", "c", "d"), find_preset("standard+partnership"))
    ledger.record(
        score_round({"a": [], "b": parse_tiles("r5"), "c": parse_tiles("r6"), "d": parse_tiles("r7")})
    )
    assert ledger.partnership_totals == {"a+c": 18 - 6, "b+d": -12}
    assert ledger.leaders() == ("a+c",)


def test_short_match_stops_after_three_rounds() -> None:
    ledger = Ledger(("a", "b"), find_preset("standard+short-match"))
    for _ in range(3):
        ledger.record(score_round({"a": [], "b": parse_tiles("r5")}))
    assert ledger.finished
    with pytest.raises(ScoringError):
        ledger.record(score_round({"a": [], "b": parse_tiles("r5")}))


def test_ledger_rejects_other_players() -> None:
    ledger = Ledger(("a", "b"))
    with pytest.raises(ScoringError):
        ledger.record(score_round({"a": [], "z": parse_tiles("r5")}))


@pytest.mark.parametrize(("first", "second"), [("Ann", "ann"), ("Ann", "ANN ")])
def test_names_that_differ_only_in_case_are_one_player(first: str, second: str) -> None:
    with pytest.raises(ScoringError, match="same name|listed twice"):
        score_round({first: [], second: parse_tiles("r5")})
    with pytest.raises(ScoringError, match="same name|listed twice"):
        Ledger((first, second, "carol"))


def test_rack_supply_uses_the_one_supply_check() -> None:
    with pytest.raises(ScoringError, match=r"^the racks hold 3 copies of red 5 \(r5\)"):
        score_round({"a": [], "b": parse_tiles("r5 r5"), "c": parse_tiles("r5")})


def test_american_scoring_follows_003() -> None:
    # 003_*.txt: losers score minus their racks, "the joker counting as 30 points"; the winner the sum.
    result = score_round(
        {"a": [], "b": parse_tiles("r1 J"), "c": parse_tiles("k13")}, find_preset("american")
    )
    assert result.scores == {"a": 44, "b": -31, "c": -13}


def test_six_player_round_is_one_game_per_player() -> None:
    # 002_*.txt: "six players = six games, five players = five games"; most games won, ties by score.
    rules = find_preset("six-player+short-match")
    players = ("a", "b", "c")
    ledger = Ledger(players, rules)
    assert ledger.games_per_round == 3
    for game in range(9):
        winner = players[game % 3]
        ledger.record(score_round({p: ([] if p == winner else parse_tiles("r5")) for p in players}, rules))
        assert ledger.rounds_completed == (game + 1) // 3
    assert ledger.finished
    with pytest.raises(ScoringError, match="over"):
        ledger.record(score_round({"a": [], "b": parse_tiles("r5"), "c": parse_tiles("r5")}, rules))
    assert Ledger(players, find_preset("standard")).games_per_round == 1


def test_six_player_match_goes_to_most_games_then_score() -> None:
    rules = find_preset("six-player")
    ledger = Ledger(("a", "b", "c"), rules)
    ledger.record(score_round({"a": [], "b": parse_tiles("r1"), "c": parse_tiles("r1")}, rules))  # a +2
    ledger.record(score_round({"a": parse_tiles("r13"), "b": [], "c": parse_tiles("r13")}, rules))  # b +26
    ledger.record(score_round({"a": [], "b": parse_tiles("r2"), "c": parse_tiles("r2")}, rules))  # a +4
    # a has won two games and b one, although b's total is higher: games come first.
    assert ledger.totals["b"] > ledger.totals["a"]
    assert ledger.leaders() == ("a",)
