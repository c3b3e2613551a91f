"""The Turn screen: start a turn (the table as it is now is stored), scan the table, end it; the verdict,
how to put an illegal turn back, the turn timer of presets that have one, and the turn history."""

from __future__ import annotations

import time

import streamlit as st

from assistant import slots
from assistant.access import Access
from assistant.errors import InputError
from assistant.rules import Rules
from assistant.storage import Game, Storage, StorageError
from assistant.supply import SupplyError, supply_problems
from assistant.tiles import format_layout, format_tiles, parse_tiles
from assistant.turn import judge_turn
from ui import helpers
from ui.table import table_input_ui


def show(db: Storage, game: Game, rules: Rules, access: Access | None = None) -> None:
    """The screen for a session with `access` (None: one that may record); a viewer sees whose turn it is,
    the table and the verdicts, with no button to start or end a turn."""
    can_write = helpers.may_write(access, game.id)
    turn_ui(db, game, rules, can_write)
    table_input_ui(db, game, rules, can_write)
    turn_result_ui(db, db.load_game(game.id), rules)


def turn_ui(db: Storage, game: Game, rules: Rules, can_write: bool = True) -> None:
    names = {p.seat: p.name for p in game.players}
    pending = game.pending
    if not can_write:
        if pending is None:
            st.info(f"**{names.get(game.turn_seat, '?')}** plays next.")
        else:
            elapsed = time.time() - pending.started_at
            st.info(f"**{names[pending.seat]}** is playing (started {elapsed:.0f} s ago).")
            if rules.turn_seconds:
                timer_ui(pending.started_at, rules.turn_seconds)
        return
    if pending is None:
        with st.container(border=True):
            st.markdown("**Start a turn** — stores the table as it is now.")
            # Follow whose turn it is in the database (another tab may have ended a turn).
            if (
                st.session_state.get("turn_seat_synced") != game.turn_seat
                or st.session_state.get("turn_seat") not in names
            ):
                st.session_state.turn_seat = game.turn_seat
                st.session_state.turn_seat_synced = game.turn_seat
            st.selectbox("Whose turn", list(names), format_func=names.get, key="turn_seat")
            st.text_input("Their rack (optional; blank: every new tile counts as theirs)", key="turn_rack")
            st.button("Start turn", on_click=on_start_turn, args=(db, game, rules), type="primary")
    else:
        elapsed = time.time() - pending.started_at
        st.info(
            f"**{names[pending.seat]}** is playing (started {elapsed:.0f} s ago). "
            "Scan the table, then end the turn."
        )
        if rules.turn_seconds:
            timer_ui(pending.started_at, rules.turn_seconds)
        end, cancel = st.columns(2)
        end.button("End turn", on_click=on_end_turn, args=(db, game, rules), type="primary")
        cancel.button("Cancel turn", on_click=on_cancel_turn, args=(db, game))
    if st.session_state.action_error:
        st.error(st.session_state.action_error)


@st.fragment(run_every=1.0)
def timer_ui(started_at: float, limit: int) -> None:
    left = limit - (time.time() - started_at)
    st.progress(
        max(0.0, min(1.0, left / limit)),
        text=f"{max(0, left):.0f} s left of {limit} s" if left > 0 else f"Time is up ({limit} s)",
    )


def on_start_turn(db: Storage, game: Game, rules: Rules) -> None:
    st.session_state.action_error = None
    rack = st.session_state.get("turn_rack", "")
    try:
        rack_tiles = parse_tiles(rack)
        fresh = db.load_game(game.id)
        table = slots.known_sets(slots.parse_slots(fresh.table_layout))
        # A rack no box could hold (r5 r5 r5 with an r5 on the table) is refused now, not at End turn.
        in_play = [*rack_tiles, *(tile for tiles in table for tile in tiles)]
        too_many = supply_problems(in_play, rules, "the table and the rack")
        if too_many:
            raise SupplyError("; ".join(too_many) + ": check the rack as typed")
        db.start_turn(game.id, st.session_state.turn_seat, fresh.table_layout, rack)
    except (InputError, StorageError) as error:
        st.session_state.action_error = f"Turn not started: {error}"


def on_cancel_turn(db: Storage, game: Game) -> None:
    try:
        db.cancel_turn(game.id)
    except StorageError as error:
        st.session_state.action_error = str(error)


def on_end_turn(db: Storage, game: Game, rules: Rules) -> None:
    st.session_state.action_error = None
    try:
        fresh = db.load_game(game.id)
        pending = fresh.pending
        if pending is None:
            raise StorageError("no turn is running (ended in another tab?)")
        before = slots.known_sets(slots.parse_slots(pending.before))
        after = slots.known_sets(slots.parse_slots(fresh.table_layout))
        rack = parse_tiles(pending.rack) if pending.rack.strip() else helpers.added_tiles(before, after)
        player = fresh.player(pending.seat)
        verdict = judge_turn(before, after, rack, player.opened, rules)
        judged = helpers.judge_time(verdict, pending.started_at, time.time(), rules)
        db.finish_turn(
            game.id,
            pending.started_at,
            after=format_layout(after),
            legal=judged.legal,
            action=verdict.action,
            played=format_tiles(verdict.played),
            reasons=judged.reasons,
            penalty_tiles=judged.penalty_tiles,
            agreed_layout=format_layout(after) if judged.legal else pending.before,
            next_seat=(pending.seat + 1) % len(fresh.players),
            opened=player.opened or (judged.legal and verdict.action == "play"),
            # An illegal turn is put back: the table is the last agreed one again.
            table_layout=None if judged.legal else pending.before,
        )
    except (InputError, StorageError) as error:
        st.session_state.action_error = f"Turn not judged: {error}"


def turn_result_ui(db: Storage, game: Game, rules: Rules) -> None:
    turns = db.turns(game.id)
    if not turns:
        return
    names = {p.seat: p.name for p in game.players}
    last = turns[-1]
    st.subheader(f"Turn {last.number}: {names.get(last.seat, '?')}")
    if last.legal:
        what = f"played {last.played}" if last.action == "play" else "drew a tile (table unchanged)"
        st.success(f"Legal: {what}.")
    else:
        st.error("Not legal. Put the table back as it was:")
        for reason in last.reasons:
            st.markdown(f"- {reason}")
        fix = helpers.put_back(
            slots.known_sets(slots.parse_slots(last.before)),
            slots.known_sets(slots.parse_slots(last.after)),
        )
        for line in fix.lines():
            st.markdown(f"- **{line}**")
        st.warning(f"Penalty: draw {last.penalty_tiles} tile{'s' if last.penalty_tiles != 1 else ''}.")
    with st.expander(f"Turn history ({len(turns)})"):
        st.dataframe(helpers.turn_rows(turns, names), hide_index=True, width="stretch")
