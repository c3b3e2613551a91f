"""The Game screen: every game with its totals, pick the game this tab shows, rename its players, create a
new one (name, rules, players, picture source), the game's link for its table's phone; where the scores are
kept (the server's setting). Picking any game, renaming and new games are the director's; a game's table
sees its own game (the writes are checked again in `assistant.access.GuardedStorage`)."""

from __future__ import annotations

import streamlit as st

from assistant.access import Access
from assistant.errors import InputError
from assistant.names import clean_name
from assistant.rules import HOUSE_RULES, PRESETS, find_preset
from assistant.storage import Game, Storage, StorageError, is_url
from assistant.storage.links import TableLinks
from ui import access as access_ui
from ui import helpers
from ui.common import SOURCES, database_setting, phone_ui, rules_of


def show(db: Storage, game: Game, access: Access, links: TableLinks) -> None:
    if st.session_state.notice:
        st.success(st.session_state.notice)
    game_ui(db, game, access)
    if access.may_record_game(game.id):
        # The phone at this table gets the game's link: it records this game, and only this one.
        phone_ui({"game": str(game.id), access_ui.LINK_PARAM: links.game_token(game.id)})
        if access.director:
            st.button(
                "New link for this game's table",
                help="The old link (a lost phone's) stops working at once; the QR code above is the new one.",
                on_click=on_renew_link,
                args=(links, game),
            )
    else:
        phone_ui()
    setting = database_setting()
    st.caption(
        f"Scores are kept in `{setting.display}` ({setting.source}); "
        + ("copy that file to back them up. " if not is_url(setting.target) else "back up that database. ")
        + "The server sets it: `streamlit run app.py -- --db PATH-OR-URL` or RUMMI_DB."
    )


def games_table_ui(db: Storage) -> None:
    entries = []
    for game_id, _ in db.list_games():
        other = db.load_game(game_id)
        entries.append((other, db.rounds(game_id), rules_of(other)))
    st.markdown("**Games**")
    st.dataframe(helpers.games_rows(entries), hide_index=True, width="stretch")


def players_ui(db: Storage, game: Game) -> None:
    with st.expander("Rename players"):
        with st.form(f"rename_{game.id}"):
            for player in game.players:
                st.text_input(
                    f"Seat {player.seat + 1}", value=player.name, key=f"rename_{game.id}_{player.seat}"
                )
            st.form_submit_button("Save names", on_click=on_rename, args=(db, game))


def on_rename(db: Storage, game: Game) -> None:
    st.session_state.action_error = None
    st.session_state.notice = None
    changed = []
    for player in game.players:
        typed = str(st.session_state.get(f"rename_{game.id}_{player.seat}", player.name))
        try:
            name = clean_name(typed, "every player")  # as stored: no terminal escapes, no bidi overrides
            if name == player.name:
                continue
            db.rename_player(game.id, player.seat, name)  # the director's only (GuardedStorage)
        except (InputError, StorageError) as error:
            st.session_state.action_error = f"{player.name} not renamed: {error}"
            return
        changed.append(f"{player.name} is now {name}")
    st.session_state.notice = ("; ".join(changed) + ".") if changed else None


def on_renew_link(links: TableLinks, game: Game) -> None:
    st.session_state.action_error = None
    st.session_state.notice = None
    try:
        access_ui.current_access(links).check_director("replace a table's link")
        links.renew_game_token(game.id)
    except StorageError as error:
        st.session_state.action_error = f"No new link: {error}"
        return
    st.session_state.notice = f"{game.name} has a new link: the old one no longer records anything."


def game_ui(db: Storage, game: Game, access: Access) -> None:
    games = dict(db.list_games())
    if not access.director:
        games_table_ui(db)
        st.info(
            f"This device is {access.role}. Picking another game, renaming players and new games are the "
            "director's."
        )
        if st.session_state.action_error:
            st.error(st.session_state.action_error)
        return
    st.selectbox(
        "Game",
        list(games),
        format_func=games.get,
        index=list(games).index(game.id),
        key="game_choice",
        on_change=on_game_chosen,
    )
    games_table_ui(db)
    players_ui(db, game)
    with st.form("new_game"):
        st.markdown("**New game**")
        st.text_input("Name", value=f"Table {len(games) + 1}", key="new_name")
        st.selectbox(
            "Rules", list(PRESETS), help="standard 2–4 players; six-player up to 6", key="new_preset"
        )
        st.multiselect("House rules", list(HOUSE_RULES), key="new_variants")
        st.text_input(
            "Players, comma-separated (2–4; up to 6 with six-player)", value="Ann, Ben", key="new_players"
        )
        st.radio("Pictures from", list(SOURCES), format_func=SOURCES.get, horizontal=True, key="new_camera")
        st.form_submit_button("Create game", type="primary", on_click=on_new_game, args=(db,))
    if st.session_state.action_error:
        st.error(st.session_state.action_error)


def on_game_chosen() -> None:
    st.query_params["game"] = str(st.session_state.game_choice)
    st.session_state.photo_key = None
    st.session_state.reading = None


def on_new_game(db: Storage) -> None:
    st.session_state.action_error = None
    state = st.session_state
    name, preset, variants, camera = state.new_name, state.new_preset, state.new_variants, state.new_camera
    try:
        # As stored (`assistant.names`): control characters out, a name of nothing else refused.
        names = [clean_name(n, "every player") for n in state.new_players.split(",") if n.strip()]
        name = clean_name(name, "the game") if name.strip() else "Table"
        rules = find_preset("+".join((preset, *variants)))
        if not rules.min_players <= len(names) <= rules.max_players:
            raise InputError(
                f"{rules.label} is for {rules.min_players}–{rules.max_players} players, not {len(names)}"
            )
        helpers.ledger_of([], names, rules)  # partnership play, repeated names: refused before storing
        game_id = db.create_game(  # the director's only (GuardedStorage)
            name, preset, names, variants=variants, camera=camera
        )
    except (InputError, StorageError) as error:
        st.session_state.action_error = f"Game not created: {error}"
        return
    st.query_params["game"] = str(game_id)
    st.session_state.source = camera
    st.session_state.screen = "Table"
    st.session_state.photo_key = None
    st.session_state.reading = None
