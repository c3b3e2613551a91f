"""Rummikub table assistant: check the table from a photo, judge a disputed turn, score rounds.

Run with `streamlit run app.py`. This file is the entry: the page set-up, the database and the game this tab
shows, and the screen picker; each screen is a module in `ui/` (`table`, `turn`, `round`, `game`,
`tournament`). The rules are in `assistant/`, pixels in `vision/`, and everything confirmed is stored in
SQLite or PostgreSQL (`assistant.storage`), read again on every run so several tabs on one game see the same
state.

The screens are picked with a radio rather than `st.navigation`: a page switch clears the query parameters,
and `?game=` is how each tab keeps its game.
"""

from __future__ import annotations

import streamlit as st

from assistant.errors import InputError
from assistant.rules import Rules
from assistant.storage import Game, StorageError
from ui import game as game_screen
from ui import round as round_screen
from ui import setup as setup_screen
from ui import table as table_screen
from ui import tournament as tournament_screen
from ui import turn as turn_screen
from ui.common import SCREENS, current_game, database_setting, init_session, open_storage, rules_of

st.set_page_config(page_title="Rummikub table assistant", page_icon="🟥", layout="wide")
# Less empty space above the title, which matters most on a phone.
st.html("<style>[data-testid='stMainBlockContainer']{padding-top:2.5rem}</style>")
init_session()
tournament_screen.follow_link()


def on_screen_chosen() -> None:
    # A refused press or a notice belongs to the screen it happened on.
    st.session_state.action_error = None
    st.session_state.notice = None


def header_ui(game: Game, rules: Rules) -> str:
    st.markdown(f"#### {game.name} · {rules.label}")
    return st.radio(
        "Screen",
        SCREENS,
        key="screen",
        horizontal=True,
        label_visibility="collapsed",
        on_change=on_screen_chosen,
    )


try:
    setting = database_setting()
except InputError as error:
    st.error(f"The game database is not set right: {error}")
    st.stop()
try:
    storage = open_storage(setting.target)
    game = current_game(storage)
except StorageError as error:
    st.error(
        f"The game database cannot be used: {error}. It is the server's setting ({setting.source}): "
        "start the app with `streamlit run app.py -- --db PATH-OR-URL`, or set RUMMI_DB."
    )
    st.stop()
rules = rules_of(game)
setup_screen.use_game_profile(storage, game)
screen = header_ui(game, rules)
try:
    if screen == "Table":
        table_screen.show(storage, game, rules)
    elif screen == "Turn":
        turn_screen.show(storage, game, rules)
    elif screen == "Round":
        round_screen.show(storage, game, rules)
    elif screen == "Tournament":
        tournament_screen.show(storage)
    elif screen == "Setup":
        setup_screen.show(storage, game)
    else:
        game_screen.show(storage, game)
except StorageError as error:  # e.g. the file locked by another program: nothing confirmed is lost
    st.error(f"The game database did not answer: {error}. Nothing confirmed is lost; try again.")
