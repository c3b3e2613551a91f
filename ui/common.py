"""What the app's screens share: the screen and picture-source names, session defaults, the cached tile
reader and database, the game this tab shows, and how a tile is written in Markdown."""

from __future__ import annotations

import hashlib
import os
import sys
from typing import Any

import streamlit as st

from assistant.errors import InputError
from assistant.rules import Rules, find_preset
from assistant.slots import Slot
from assistant.storage import Game, Storage
from ui import helpers
from vision import photos

SCREENS = ("Table", "Turn", "Referee", "Round", "Game", "Setup", "Tournament")
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
    "notice": None,  # what the last button press did ("Round 2 recorded")
}


def init_session() -> None:
    for key, value in SESSION_DEFAULTS.items():
        st.session_state.setdefault(key, value)


def app_secrets() -> dict[str, Any]:
    """Streamlit's secrets (`.streamlit/secrets.toml`), or none when there is no secrets file."""
    try:
        return dict(st.secrets)
    except Exception:  # no secrets file: Streamlit raises its own not-found error
        return {}


def database_setting() -> helpers.DatabaseSetting:
    """The server's database: `streamlit run app.py -- --db PATH`, else RUMMI_DB, else the secret `db`.

    Read on every run, never from the page: nobody with the page can point the server at another file.
    """
    return helpers.database_setting(sys.argv[1:], os.environ, app_secrets())


@st.cache_resource(show_spinner="Loading the tile reader…")
def shared_models() -> Any:
    """The shipped reader, loaded once per server; every session reads through a view of its own."""
    return photos.load_tile_reader()


GAME_PROFILE = "game_profile"
"""Session state: the table profile this session's game reads with (`ui.setup.use_game_profile`)."""


def tile_reader() -> Any:
    """This session's reader: the shared models reading with this session's game's profile only, so
    that a viewer opening a profiled game changes nothing for the other games on the server.

    Raises:
        vision.onnx_models.ModelLoadError: the model files are missing or broken.
    """
    profile = st.session_state.get(GAME_PROFILE)
    kept = st.session_state.get("_session_reader")
    if kept is not None and kept[0] is profile:
        return kept[1]
    reader = shared_models().with_profile(profile)
    st.session_state["_session_reader"] = (profile, reader)
    return reader


@st.cache_resource
def open_storage(target: str) -> Storage:
    """The database at a file path or URL (`helpers.database_setting`), opened once per server."""
    return Storage(target)


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


def lan_address() -> str:
    """This computer's address on its network (the one a phone reaches it by), or 127.0.0.1 without one."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))  # UDP: nothing is sent, only a route is picked
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def phone_ui(params: dict[str, str] | None = None) -> None:
    """The address to open on a phone at the table, and its QR code; `params` (the game and its table's
    token, `ui.access`) go in the link."""
    https = bool(st.get_option("server.sslCertFile"))
    url = helpers.phone_url(https, lan_address(), int(st.get_option("server.port") or 8501))
    if params:
        url = helpers.table_link(url, params)
    with st.expander("Open on a phone", expanded=False):
        left, right = st.columns([1, 2])
        left.image(helpers.qr_png(url), width=180, caption=url)
        right.markdown(f"On a phone on the same network, scan the code or open **{url}**.")
        if str(st.get_option("server.address") or "") in ("127.0.0.1", "localhost", "::1"):
            right.warning("This server answers only this computer: start it with `scripts/serve-https.sh`.")
        elif https:
            right.caption("The certificate is self-signed: accept the browser's warning once.")
        else:
            right.warning(
                "Phones allow the camera only over https: start the app with `scripts/serve-https.sh`."
            )
