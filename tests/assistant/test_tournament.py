"""Tournament logic (004_*.txt): the raffle, table sizes, standings order, re-seating, table links."""

from __future__ import annotations

import pytest

from assistant.rules import find_preset
from assistant.tournament import (
    Standing,
    TableLink,
    TournamentError,
    check_table_players,
    draw_tables,
    parse_players,
    rank,
    seat_by_standings,
    standings_from,
    stored_name,
    table_sizes,
)

TOURNAMENT = find_preset("tournament")
PLAYERS = [f"p{n:02d}" for n in range(1, 11)]


@pytest.mark.parametrize(
    "players, size, expected",
    [(10, 4, [4, 3, 3]), (8, 4, [4, 4]), (9, 4, [3, 3, 3]), (5, 4, [3, 2]), (2, 4, [2]), (7, 3, [3, 2, 2])],
)
def test_tables_are_as_few_and_as_even_as_the_size_allows(
    players: int, size: int, expected: list[int]
) -> None:
    assert table_sizes(players, size, TOURNAMENT) == expected


@pytest.mark.parametrize(
    "players, size, message",
    [
        (1, 4, "at least 2 players"),
        (8, 5, "2 to 4 players"),
        (8, 1, "not 1"),
        (
            3,
            2,
            r"a table seats exactly 2 players, and 2 tables for 3 players leave one player alone at one "
            r"\(tables of 3 would seat them\)",
        ),
        (5, 2, "3 tables for 5 players leave one player alone"),
    ],
)
def test_impossible_seatings_are_refused(players: int, size: int, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        table_sizes(players, size, TOURNAMENT)


def test_a_seat_up_to_six_under_the_six_player_preset() -> None:
    assert table_sizes(12, 6, find_preset("six-player")) == [6, 6]


def test_the_raffle_is_seeded_and_seats_everyone_once() -> None:
    first = draw_tables(PLAYERS, 4, "club-42", TOURNAMENT)
    assert first == draw_tables(PLAYERS, 4, "club-42", TOURNAMENT)
    assert sorted(name for table in first for name in table) == PLAYERS
    assert [len(table) for table in first] == [4, 3, 3]
    draws = {draw_tables(PLAYERS, 4, str(seed), TOURNAMENT) for seed in range(20)}
    assert len(draws) > 15  # different seeds, different draws
    assert first != tuple((tuple(PLAYERS[:4]), tuple(PLAYERS[4:7]), tuple(PLAYERS[7:])))


def test_standings_rank_wins_first_then_cumulative_score() -> None:
    # 004_*.txt: "the player with the most game wins advances; ties are broken by highest cumulative score"
    rows = [
        Standing("ann", 1, 90, 3),
        Standing("bob", 2, -40, 3),
        Standing("cid", 2, 10, 3),
        Standing("dee", 0, 0, 0),
    ]
    assert [r.name for r in rank(rows)] == ["cid", "bob", "ann", "dee"]


def test_equal_standings_are_ordered_by_name_on_every_device() -> None:
    assert [r.name for r in rank([Standing("zed", 1, 5, 1), Standing("amy", 1, 5, 1)])] == ["amy", "zed"]


def test_standings_from_games_count_a_shared_blocked_win_for_each() -> None:
    games = [({"a": 10, "b": -10}, ["a"]), ({"a": 0, "b": 0}, ["a", "b"]), ({"a": -3, "b": 3}, ["b"])]
    rows = standings_from(["a", "b", "c"], games)
    assert [(r.name, r.games_won, r.score, r.games) for r in rows] == [
        ("a", 2, 7, 3),
        ("b", 2, -7, 3),
        ("c", 0, 0, 0),
    ]


def test_reseating_by_standings_puts_the_leaders_together() -> None:
    wins = [0, 5, 1, 4, 2, 3, 0, 0, 0, 9]
    rows = [Standing(name, won, 0, 1) for name, won in zip(PLAYERS, wins, strict=True)]
    tables = seat_by_standings(rows, 4, TOURNAMENT)
    assert tables[0] == ("p10", "p02", "p04", "p06")
    assert [len(t) for t in tables] == [4, 3, 3]


@pytest.mark.parametrize(
    "given, message",
    [
        (["a", "b", "zed"], "'zed' is not a player"),
        (["a", "b", "d"], "'d' plays at table 2, not at table 1"),
        (["a"], "no rack given for b, c"),
    ],
)
def test_a_game_must_name_exactly_the_table_s_players(given: list[str], message: str) -> None:
    tables = (("a", "b", "c"), ("d", "e"))
    with pytest.raises(TournamentError, match=message):
        check_table_players(tables, 1, given, "abcde")


def test_a_game_at_a_table_that_does_not_exist() -> None:
    with pytest.raises(TournamentError, match="no table 3: the tables are 1 to 2"):
        check_table_players((("a", "b"), ("c", "d")), 3, ["a", "b"], "abcd")


@pytest.mark.parametrize(
    "arguments, expected",
    [
        (["ann,bob, cid"], ["ann", "bob", "cid"]),
        (["ann bob"], ["ann", "bob"]),
        (["ann", "bob"], ["ann", "bob"]),
        (["Ann Lee,Bob"], ["Ann Lee", "Bob"]),
    ],
)
def test_player_lists(arguments: list[str], expected: list[str]) -> None:
    assert parse_players(arguments) == expected


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["ann,,bob"], "blank"),
        (["ann,ann"], "ann given twice"),
        (["a=b,c"], "'='"),
        (["a,A"], "'a' and 'A' are the same name"),
        (["Ann Lee,bob,ann lee"], "same name"),
    ],
)
def test_bad_player_lists(arguments: list[str], message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        parse_players(arguments)


@pytest.mark.parametrize(
    "players, given, expected",
    [
        (["ann", "HAL"], "hal", "HAL"),
        (["ann", "HAL"], "HAL", "HAL"),
        (["ann", "HAL"], "zed", "zed"),
        (["a", "A"], "A", "A"),  # registered before names differing in case were refused
        (["a", "A"], "á", "á"),
    ],
)
def test_stored_name_matches_ignoring_case(players: list[str], given: str, expected: str) -> None:
    assert stored_name(players, given) == expected


def test_table_links_round_trip() -> None:
    link = TableLink("Spring cup & co", 3)
    url = link.url("http://hall.local:8501/")
    assert url == "http://hall.local:8501/?tournament=Spring+cup+%26+co&table=3"
    assert TableLink.parse(url) == link
    assert TableLink.parse(link.query()) == link


@pytest.mark.parametrize(
    "text, message",
    [
        ("table=2", "no tournament"),
        ("tournament=x&table=0", "table"),
        ("tournament=x&table=%EF%BC%93", "table"),  # a full-width 3
    ],
)
def test_bad_table_links(text: str, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        TableLink.parse(text)
