"""Rummikub table assistant: check the table from a photo, judge a disputed turn, score rounds.

Run with `streamlit run app.py`. This file holds widgets and session state only; the rules are in
`assistant/`, pixels in `vision/`, and everything confirmed is stored in SQLite (`assistant.storage`), read
again on every run so several tabs on one game see the same state.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

import streamlit as st

from assistant.errors import InputError
from assistant.meld import check_meld
from assistant.rules import HOUSE_RULES, PRESETS, Rules, find_preset
from assistant.scoring import FailedOpening, score_round
from assistant.sets import check_set
from assistant.storage import Game, Storage, StorageError, default_db_path
from assistant.table import check_table, count_problems
from assistant.tiles import Tile, format_layout, format_tiles, parse_tiles
from assistant.turn import judge_turn
from ui import helpers as support

SCREENS = ("Table", "Turn", "Round", "Game")
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

st.set_page_config(page_title="Rummikub table assistant", page_icon="🟥", layout="wide")
# Less empty space above the title, which matters most on a phone.
st.html("<style>[data-testid='stMainBlockContainer']{padding-top:2.5rem}</style>")

SESSION_DEFAULTS: dict[str, Any] = {
    "db_path": str(default_db_path()),
    "screen": SCREENS[0],
    "photo_key": None,  # the photo last read in this tab, so each photo is read once
    "reading": None,  # its support.PhotoReading
    "photo_error": None,
    "layout_text": "",  # the layout editor's text
    "layout_synced": None,  # the stored layout last copied into the editor
    "layout_error": None,
    "selected_slot": None,  # (set, position, layout) of the tile picked for a fix
    "action_error": None,  # a refused button press (storage conflict, unread tiles)
    "photo_chosen": False,  # the source was just changed: its photo replaces the stored table
}
for _key, _value in SESSION_DEFAULTS.items():
    st.session_state.setdefault(_key, _value)


@st.cache_resource(show_spinner="Loading the tile reader…")
def tile_reader() -> Any:
    return support.load_tile_reader()


@st.cache_resource
def open_storage(path: str) -> Storage:
    return Storage(path)


# Helpers that only move values between widgets, session state and the database ----------------------------


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


def store_layout(db: Storage, game_id: int, text: str, photo: str | None = None) -> None:
    db.set_table_layout(game_id, text, photo=photo)
    st.session_state.layout_text = text
    st.session_state.layout_synced = text
    st.session_state.selected_slot = None


def on_layout_typed(db: Storage, game_id: int) -> None:
    try:
        text = support.format_slots(support.parse_slots(st.session_state.layout_text))
        store_layout(db, game_id, text)
        st.session_state.layout_error = None
    except (InputError, StorageError) as error:
        st.session_state.layout_error = str(error)


def on_tile_picked(set_index: int, key: str, layout: str) -> None:
    position = st.session_state.get(key)
    st.session_state.selected_slot = None if position is None else (set_index, position, layout)


def on_tile_fixed(db: Storage, game_id: int, key: str) -> None:
    choice = st.session_state.get(key)
    selected = st.session_state.selected_slot
    if choice is None or selected is None:
        return
    set_index, position, layout = selected
    tile = None if choice == "remove" else Tile.parse(choice)
    try:
        store_layout(db, game_id, support.replace_slot(layout, set_index, position, tile))
    except (InputError, StorageError) as error:
        st.session_state.layout_error = str(error)


def tile_markup(slot: support.Slot) -> str:
    if slot is None:
        return "**?**"
    if slot.color is None:
        return "**J**"
    return COLOR_MARKUP[slot.color.letter].format(slot.number)


def photo_bytes_key(source: str, data: bytes) -> str:
    return f"{source}:{hashlib.sha1(data).hexdigest()}"


def read_new_photo(db: Storage, game: Game, rules: Rules, source: str, data: bytes, name: str) -> None:
    """Read a photo this tab has not read yet; a bad photo keeps the table as it was."""
    key = photo_bytes_key(source, data)
    if key == st.session_state.photo_key:
        return
    st.session_state.photo_key = key
    try:
        frame = support.decode_photo(data, name)
        with st.spinner("Reading the tiles…"):
            reading = support.read_photo(frame, tile_reader(), rules)
    except support.PhotoError as error:
        st.session_state.photo_error = str(error)
        return
    except Exception as error:  # a model that fails to load or run must not lose the game's state
        st.session_state.photo_error = f"the tiles could not be read ({type(error).__name__}: {error})"
        return
    st.session_state.photo_error = None
    st.session_state.reading = reading
    if reading.tiles_seen == 0:
        st.session_state.photo_error = f"no tiles seen in {name}: is the table in the picture?"
        return
    # The same photo in another tab (or after a reload) must not undo corrections made since.
    if game.table_photo != key or st.session_state.photo_chosen:
        store_layout(db, game.id, reading.table_text, photo=key)
    st.session_state.photo_chosen = False


def slots_now(game: Game) -> list[list[support.Slot]]:
    try:
        return support.parse_slots(game.table_layout)
    except InputError:
        return []


# Screens ---------------------------------------------------------------------------------------------------


def header_ui(game: Game, rules: Rules) -> str:
    st.markdown(f"#### {game.name} · {rules.label}")
    return st.radio("Screen", SCREENS, key="screen", horizontal=True, label_visibility="collapsed")


def photo_source_ui(db: Storage, game: Game, rules: Rules) -> None:
    sources = [s for s in SOURCES if s != "live" or support.live_video_available()]
    st.session_state.setdefault("source", game.camera if game.camera in sources else "example")
    source = st.radio(
        "Picture from",
        sources,
        format_func=SOURCES.get,
        key="source",
        horizontal=True,
        on_change=on_source_chosen,
    )
    data, name = None, "the photo"
    if source == "example":
        try:
            data, name = support.load_example_photo(), "the example photo"
        except support.PhotoError as error:
            st.session_state.photo_error = str(error)
    elif source == "camera":
        shot = st.camera_input("Photo of the table", key="camera_photo")
        if shot is not None:
            data, name = shot.getvalue(), "the camera photo"
    elif source == "upload":
        upload = st.file_uploader("Photo of the table", key="upload_photo")
        if upload is not None:
            data, name = upload.getvalue(), repr(upload.name)
    elif source == "live":
        live_frame = live_video_ui(rules)
        if live_frame is not None:
            data, name = live_frame, "the video frame"
    if data is not None:
        read_new_photo(db, game, rules, source, data, name)
    if st.session_state.photo_error:
        st.error(st.session_state.photo_error + " — the table below is kept as it was.")


def on_source_chosen() -> None:
    st.session_state.photo_error = None
    st.session_state.photo_key = None
    st.session_state.photo_chosen = True


def live_video_ui(rules: Rules) -> bytes | None:
    """The webcam stream with the verdict drawn on each frame (needs the optional streamlit-webrtc).

    Returns the latest frame as JPEG when "Check this frame" is pressed, to correct and judge it below.
    """
    import av
    from streamlit_webrtc import webrtc_streamer

    try:
        reader = tile_reader()
    except Exception as error:
        st.error(f"the tile reader is not available: {error}")
        return None
    latest = st.session_state.setdefault("live_latest", support.LatestFrame())

    def on_frame(frame: Any) -> Any:  # runs in the stream's thread, not in the script
        image = frame.to_ndarray(format="bgr24")
        latest.put(image)
        return av.VideoFrame.from_ndarray(support.live_overlay(image, reader, rules), format="bgr24")

    try:
        streamer = webrtc_streamer(
            key="live_video",
            video_frame_callback=on_frame,
            media_stream_constraints={"video": True, "audio": False},
        )
    except Exception as error:  # the stream needs a live server session; without one, say so and carry on
        st.error(f"live video is not available here ({type(error).__name__}: {error}); use Camera or Upload")
        return None
    if not streamer.state.playing:
        st.caption("Press START to stream the camera; if it disconnects, the table below stays as it was.")
        return None
    if st.button("Check this frame", help="Freeze the latest frame to correct and judge it below"):
        return latest.jpeg()
    return None


def picture_ui(sets: list[list[support.Slot]], verdicts: list[bool | None]) -> None:
    reading: support.PhotoReading | None = st.session_state.reading
    if reading is None:
        return
    same = support.same_shape(sets, reading.layout)
    doubtful = support.doubts(reading, sets)
    st.image(support.annotate(reading, verdicts if same else [], doubtful if same else []), width="stretch")
    racks = sum(len(r) for r in reading.layout.racks)
    seen = f"{reading.tiles_seen} tiles seen" + (f" ({racks} on racks)" if racks else "")
    st.caption(seen + ("" if same else " · the layout was edited: boxes show the photo as read"))


def set_verdicts(sets: list[list[support.Slot]], rules: Rules) -> list[Any]:
    """check_set for every fully read set, None for a set with a ? in it."""
    return [None if any(t is None for t in tiles) else check_set(tiles, rules) for tiles in sets]  # type: ignore[arg-type]


def verdict_ui(
    db: Storage, game: Game, sets: list[list[support.Slot]], verdicts: list[Any], rules: Rules, layout: str
) -> None:
    """One row per set: its verdict, and its tiles as buttons; tap a tile, then tap what it really is."""
    unread = support.unread_count(sets)
    if not sets:
        st.info("The table is empty. Take a photo, upload one, or type the layout.")
        return
    problems: list[str] = []
    if not unread:
        known = support.known_sets(sets)
        table = check_table(known, rules)
        problems = count_problems((tile for tiles in known for tile in tiles), rules)
        if table.valid:
            sets_text = "1 set" if len(sets) == 1 else f"{len(sets)} sets"
            st.success(f"Table valid: {sets_text}, {sum(map(len, sets))} tiles, {table.value} points.")
        else:
            bad = sum(1 for v in verdicts if v is not None and not v.valid)
            st.error(
                f"Table not valid: {bad} of {len(sets)} sets break the rules."
                if bad and len(sets) > 1
                else "Table not valid: the set breaks the rules."
                if bad
                else "Table not valid."
            )
    else:
        st.warning(f"{unread} tile(s) not read (?): tap each one below and pick what it is.")
    for problem in problems:
        st.error(problem)
    doubtful = {(d.set_index, d.position): d for d in support.doubts(st.session_state.reading, sets)}
    read_doubts = [d for d in doubtful.values() if d.read is not None]
    if 0 < len(read_doubts) <= 3:
        st.warning("Check: " + "; ".join(d.describe() for d in read_doubts) + ". Tap a tile to fix it.")
    elif read_doubts:
        st.warning(f"Check the {len(read_doubts)} doubtful tiles (marked ?): tap one to fix it.")
    for index, (tiles, verdict) in enumerate(zip(sets, verdicts, strict=True)):
        if verdict is None:
            mark, text = UNJUDGED_MARK, "not judged: a tile is not read"
        else:
            mark, text = (
                (VALID_MARK, support.set_label(verdict))
                if verdict.valid
                else (INVALID_MARK, support.set_label(verdict))
            )
        key = f"pick_{index}_{hashlib.sha1(layout.encode()).hexdigest()[:8]}"
        st.pills(
            f"{mark} Set {index + 1}: {text}",
            options=list(range(len(tiles))),
            format_func=lambda position, tiles=tiles, index=index: (
                f":orange-background[{tile_markup(tiles[position])}?]"
                if (index, position) in doubtful
                else tile_markup(tiles[position])
            ),
            key=key,
            on_change=on_tile_picked,
            args=(index, key, layout),
        )
        selected = st.session_state.selected_slot
        if selected is not None and selected[0] == index:
            tile_fix_ui(db, game, sets, layout)  # right under the tapped tile, where a phone user looks


def tile_fix_ui(db: Storage, game: Game, sets: list[list[support.Slot]], layout: str) -> None:
    selected = st.session_state.selected_slot
    if selected is None or selected[2] != layout:
        return
    set_index, position, _ = selected
    if not (set_index < len(sets) and position < len(sets[set_index])):
        return
    current = sets[set_index][position]
    reading: support.PhotoReading | None = st.session_state.reading
    same = reading is not None and support.same_shape(sets, reading.layout)
    offered = support.choices_for(reading, same, set_index, position)
    with st.container(border=True):
        st.markdown(f"**Set {set_index + 1}, tile {position + 1}** reads {tile_markup(current)}: what is it?")
        notes = [
            d.note
            for d in support.doubts(reading, sets)
            if (d.set_index, d.position) == (set_index, position)
        ]
        if notes and notes[0]:
            st.caption(notes[0])
        if offered:
            st.pills(
                "Likely",
                [str(t) for t in offered],
                format_func=lambda t: tile_markup(Tile.parse(t)),
                key="fix_likely",
                on_change=on_tile_fixed,
                args=(db, game.id, "fix_likely"),
            )
        st.pills(
            "Any tile",
            [str(t) for t in support.TILE_CHOICES] + ["remove"],
            format_func=lambda t: ":material/delete: remove" if t == "remove" else tile_markup(Tile.parse(t)),
            key="fix_any",
            on_change=on_tile_fixed,
            args=(db, game.id, "fix_any"),
        )


def layout_editor_ui(db: Storage, game: Game) -> None:
    if st.session_state.layout_synced != game.table_layout:
        st.session_state.layout_text = game.table_layout
        st.session_state.layout_synced = game.table_layout
    with st.expander("Edit the layout as text", expanded=st.session_state.source == "type"):
        st.text_area(
            "Sets split by |, tiles by spaces (r5 red 5, k black, b blue, o orange, J joker, ? unread)",
            key="layout_text",
            on_change=on_layout_typed,
            args=(db, game.id),
        )
    if st.session_state.layout_error:
        st.error(st.session_state.layout_error)


def table_input_ui(db: Storage, game: Game, rules: Rules) -> list[list[support.Slot]]:
    """Photo or text in, verdicts out; returns the table as it stands now."""
    photo_source_ui(db, game, rules)
    game = db.load_game(game.id)  # a photo read this run may have changed the stored table
    sets = slots_now(game)
    verdicts = set_verdicts(sets, rules)
    # While typing there is no photo, and the live video shows its own verdicts.
    has_picture = st.session_state.reading is not None and st.session_state.source not in ("type", "live")
    picture, verdict_column = st.columns([3, 2]) if has_picture else (st.container(), st.container())
    if has_picture:
        with picture:
            picture_ui(sets, [None if v is None else v.valid for v in verdicts])
    with verdict_column:
        verdict_ui(db, game, sets, verdicts, rules, game.table_layout)
    layout_editor_ui(db, game)
    return sets


def meld_ui(game: Game, sets: list[list[support.Slot]], rules: Rules) -> None:
    with st.expander(f"Opening meld check ({rules.opening_threshold} points)"):
        meld_check_ui(game, sets, rules)


def meld_check_ui(game: Game, sets: list[list[support.Slot]], rules: Rules) -> None:
    try:
        agreed = support.parse_slots(game.agreed_layout)
    except InputError:
        agreed = []
    new = support.new_set_indexes(agreed, sets)
    chosen = st.multiselect(
        "Sets put down from the rack",
        list(range(len(sets))),
        default=new,
        format_func=lambda i: f"Set {i + 1}: {support.format_slots([sets[i]])}",
        key=f"meld_sets_{game.table_layout}",
    )
    if not chosen:
        st.caption(
            f"Pick the sets a player put down to open; together they need {rules.opening_threshold} points."
        )
        return
    try:
        meld = check_meld(support.known_sets([sets[i] for i in chosen]), rules)
    except InputError as error:
        st.warning(str(error))
        return
    enough = meld.value >= meld.threshold
    st.metric(
        "Meld value",
        f"{meld.value} / {meld.threshold}",
        "enough" if enough else "not enough",
        delta_color="normal" if enough else "inverse",
    )
    for line in support.meld_lines(meld):
        st.markdown(line)


def turn_ui(db: Storage, game: Game, rules: Rules) -> None:
    names = {p.seat: p.name for p in game.players}
    pending = game.pending
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
            st.button("Start turn", on_click=on_start_turn, args=(db, game), type="primary")
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


def on_start_turn(db: Storage, game: Game) -> None:
    st.session_state.action_error = None
    rack = st.session_state.get("turn_rack", "")
    try:
        parse_tiles(rack)
        fresh = db.load_game(game.id)
        support.known_sets(support.parse_slots(fresh.table_layout))
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
        before = support.known_sets(support.parse_slots(pending.before))
        after = support.known_sets(support.parse_slots(fresh.table_layout))
        rack = parse_tiles(pending.rack) if pending.rack.strip() else support.added_tiles(before, after)
        player = fresh.player(pending.seat)
        verdict = judge_turn(before, after, rack, player.opened, rules)
        judged = support.judge_time(verdict, pending.started_at, time.time(), rules)
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
        fix = support.put_back(
            support.known_sets(support.parse_slots(last.before)),
            support.known_sets(support.parse_slots(last.after)),
        )
        for line in fix.lines():
            st.markdown(f"- **{line}**")
        st.warning(f"Penalty: draw {last.penalty_tiles} tile{'s' if last.penalty_tiles != 1 else ''}.")
    with st.expander(f"Turn history ({len(turns)})"):
        st.dataframe(support.turn_rows(turns, names), hide_index=True, width="stretch")


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
    ledger = support.ledger_of(rounds, [p.name for p in game.players], rules)
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
    st.dataframe(support.round_preview_rows(result), hide_index=True, width="stretch")
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
            frame = support.decode_photo(photo.getvalue(), repr(photo.name))
            reading = support.read_photo(frame, tile_reader(), rules)
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
    st.dataframe(support.standings_rows(rounds, names, rules), hide_index=True, width="stretch")
    st.line_chart(support.running_totals(rounds, names), x="round", x_label="round", y_label="total score")
    with st.expander(f"Rounds ({len(rounds)})"):
        st.dataframe(support.round_rows(rounds, names), hide_index=True, width="stretch")
    st.download_button(
        "Download scores (CSV)", db.export_csv(game.id), file_name=f"{game.name}-scores.csv", mime="text/csv"
    )


def game_ui(db: Storage, game: Game) -> None:
    games = dict(db.list_games())
    st.selectbox(
        "Game",
        list(games),
        format_func=games.get,
        index=list(games).index(game.id),
        key="game_choice",
        on_change=on_game_chosen,
    )
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
    st.text_input("Database file (also set by the RUMMI_DB environment variable)", key="db_path")


def on_game_chosen() -> None:
    st.query_params["game"] = str(st.session_state.game_choice)
    st.session_state.photo_key = None
    st.session_state.reading = None


def on_new_game(db: Storage) -> None:
    st.session_state.action_error = None
    state = st.session_state
    name, preset, variants, camera = state.new_name, state.new_preset, state.new_variants, state.new_camera
    names = [n.strip() for n in state.new_players.split(",") if n.strip()]
    try:
        rules = find_preset("+".join((preset, *variants)))
        if not rules.min_players <= len(names) <= rules.max_players:
            raise InputError(
                f"{rules.label} is for {rules.min_players}–{rules.max_players} players, not {len(names)}"
            )
        support.ledger_of([], names, rules)  # partnership play, repeated names: refused before storing
        game_id = db.create_game(name or "Table", preset, names, variants=variants, camera=camera)
    except (InputError, StorageError) as error:
        st.session_state.action_error = f"Game not created: {error}"
        return
    st.query_params["game"] = str(game_id)
    st.session_state.source = camera
    st.session_state.screen = "Table"
    st.session_state.photo_key = None
    st.session_state.reading = None


# The page --------------------------------------------------------------------------------------------------

try:
    storage = open_storage(st.session_state.db_path)
    game = current_game(storage)
except StorageError as error:
    st.error(f"The game database cannot be used: {error}")
    st.text_input("Database file (also set by the RUMMI_DB environment variable)", key="db_path")
    st.stop()
rules = rules_of(game)
screen = header_ui(game, rules)
try:
    if screen == "Table":
        table_sets = table_input_ui(storage, game, rules)
        meld_ui(storage.load_game(game.id), table_sets, rules)
    elif screen == "Turn":
        turn_ui(storage, game, rules)
        table_input_ui(storage, game, rules)
        turn_result_ui(storage, storage.load_game(game.id), rules)
    elif screen == "Round":
        round_ui(storage, game, rules)
    else:
        game_ui(storage, game)
except StorageError as error:  # e.g. the file locked by another program: nothing confirmed is lost
    st.error(f"The game database did not answer: {error}. Nothing confirmed is lost; try again.")
