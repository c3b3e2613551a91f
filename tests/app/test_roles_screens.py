"""The screens each role is drawn with (issue 35, items 6 and 7), driven by AppTest.

A viewer sees no control it may not use (no enabled button, box or uploader that records), a caption says
why, and its first look at a game shows no error; the server still refuses its writes. A tournament table's
link gets every screen its role allows for its own table's game of the current round (Table, Turn, Referee,
Round with rack photos, Setup), records there and at its tournament table, and nowhere else.
"""

from __future__ import annotations

from typing import Any

import pytest
from app_fakes import FakeReader, photo_bytes, scene_detections
from streamlit.testing.v1 import AppTest
from test_roles import (
    KEY,
    NewTab,
    cup,
    labels,
    press,
    role,
    screen,
    sign_in,
    tab,
    table_link,
    texts,
    two_games,
)

from assistant.access import Access, AccessDenied, GuardedStorage
from assistant.hall import open_hall
from assistant.storage import Storage, default_db_path, default_db_url
from assistant.storage.links import TableLinks, TournamentTable
from ui import tournament as tournament_screen
from ui.common import SCREENS
from ui.helpers import VIEW_ONLY

WIDGET_KINDS = (
    "button",
    "text_input",
    "text_area",
    "pills",
    "file_uploader",
    "camera_input",
    "selectbox",
    "checkbox",
    "number_input",
    "radio",
)
# Controls that only look: the screen picker, and opening a referee game record (nothing of it is stored).
LOOKING = {"screen", "referee_record_upload"}


def enabled_controls(at: AppTest) -> list[str]:
    """What the page's main part offers to press or fill in (the sidebar's sign-in aside), as `kind:key`."""
    found = []
    for kind in WIDGET_KINDS:
        for widget in getattr(at.main, kind):
            key = str(getattr(widget, "key", "") or getattr(widget, "label", ""))
            if not widget.disabled and key not in LOOKING and not key.startswith("meld_sets_"):
                found.append(f"{kind}:{key}")
    return found


@pytest.fixture
def keyed(app: NewTab, monkeypatch: pytest.MonkeyPatch) -> NewTab:
    monkeypatch.setenv("RUMMI_DIRECTOR_KEY", KEY)
    return app


# A viewer --------------------------------------------------------------------------------------------------


def test_a_viewers_first_look_at_a_game_shows_no_error(keyed: NewTab, reader: FakeReader) -> None:
    storage = two_games()  # tables never filled: the example photo is not read over them by a viewer
    at = tab(game="2")
    assert not at.exception
    assert role(at) == "This device is **a viewer**."
    assert texts(at, "error") == []
    assert reader.calls == 0
    assert storage.load_game(2).table_layout == ""
    assert VIEW_ONLY in texts(at, "caption")


def test_a_viewer_sees_no_control_it_may_not_use(keyed: NewTab) -> None:
    storage = two_games()
    storage.record_round(
        2,
        1,
        blocked=False,
        racks={0: "", 1: "r5"},
        rack_values={0: 0, 1: 5},
        scores={0: 5, 1: -5},
        winners={0},
    )
    storage.set_table_layout(2, "r5 r6 r7 | k1 k2")  # (a round recorded empties the table)
    at = tab(game="2")
    options = list(at.radio(key="screen").options)
    assert "Setup" not in options  # setting up the table is a write
    for name in options:
        at = screen(at, name)
        assert not at.exception, name
        assert enabled_controls(at) == [], name
        assert not [e for e in texts(at, "error") if e.startswith("Not done")], name
    at = screen(at, "Table")
    assert texts(at, "error") == ["Table not valid: 1 of 2 sets break the rules."]  # the table, judged
    assert at.text_area(key="layout_text").value == "r5 r6 r7 | k1 k2"  # shown, not editable
    at = screen(at, "Turn")
    assert any("plays next" in i for i in texts(at, "info"))
    assert "Start turn" not in labels(at)
    at = screen(at, "Round")
    assert VIEW_ONLY in texts(at, "caption")
    assert "Undo round 1" not in labels(at) and [b.label for b in at.get("download_button")]
    # The server still refuses a viewer's write, whatever the page shows.
    viewer = GuardedStorage(storage, lambda: Access(director=False))
    with pytest.raises(AccessDenied):
        viewer.set_table_layout(2, "r1 r2 r3")
    assert storage.load_game(2).table_layout == "r5 r6 r7 | k1 k2"


def test_the_director_and_a_games_table_still_get_their_controls(keyed: NewTab) -> None:
    storage = two_games()
    director = screen(sign_in(tab(game="2"), KEY), "Turn")
    assert "Start turn" in labels(director)
    assert list(director.radio(key="screen").options) == list(SCREENS)
    table = screen(tab(game="1", key=TableLinks(storage.db).game_token(1)), "Round")
    assert table.text_input(key="rack_1_1") is not None
    assert VIEW_ONLY not in texts(table, "caption")


# A tournament table -----------------------------------------------------------------------------------------


def hall_games(table: int | None = None) -> list[Any]:
    return open_hall(default_db_url()).games("Cup", table=table)


