"""The Round screen: each rack at the end of a round, typed or read from photos of the racks (tap a tile to
fix it), scored and confirmed; the standings, the running totals, undoing the last round, the scores as CSV.

The rack boxes are keyed by the round's number, so a tab that was left open on a round another tab has
confirmed shows the next round empty instead of offering the same racks again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from assistant.access import Access
from assistant.errors import InputError
from assistant.rules import Rules, rack_value
from assistant.scoring import FailedOpening, RoundResult, score_round
from assistant.slots import Slot
from assistant.storage import Game, Player, Storage, StorageError
from assistant.tiles import Tile
from ui import helpers
from ui.common import photo_bytes_key, tile_markup, tile_reader
from ui.table import any_tile_ui, tile_choice_markup
from vision import photos

RecordElsewhere = Callable[[int, int, Mapping[str, str], Mapping[str, FailedOpening]], str]
"""Also records a confirmed round elsewhere (a tournament table's game: at its tournament table):
`(game_id, number, racks, failed_openings)`, returns what was done; raises InputError or StorageError."""


def show(
    db: Storage,
    game: Game,
    rules: Rules,
    access: Access | None = None,
    record_elsewhere: RecordElsewhere | None = None,
) -> None:
    """The screen for a session with `access` (None: one that may record, and undo): a viewer sees the
    standings, not the racks to enter; undoing a round is the director's. `record_elsewhere`: see its type."""
    can_write = helpers.may_write(access, game.id)
    round_ui(db, game, rules, can_write, access is None or access.director, record_elsewhere)


def rack_key(number: int, seat: int) -> str:
    return f"rack_{number}_{seat}"


def round_ui(
    db: Storage,
    game: Game,
    rules: Rules,
    can_write: bool = True,
    can_undo: bool = True,
    record_elsewhere: RecordElsewhere | None = None,
) -> None:
    if st.session_state.notice:
        st.success(st.session_state.notice)
    try:
        round_entry_ui(db, game, rules, can_write, record_elsewhere)
        if st.session_state.action_error:
            st.error(st.session_state.action_error)
        standings_ui(db, game, rules, can_undo, record_elsewhere is not None)
    except InputError as error:  # a game stored under rules its players do not fit (e.g. partners)
        st.error(f"This game cannot be scored: {error}")


def round_entry_ui(
    db: Storage,
    game: Game,
    rules: Rules,
    can_write: bool = True,
    record_elsewhere: RecordElsewhere | None = None,
) -> None:
    rounds = db.rounds(game.id)
    ledger = helpers.ledger_of(rounds, [p.name for p in game.players], rules)
    if ledger.finished:
        st.success(f"Match over after {len(rounds)} rounds: {' and '.join(ledger.leaders())} won.")
        return
    number = rounds[-1].number + 1 if rounds else 1
    st.subheader(f"Round {number}: racks at the end")
    if not can_write:  # a viewer: no racks to type that the server would refuse
        st.caption(helpers.VIEW_ONLY)
        return
    rack_photos_ui(game, rules, number)
    racks: dict[str, list[Slot]] = {}
    failed_openings: dict[str, FailedOpening] = {}
    problems: list[str] = []
    for player in game.players:
        key = rack_key(number, player.seat)
        st.session_state.setdefault(key, "")
        text = st.text_input(f"{player.name}'s rack (blank if they went out)", key=key)
        try:
            racks[player.name] = helpers.parse_rack(text)
        except InputError as error:
            problems.append(f"{player.name}: {error}")
        else:
            rack_tiles_ui(number, player, racks[player.name], rules)
        choice = failed_opening_ui(player, rules)
        if choice is not None:
            failed_openings[player.name] = choice
    for problem in problems:
        st.error(problem)
    if problems:
        return
    waiting = helpers.racks_still_to_enter(racks)
    if waiting:
        st.caption(waiting)
        return
    tiles: dict[str, list[Tile]] = {name: [t for t in rack if t is not None] for name, rack in racks.items()}
    try:
        result = score_round(tiles, rules, failed_openings)
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
        args=(db, game, number, rules, record_elsewhere),
        type="primary",
    )


