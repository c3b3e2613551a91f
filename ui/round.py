"""The Round screen: each rack at the end of a round, typed or scanned, scored and confirmed; the standings,
the running totals and the scores as CSV."""

from __future__ import annotations

from typing import Any

import streamlit as st

from assistant.errors import InputError
from assistant.rules import Rules
from assistant.scoring import FailedOpening, score_round
from assistant.storage import Game, Storage, StorageError
from assistant.tiles import Tile, format_tiles, parse_tiles
from ui import helpers
from ui.common import photo_bytes_key, tile_reader
from vision import photos


def show(db: Storage, game: Game, rules: Rules) -> None:
    round_ui(db, game, rules)


def round_ui(db: Storage, game: Game, rules: Rules) -> None:
    try:
        round_entry_ui(db, game, rules)
        if st.session_state.action_error:
            st.error(st.session_state.action_error)
        standings_ui(db, game, rules)
    except InputError as error:  # a game stored under rules its players do not fit (e.g. partners)
        st.error(f"This game cannot be scored: {error}")


def round_entry_ui(db: Storage, game: Game, rules: Rules) -> None:
    rounds = db.rounds(game.id)
    ledger = helpers.ledger_of(rounds, [p.name for p in game.players], rules)
    if ledger.finished:
        st.success(f"Match over after {len(rounds)} rounds: {' and '.join(ledger.leaders())} won.")
        return
    number = len(rounds) + 1
    st.subheader(f"Round {number}: racks at the end")
    rack_scan_ui(game, rules)
    racks: dict[str, list[Tile]] = {}
    failed_openings: dict[str, FailedOpening] = {}
    problems: list[str] = []
    for player in game.players:
        text = st.text_input(f"{player.name}'s rack (blank if they went out)", key=f"rack_{player.seat}")
        try:
            racks[player.name] = parse_tiles(text)
        except InputError as error:
            problems.append(f"{player.name}: {error}")
        if rules.failed_opening_penalty and not player.opened:
            could_not, chose_not = rules.failed_opening_penalty
            choice = st.radio(
                f"{player.name} never opened",
                [None, FailedOpening.COULD_NOT, FailedOpening.CHOSE_NOT],
                format_func=lambda c, a=could_not, b=chose_not: {
                    None: "no penalty",
                    FailedOpening.COULD_NOT: f"could not ({a})",
                    FailedOpening.CHOSE_NOT: f"chose not to ({b})",
                }[c],
                horizontal=True,
                key=f"failed_opening_{player.seat}",
            )
            if choice is not None:
                failed_openings[player.name] = choice
    for problem in problems:
        st.error(problem)
    if problems:
        return
    if not any(racks.values()):
        st.caption("Type (or scan) what is left on each rack; leave the winner's blank.")
        return
    try:
        result = score_round(racks, rules, failed_openings)
    except InputError as error:
        st.error(str(error))
        return
    st.caption(
        "Blocked round: nobody went out, the lowest rack wins."
        if result.blocked
        else f"{', '.join(result.winners)} went out."
    )
    st.dataframe(helpers.round_preview_rows(result), hide_index=True, width="stretch")
    st.button(
        f"Confirm round {number}",
        on_click=on_confirm_round,
        args=(db, game, number, racks, result),
        type="primary",
    )


def rack_scan_ui(game: Game, rules: Rules) -> None:
    with st.expander("Scan a rack instead of typing it"):
        names = {p.seat: p.name for p in game.players}
        seat = st.selectbox("Whose rack", list(names), format_func=names.get, key="scan_seat")
        photo = st.file_uploader("Photo of the rack", key="rack_photo")
        if photo is None:
            return
        key = photo_bytes_key(f"rack{seat}", photo.getvalue())
        if st.session_state.get("rack_photo_key") == key:
            return
        st.session_state.rack_photo_key = key
        try:
            frame = photos.decode_photo(photo.getvalue(), repr(photo.name))
            reading = photos.read_photo(frame, tile_reader(), rules)
        except Exception as error:  # a bad photo or a model failure leaves the typed racks alone
            st.error(str(error))
            return
        tiles = [t for s in reading.layout.table for t in s] + [t for r in reading.layout.racks for t in r]
        st.session_state[f"rack_{seat}"] = " ".join(p.token for p in tiles)


def on_confirm_round(db: Storage, game: Game, number: int, racks: dict[str, list[Tile]], result: Any) -> None:
    st.session_state.action_error = None
    seats = {p.name: p.seat for p in game.players}
    try:
        db.record_round(
            game.id,
            number,
            blocked=result.blocked,
            racks={seats[name]: format_tiles(tiles) for name, tiles in racks.items()},
            rack_values={seats[name]: value for name, value in result.rack_values.items()},
            scores={seats[name]: score for name, score in result.scores.items()},
            winners={seats[name] for name in result.winners},
        )
    except StorageError as error:
        st.session_state.action_error = f"Round not recorded: {error}"
        return
    for seat in seats.values():
        st.session_state[f"rack_{seat}"] = ""


def standings_ui(db: Storage, game: Game, rules: Rules) -> None:
    rounds = db.rounds(game.id)
    if not rounds:
        return
    st.subheader("Standings")
    names = [p.name for p in game.players]
    st.dataframe(helpers.standings_rows(rounds, names, rules), hide_index=True, width="stretch")
    st.line_chart(helpers.running_totals(rounds, names), x="round", x_label="round", y_label="total score")
    with st.expander(f"Rounds ({len(rounds)})"):
        st.dataframe(helpers.round_rows(rounds, names), hide_index=True, width="stretch")
    st.download_button(
        "Download scores (CSV)", db.export_csv(game.id), file_name=f"{game.name}-scores.csv", mime="text/csv"
    )
