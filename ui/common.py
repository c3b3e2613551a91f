"""What the app's screens share: the screen and picture-source names, session defaults, the cached tile
reader and database, the game this tab shows, and how a tile is written in Markdown."""

from __future__ import annotations

import hashlib
from typing import Any

import streamlit as st

from assistant.errors import InputError
from assistant.rules import Rules, find_preset
from assistant.slots import Slot
from assistant.storage import Game, Storage, default_db_url
from vision import photos

SCREENS = ("Table", "Turn", "Round", "Game", "Tournament")
SOURCES = {
    "example": "Example photo",
    "camera": "Camera",
    "upload": "Upload",
    "type": "Type it",
    "live": "Live video",
}
# Streamlit's bundled icon font renders everywhere; emoji need a font the device may lack.
VALID_MARK = ":green[:material/check_circle:]"
INVALID_MARK = ":red[:material/cancel:]"
UNJUDGED_MARK = ":gray[:material/help:]"
COLOR_MARKUP = {"k": "**{}**", "b": ":blue[**{}**]", "r": ":red[**{}**]", "o": ":orange[**{}**]"}

SESSION_DEFAULTS: dict[str, Any] = {
    "screen": SCREENS[0],
    "photo_key": None,  # the photo last read in this tab, so each photo is read once
    "reading": None,  # its vision.photos.PhotoReading
    "photo_error": None,
    "layout_text": "",  # the layout editor's text
    "layout_synced": None,  # the stored layout last copied into the editor
    "layout_error": None,
    "selected_slot": None,  # (set, position, layout) of the tile picked for a fix
    "action_error": None,  # a refused button press (storage conflict, unread tiles)
    "photo_chosen": False,  # the source was just changed: its photo replaces the stored table
}


def init_session() -> None:
    # Read on every run, not once per process: RUMMI_DB may differ between runs of one server. It is a file
    # or a database URL (a tournament hall's PostgreSQL).
    st.session_state.setdefault("db_path", default_db_url())
    for key, value in SESSION_DEFAULTS.items():
        st.session_state.setdefault(key, value)


@st.cache_resource(show_spinner="Loading the tile reader…")
def tile_reader() -> Any:
    return photos.load_tile_reader()


@st.cache_resource
def open_storage(path: str) -> Storage:
    return Storage(path)


def rules_of(game: Game) -> Rules:
    try:
        return find_preset("+".join((game.preset, *game.variants)))
    except InputError as error:
        st.error(f"This game's rules cannot be used ({error}); judging with the standard rules.")
        return find_preset("standard")


def current_game(db: Storage) -> Game:
    games = db.list_games()
    if not games:
        db.create_game("Table 1", "standard", ["Player 1", "Player 2"], camera="example")
        games = db.list_games()
    ids = [game_id for game_id, _ in games]
    wanted = st.query_params.get("game", "")
    game_id = int(wanted) if wanted.isdigit() and int(wanted) in ids else ids[0]
    if st.query_params.get("game") != str(game_id):
        st.query_params["game"] = str(game_id)
    return db.load_game(game_id)


def tile_markup(slot: Slot) -> str:
    if slot is None:
        return "**?**"
    if slot.color is None:
        return "**J**"
    return COLOR_MARKUP[slot.color.letter].format(slot.number)


def photo_bytes_key(source: str, data: bytes) -> str:
    return f"{source}:{hashlib.sha1(data).hexdigest()}"