def failed_opening_ui(player: Player, rules: Rules) -> FailedOpening | None:
    if not rules.failed_opening_penalty or player.opened:
        return None
    could_not, chose_not = rules.failed_opening_penalty
    return st.radio(
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


def rack_photos_ui(game: Game, rules: Rules, number: int) -> None:
    """Photos of the racks: one per player (in seat order from the chosen player), or one photo showing
    several racks; each rack read fills in a player's box, to be checked and fixed tile by tile."""
    names = {p.seat: p.name for p in game.players}
    with st.expander("Read the racks from photos", expanded=True):
        first = st.selectbox(
            "First rack belongs to", list(names), format_func=names.get, key=f"rack_first_{number}"
        )
        shots = st.file_uploader(
            "Photos of the racks (each player's, or one showing several racks; on a phone: take a photo)",
            type=["jpg", "jpeg", "png", "webp"],
            accept_multiple_files=True,
            key=f"rack_photos_{number}",
        )
        if not shots:
            st.caption("Racks are given to the players in seat order, from the player chosen above.")
            return
        key = photo_bytes_key(f"racks{number}:{first}", b"".join(s.getvalue() for s in shots))
        if st.session_state.get("rack_photos_key") != key:
            st.session_state.rack_photos_key = key
            st.session_state.rack_photos_report = read_rack_photos(game, rules, number, first, shots)
        for line in st.session_state.get("rack_photos_report") or []:
            (st.warning if line.startswith("!") else st.caption)(line.lstrip("! "))


def read_rack_photos(game: Game, rules: Rules, number: int, first: int, shots: list[Any]) -> list[str]:
    """Read every photo's racks and fill in the players' boxes; returns what was done, one line each
    (lines starting with `!` are warnings)."""
    report: list[str] = []
    found: list[photos.RackReading] = []
    for shot in shots:
        try:
            frame = photos.decode_photo(shot.getvalue(), repr(shot.name))
            reading = photos.read_photo(frame, tile_reader(), rules)
        except photos.PhotoError as error:
            report.append(f"! {error}")
            continue
        except Exception as error:  # a model failure leaves the typed racks alone
            report.append(f"! {shot.name}: the tiles could not be read ({type(error).__name__}: {error})")
            continue
        racks = reading.racks()
        if not racks:
            report.append(f"! no tiles seen in {shot.name!r}: is the rack in the picture?")
        found.extend(racks)
    seats = [p.seat for p in game.players]
    assigned, left_over = helpers.assign_racks(len(found), seats, first)
    names = {p.seat: p.name for p in game.players}
    read = []
    for seat, rack in zip(assigned, found, strict=False):
        st.session_state[rack_key(number, seat)] = rack.text
        st.session_state[f"rack_read_{number}_{seat}"] = rack
        read.append(f"{names[seat]} {len(rack.tiles)}")
    if left_over:
        report.append(f"! {left_over} more rack(s) than players: left out")
    if read:
        report.append(f"Tiles read: {', '.join(read)}. Check each rack below; tap a tile to fix it.")
    return report


def rack_tiles_ui(number: int, player: Player, rack: list[Slot], rules: Rules) -> None:
    """The rack's tiles as buttons with its points; tap a tile, then what it really is (two taps)."""
    if not rack:
        return
    text = helpers.format_rack(rack)
    unread = sum(t is None for t in rack)
    # Doubtful tiles (still as read) are counted apart, as `rummi read` counts them: "38 points + 2 doubtful".
    as_read: photos.RackReading | None = st.session_state.get(f"rack_read_{number}_{player.seat}")
    doubtful = as_read.doubtful if as_read is not None and as_read.doubtful_count(text) else ()
    known = [t for k, t in enumerate(rack) if t is not None and not (k < len(doubtful) and doubtful[k])]
    points = helpers.counted(rack_value(known, rules), "point")
    not_read = f", {helpers.counted(unread, 'tile')} not read" if unread else ""
    not_read += f" + {sum(doubtful)} doubtful" if any(doubtful) else ""
    key = f"rack_pick_{number}_{player.seat}_{hashlib.sha1(text.encode()).hexdigest()[:8]}"
    st.pills(
        f"{player.name}: {helpers.counted(len(rack), 'tile')} · {points}{not_read}",
        options=list(range(len(rack))),
        format_func=lambda position: tile_markup(rack[position]),
        key=key,
        on_change=on_rack_tile_picked,
        args=(number, player.seat, key, text),
    )
    selected = st.session_state.get("rack_selected")
    if selected is None or selected[:2] != (number, player.seat) or selected[3] != text:
        return
    position = selected[2]
    if position >= len(rack):
        return
    reading: photos.RackReading | None = st.session_state.get(f"rack_read_{number}_{player.seat}")
    likely = helpers.rack_likely(reading, text, position)
    with st.container(border=True):
        st.markdown(
            f"**{player.name}, tile {position + 1}** reads {tile_markup(rack[position])}: what is it?"
        )
        if likely:
            st.pills(
                "Likely",
                [str(t) for t in likely],
                format_func=tile_choice_markup,
                key="rack_fix_likely",
                on_change=on_rack_tile_fixed,
                args=("rack_fix_likely",),
            )
        any_tile_ui("rack_fix_any", rules, on_rack_tile_fixed, lambda key: (key,))


def on_rack_tile_picked(number: int, seat: int, key: str, text: str) -> None:
    position = st.session_state.get(key)
    st.session_state.rack_selected = None if position is None else (number, seat, position, text)


def on_rack_tile_fixed(key: str) -> None:
    choice = st.session_state.get(key)
    selected = st.session_state.get("rack_selected")
    if choice is None or selected is None:
        return
    number, seat, position, text = selected
    tile = None if choice == "remove" else Tile.parse(choice)
    try:
        st.session_state[rack_key(number, seat)] = helpers.replace_in_rack(text, position, tile)
    except InputError as error:
        st.session_state.action_error = str(error)
    st.session_state.rack_selected = None


def round_as_typed(
    game: Game, number: int, rules: Rules
) -> tuple[dict[str, list[Tile]], RoundResult, dict[str, FailedOpening]]:
    """The racks as the boxes hold them now, scored, and the failed openings chosen. A box typed into
    without Enter is sent with the button's click, so the racks drawn with the button may be out of date;
    these never are.

    Raises:
        InputError: a rack cannot be read, a tile is unread, or a rack is still to enter.
    """
    racks: dict[str, list[Slot]] = {}
    failed_openings: dict[str, FailedOpening] = {}
    for player in game.players:
        try:
            racks[player.name] = helpers.parse_rack(st.session_state.get(rack_key(number, player.seat), ""))
        except InputError as error:
            raise InputError(f"{player.name}: {error}") from error
        if rules.failed_opening_penalty and not player.opened:
            choice = st.session_state.get(f"failed_opening_{player.seat}")
            if choice is not None:
                failed_openings[player.name] = choice
    waiting = helpers.racks_still_to_enter(racks)
    if waiting:
        raise InputError(waiting)
    tiles = {name: [t for t in rack if t is not None] for name, rack in racks.items()}
    return tiles, score_round(tiles, rules, failed_openings), failed_openings


def on_confirm_round(
    db: Storage, game: Game, number: int, rules: Rules, record_elsewhere: RecordElsewhere | None = None
) -> None:
    st.session_state.action_error = None
    st.session_state.notice = None
    seats = {p.name: p.seat for p in game.players}
    try:
        racks, result, failed = round_as_typed(game, number, rules)
    except InputError as error:
        st.session_state.action_error = f"Round not recorded: {error}"
        return
    elsewhere = ""
    if record_elsewhere is not None:
        # First where it counts for the standings; sent again, it counts once there.
        try:
            elsewhere = " " + record_elsewhere(
                game.id, number, {name: helpers.format_rack(tiles) for name, tiles in racks.items()}, failed
            )
        except (InputError, StorageError) as error:
            st.session_state.action_error = f"Round not recorded: {error}. The racks are still here."
            return
    try:
        db.record_round(
            game.id,
            number,
            blocked=result.blocked,
            racks={seats[name]: helpers.format_rack(tiles) for name, tiles in racks.items()},
            rack_values={seats[name]: value for name, value in result.rack_values.items()},
            scores={seats[name]: score for name, score in result.scores.items()},
            winners={seats[name] for name in result.winners},
        )
    except StorageError as error:
        st.session_state.action_error = (
            f"Round not recorded: {error}. The racks typed here were left out: "
            "the standings below are what is stored."
            + (f" At the tournament:{elsewhere}" if elsewhere else "")
        )
        return
    st.session_state.notice = helpers.round_recorded_notice(number, result) + elsewhere
    st.session_state.rack_selected = None


def standings_ui(
    db: Storage, game: Game, rules: Rules, can_undo: bool = True, in_tournament: bool = False
) -> None:
    rounds = db.rounds(game.id)
    if not rounds:
        return
    st.subheader("Standings")
    names = [p.name for p in game.players]
    st.dataframe(helpers.standings_rows(rounds, names, rules), hide_index=True, width="stretch")
    totals_chart_ui(rounds, names)
    with st.expander(f"Rounds ({len(rounds)})"):
        st.dataframe(helpers.round_rows(rounds, names), hide_index=True, width="stretch")
    if can_undo:  # the director's (GuardedStorage checks again)
        undo_ui(db, game, rounds[-1], in_tournament)
    st.download_button(
        "Download scores (CSV)", db.export_csv(game.id), file_name=f"{game.name}-scores.csv", mime="text/csv"
    )


def totals_chart_ui(rounds: list[Any], names: list[str]) -> None:
    import altair as alt
    import pandas as pd

    data = pd.DataFrame(helpers.running_total_rows(rounds, names))
    chart = (
        alt.Chart(data)
        .mark_line(point=True)
        .encode(
            # Rounds are whole numbers: an ordinal axis never shows "1.000000" or half rounds.
            x=alt.X("round:O", title="round", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("total:Q", title="total score"),
            color=alt.Color("player:N", title=None, sort=names),
        )
        .properties(height=220)
    )
    st.altair_chart(chart, width="stretch")


def undo_ui(db: Storage, game: Game, last: Any, in_tournament: bool = False) -> None:
    with st.expander(f"Undo round {last.number}"):
        st.caption(
            f"Removes round {last.number} ({helpers.round_summary(last)}) from the scores; its racks come "
            "back above, to fix and confirm again. Download the CSV first to keep a copy."
            + (" The tournament keeps the game it recorded." if in_tournament else "")
        )
        sure = st.checkbox(f"Yes, remove round {last.number}", key=f"undo_sure_{last.number}")
        st.button(
            f"Undo round {last.number}",
            disabled=not sure,
            on_click=on_undo_round,
            args=(db, game, last.number),
        )


def on_undo_round(db: Storage, game: Game, number: int) -> None:
    st.session_state.action_error = None
    st.session_state.notice = None
    try:
        record = db.undo_round(game.id, number)
    except StorageError as error:
        st.session_state.action_error = f"Nothing undone: {error}"
        return
    for score in record.scores:
        st.session_state[rack_key(number, score.seat)] = score.rack
    st.session_state.notice = f"Round {number} undone: its racks are back in the boxes to fix and confirm."
