"""Rummikub table assistant: check the table from a photo, judge a disputed turn, score rounds.

Run with `streamlit run app.py`. This file is the entry: the page set-up, the database and the game this tab
shows, and the screen picker; each screen is a module in `ui/` (`table`, `turn`, `referee`, `round`, `game`,
`tournament`). The rules are in `assistant/`, pixels in `vision/`, and everything confirmed is stored in
SQLite or PostgreSQL (`assistant.storage`), read again on every run so several tabs on one game see the same
state. Who may change what (the director, a table through its link, a viewer) is `assistant.access`: every
screen writes through a store that asks the session's role (`ui.access`) again at each write.

The screens are picked with a radio rather than `st.navigation`: a page switch clears the query parameters,
and `?game=` is how each tab keeps its game.
"""

from __future__ import annotations

import streamlit as st

from assistant.access import AccessDenied, GuardedStorage
from assistant.errors import InputError
from assistant.rules import Rules
from assistant.storage import Game, StorageError
from assistant.storage.links import GameTable, TableLinks, TournamentTable
from ui import access as access_ui
from ui import game as game_screen
from ui import referee as referee_screen
from ui import round as round_screen
from ui import setup as setup_screen
from ui import table as table_screen
from ui import tournament as tournament_screen
from ui import turn as turn_screen
from ui.common import SCREENS, current_game, database_setting, init_session, open_storage, rules_of

st.set_page_config(page_title="Rummikub table assistant", page_icon="🟥", layout="wide")
# Less empty space above the title, which matters most on a phone.
# On a phone the sidebar's open button sits in the header bar, over the title unless the page starts below it.
st.html(
    "<style>[data-testid='stMainBlockContainer']{padding-top:2.5rem}"
    "@media (max-width:640px){[data-testid='stMainBlockContainer']{padding-top:4rem}}</style>"
)
refused = access_ui.request_refusal()  # a foreign Host or another site's page (ui.host_guard)
if refused:
    st.error(f"Not served: {refused}.")
    st.stop()
init_session()
tournament_screen.follow_link()


def on_screen_chosen() -> None:
    # A refused press or a notice belongs to the screen it happened on.
    st.session_state.action_error = None
    st.session_state.notice = None


def header_ui(game: Game | None, rules: Rules | None, screens: tuple[str, ...]) -> str:
    if game is not None and rules is not None:
        st.markdown(f"#### {game.name} · {rules.label}")
    if st.session_state.screen not in screens:
        st.session_state.screen = screens[0]
    return st.radio(
        "Screen",
        screens,
        key="screen",
        horizontal=True,
        label_visibility="collapsed",
        on_change=on_screen_chosen,
    )


try:
    setting = database_setting()
    key = access_ui.key_setting()
except InputError as error:
    st.error(f"The app's server settings are not right: {error}")
    st.stop()
try:
    storage = open_storage(setting.target)
    links = TableLinks(storage.db)
    hall = tournament_screen.open_hall_at(storage.url)
    access = access_ui.current_access(links)
except StorageError as error:
    st.error(
        f"The game database cannot be used: {error}. It is the server's setting ({setting.source}): "
        "start the app with `streamlit run app.py -- --db PATH-OR-URL`, or set RUMMI_DB."
    )
    st.stop()
access_ui.sidebar_ui(key, access)
# Every screen writes through this: each change asks the session's role again, in the server. A tournament
# table's link records its own table's game of the current round, and nothing else (ui.tournament).
guarded = GuardedStorage(
    storage, lambda: tournament_screen.game_access(access_ui.current_access(links), storage, hall)
)
if isinstance(access.grant, GameTable):
    st.query_params["game"] = str(access.grant.game_id)  # a game's link shows that game only
game: Game | None = None
rules: Rules | None = None
try:
    if isinstance(access.grant, TournamentTable):  # its table's game this round (made the first time)
        game = tournament_screen.open_table_game(storage, hall, access)
    else:
        game = current_game(guarded)
except AccessDenied:  # no game yet, and only the director creates one
    game = None
except StorageError as error:
    st.error(
        f"The game database cannot be used: {error}. It is the server's setting ({setting.source}): "
        "start the app with `streamlit run app.py -- --db PATH-OR-URL`, or set RUMMI_DB."
    )
    st.stop()
# The role the game's screens are drawn for: a viewer gets no button the server would refuse.
game_role = tournament_screen.game_access(access, storage, hall)
if game is not None:
    rules = rules_of(game)
    setup_screen.use_game_profile(guarded, game)
if game is None:
    screens: tuple[str, ...] = ("Tournament",)
elif game_role.may_record_game(game.id):
    screens = SCREENS
else:  # a viewer: setting up the table is a write
    screens = tuple(name for name in SCREENS if name != "Setup")
screen = header_ui(game, rules, screens)
try:
    if screen == "Tournament" or game is None or rules is None:
        tournament_screen.show(storage, access, links)
    elif screen == "Table":
        table_screen.show(guarded, game, rules, game_role)
    elif screen == "Turn":
        turn_screen.show(guarded, game, rules, game_role)
    elif screen == "Referee":
        referee_screen.show(guarded, game, rules)
    elif screen == "Round":
        place = tournament_screen.place_of(hall, game)  # a tournament table's game: recorded there too
        elsewhere = None if place is None else tournament_screen.round_recorder(storage, links, place)
        round_screen.show(guarded, game, rules, game_role, elsewhere)
    elif screen == "Setup":
        setup_screen.show(guarded, game)
    else:
        game_screen.show(guarded, game, access, links)
except AccessDenied as error:  # a change this device's role may not make: nothing was written
    st.error(f"Not done: {error}. Nothing was changed.")
except StorageError as error:  # e.g. the file locked by another program: nothing confirmed is lost
    st.error(f"The game database did not answer: {error}. Nothing confirmed is lost; try again.")
