import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.errors import InputError
from assistant.tiles import (
    ALL_FACES,
    CLASS_NAMES,
    JOKER,
    Color,
    NotationError,
    Tile,
    class_id,
    format_layout,
    format_tiles,
    parse_layout,
    parse_tiles,
    tile_from_class_id,
    tile_from_class_name,
)

any_tile = st.sampled_from([*ALL_FACES, JOKER])
layouts = st.lists(st.lists(any_tile, min_size=1, max_size=13), max_size=12)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("r5", Tile(Color.RED, 5)),
        ("K12", Tile(Color.BLACK, 12)),
        ("o13", Tile(Color.ORANGE, 13)),
        ("y7", Tile(Color.ORANGE, 7)),
        ("b1", Tile(Color.BLUE, 1)),
        ("J", JOKER),
        ("j", JOKER),
        ("*", JOKER),
        ("joker", JOKER),
    ],
)
def test_contract_notation(token: str, expected: Tile) -> None:
    assert Tile.parse(token) == expected


@pytest.mark.parametrize("token", ["r14", "x5", "r0", "5r", "rr", "", "r-1", "jj"])
def test_unreadable_token_is_named(token: str) -> None:
    with pytest.raises(NotationError) as info:
        Tile.parse(token)
    assert isinstance(info.value, InputError)
    assert info.value.token == token


@pytest.mark.parametrize("token", ["r\uff15", "r\u0665", "k1\u0663", "b\u00b2", "tile_\u0665"])
def test_only_ascii_digits_make_a_number(token: str) -> None:
    # r５ (full width) and r٥ (Arabic-Indic) are not guessed to be r5.
    with pytest.raises(NotationError, match="not a tile") as info:
        Tile.parse(token)
    assert info.value.token == token


def test_class_names_take_only_ascii_digits() -> None:
    with pytest.raises(NotationError):
        tile_from_class_name("red_\u0665")


def test_empty_set_between_pipes_is_an_error() -> None:
    with pytest.raises(NotationError):
        parse_layout("r1 r2 r3 | | k1 k2 k3")


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("r1 r2 r3 | , | k1 k2 k3", 2),
        ("r1 r2 r3;;k1 k2 k3", 2),
        ("r1 r2 r3 ; ; k1 k2 k3", 2),
        (" , ", 1),
        (";", 1),
        ("|", 1),
        ("r1 r2 r3\n,\nk1 k2 k3", 2),
        ("r1 r2 r3 |", 2),
        ("| r1 r2 r3", 1),
        ("r1 r2 r3 |\n\nk1 k2 k3", 2),
    ],
)
def test_a_set_with_no_tile_is_an_error_whatever_the_separators(text: str, position: int) -> None:
    with pytest.raises(NotationError, match=rf"empty set \(position {position}\)") as info:
        parse_layout(text)
    assert info.value.token


@pytest.mark.parametrize(
    "text",
    ["r1 r2 r3\n\nk1 k2 k3", "\nr1 r2 r3\nk1 k2 k3\n", "r1 r2 r3\r\n\r\nk1 k2 k3\r\n", "r1 r2 r3;k1 k2 k3"],
)
def test_blank_lines_are_spacing_and_semicolons_separate_sets(text: str) -> None:
    assert format_layout(parse_layout(text)) == "r1 r2 r3 | k1 k2 k3"


def test_physical_order_is_kept() -> None:
    assert format_layout(parse_layout("J r5 r6|r5 r6 J")) == "J r5 r6 | r5 r6 J"


@settings(deadline=None)
@given(any_tile)
def test_tile_round_trip(tile: Tile) -> None:
    assert Tile.parse(str(tile)) == tile
    assert eval(repr(tile)) == tile  # repr is `Tile.parse('r5')`
    assert tile_from_class_id(class_id(tile)) == tile


@settings(deadline=None)
@given(layouts)
def test_layout_round_trip(sets: list[list[Tile]]) -> None:
    assert parse_layout(format_layout(sets)) == sets


@settings(deadline=None)
@given(st.lists(any_tile, max_size=20))
def test_rack_round_trip(tiles: list[Tile]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tiles


@settings(deadline=None)
@given(st.text(alphabet="rbkoyjJ*| ,;\n0123456789x-", max_size=40) | st.text(max_size=20))
def test_any_text_parses_and_round_trips_or_raises_notation_error(text: str) -> None:
    try:
        sets = parse_layout(text)
    except NotationError as error:
        assert error.token is not None
        return
    assert parse_layout(format_layout(sets)) == sets


@settings(deadline=None)
@given(st.lists(any_tile, max_size=30))
def test_tiles_sort_by_colour_then_number_jokers_last(tiles: list[Tile]) -> None:
    ordered = sorted(tiles)
    keys = [t.sort_key for t in ordered]
    assert keys == sorted(keys)
    assert ordered[len(ordered) - tiles.count(JOKER) :] == [JOKER] * tiles.count(JOKER)


def test_class_scheme_has_53_classes() -> None:
    assert len(CLASS_NAMES) == 53 and "joker" in CLASS_NAMES