def table_game(table: int, round_number: int = 1) -> Any:
    storage = Storage(default_db_path())
    name = f"Cup · round {round_number} · table {table}"
    [game_id] = [game_id for game_id, shown in storage.list_games() if shown == name]
    return storage.load_game(game_id)


def test_a_tournament_tables_link_gets_its_games_screens(keyed: NewTab, reader: FakeReader) -> None:
    tables = cup()
    token = TableLinks(open_hall(default_db_url()).db).table_token("Cup", 1)
    at = tab(**table_link(1, token))
    assert not at.exception
    assert role(at) == "This device is **the table of Cup, table 1**."
    assert at.radio(key="screen").value == "Tournament"
    assert list(at.radio(key="screen").options) == list(SCREENS)
    game = table_game(1)
    assert [p.name for p in game.players] == list(tables[0])  # the table's players, in seat order
    assert at.markdown[0].value.startswith("#### Cup · round 1 · table 1")
    # Table: a typed table is stored for this game.
    at = screen(at, "Table")
    assert texts(at, "error") == []
    at.radio(key="source").set_value("type").run()
    at.text_area(key="layout_text").input("r10 r11 r12").run()
    assert table_game(1).table_layout == "r10 r11 r12"
    # Turn: a turn starts.
    at = screen(at, "Turn")
    at = press(at, "Start turn")
    assert not at.exception
    assert table_game(1).pending is not None
    at = press(at, "Cancel turn")
    # Setup is there for its own table.
    at = screen(at, "Setup")
    assert not at.exception
    assert not [e for e in texts(at, "error") if e.startswith("Not done")]
    # Round, with a rack photo: recorded in the game and at the tournament table.
    at = screen(at, "Round")
    reader.detections = scene_detections([["r5 k3 J"]])
    at.selectbox(key="rack_first_1").set_value(1)
    at.file_uploader(key="rack_photos_1").set_value([("rack.jpg", photo_bytes(seed=61), "image/jpeg")])
    at.run()
    assert at.text_input(key="rack_1_1").value == "r5 k3 J"
    for seat in range(2, len(tables[0])):
        at.text_input(key=f"rack_1_{seat}").input("o2")
    at.run()
    at = press(at, "Confirm round 1")
    assert not at.exception
    [notice] = texts(at, "success")
    assert notice.startswith("Round 1 recorded") and "Cup: game 1 at table 1 recorded." in notice
    assert [r.number for r in Storage(default_db_path()).rounds(table_game(1).id)] == [1]
    [recorded] = hall_games()
    assert (recorded.table, recorded.table_game) == (1, 1)
    assert recorded.points[tables[0][0]] > 0 and recorded.points[tables[0][1]] < 0
    assert "Undo round 1" not in labels(at)  # the director's


def test_a_tournament_tables_link_cannot_write_to_another_table(keyed: NewTab) -> None:
    cup()
    hall = open_hall(default_db_url())
    links = TableLinks(hall.db)
    token_1, token_2 = links.table_token("Cup", 1), links.table_token("Cup", 2)
    tab(**table_link(2, token_2))  # table 2's device opens its game
    other = table_game(2)
    # Table 1's link in table 2's address: the page shows table 1's game, never table 2's.
    at = tab(**table_link(2, token_1))
    assert at.markdown[0].value.startswith("#### Cup · round 1 · table 1")
    assert "This device holds the link of Cup, table 1: it records only there" in at.error[0].value
    own = table_game(1)
    # In the server: table 1's link records its own game, and is refused at table 2's.
    storage = Storage(default_db_path())
    as_table_1 = Access(director=False, grant=TournamentTable("Cup", 1))
    guarded = GuardedStorage(storage, lambda: tournament_screen.game_access(as_table_1, storage, hall))
    guarded.set_table_layout(own.id, "r1 r2 r3")
    with pytest.raises(AccessDenied, match="this device is the table of Cup, table 1"):
        guarded.set_table_layout(other.id, "r1 r2 r3")
    with pytest.raises(AccessDenied):
        guarded.record_round(other.id, 1, blocked=False, racks={}, rack_values={}, scores={}, winners=set())
    with pytest.raises(AccessDenied):  # nor any club game
        guarded.start_turn(Storage(default_db_path()).list_games()[-1][0], 0, "", "")
    assert storage.load_game(other.id).table_layout == ""
    assert storage.rounds(other.id) == []


def test_a_new_round_gives_the_table_its_new_game(keyed: NewTab) -> None:
    cup()
    hall = open_hall(default_db_url())
    token = TableLinks(hall.db).table_token("Cup", 1)
    tab(**table_link(1, token))
    first = table_game(1)
    director = screen(sign_in(tab(), KEY), "Tournament")
    press(director, "Start round 2")
    at = tab(**table_link(1, token))
    assert at.markdown[0].value.startswith("#### Cup · round 2 · table 1")
    second = table_game(1, round_number=2)
    storage = Storage(default_db_path())
    as_table_1 = Access(director=False, grant=TournamentTable("Cup", 1))
    guarded = GuardedStorage(storage, lambda: tournament_screen.game_access(as_table_1, storage, hall))
    guarded.set_table_layout(second.id, "r1 r2 r3")
    with pytest.raises(AccessDenied):  # last round's game is closed to the table
        guarded.set_table_layout(first.id, "r1 r2 r3")
