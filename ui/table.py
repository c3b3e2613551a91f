"""The Table screen: a photo (example, camera, upload, live video) or typed text in, each set's verdict out;
tap a tile to fix its reading; the opening meld check. The Turn screen shows the same table input."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import streamlit as st

from assistant import slots
from assistant.access import Access
from assistant.errors import InputError
from assistant.meld import check_meld
from assistant.rules import Rules
from assistant.sets import check_set
from assistant.storage import Game, Storage, StorageError
from assistant.table import check_table, count_problems
from assistant.tiles import Color, Tile
from ui import helpers
from ui.common import (
    COLOR_MARKUP,
    INVALID_MARK,
    SOURCES,
    UNJUDGED_MARK,
    VALID_MARK,
    photo_bytes_key,
    tile_markup,
    tile_reader,
)
from vision import photos
from vision.annotate import annotate
from vision.tracking import LiveReader, draw_rate


def show(db: Storage, game: Game, rules: Rules, access: Access | None = None) -> None:
    """The screen for a session with `access` (None: one that may record); a viewer sees the stored table,
    judged, with nothing to press that would change it."""
    table_sets = table_input_ui(db, game, rules, helpers.may_write(access, game.id))
    meld_ui(db.load_game(game.id), table_sets, rules)


def store_layout(db: Storage, game_id: int, text: str, photo: str | None = None) -> None:
    db.set_table_layout(game_id, text, photo=photo)
    st.session_state.layout_text = text
    st.session_state.layout_synced = text
    st.session_state.selected_slot = None


def on_layout_typed(db: Storage, game_id: int) -> None:
    try:
        text = slots.format_slots(slots.parse_slots(st.session_state.layout_text))
        # A table typed from scratch has no photo; text typed under a photo corrects it.
        store_layout(db, game_id, text, photo="" if st.session_state.source == "type" else None)
        st.session_state.layout_edited = text  # the player's own edit: the photo's boxes may not fit it
        st.session_state.layout_error = None
    except (InputError, StorageError) as error:
        st.session_state.layout_error = str(error)


def on_tile_picked(set_index: int, key: str, layout: str) -> None:
    position = st.session_state.get(key)
    st.session_state.selected_slot = None if position is None else (set_index, position, layout)


def on_tile_fixed(db: Storage, game_id: int, key: str, rules: Rules) -> None:
    choice = st.session_state.get(key)
    selected = st.session_state.selected_slot
    if choice is None or selected is None:
        return
    set_index, position, layout = selected
    tile = None if choice == "remove" else Tile.parse(choice)
    reading: photos.PhotoReading | None = st.session_state.reading
    try:
        regrouped = None
        if tile is not None and reading is not None and reading.table_text == layout:
            # Still the photo as read (fixes aside): group it again, so a set the misreading split rejoins.
            regrouped = reading.with_fixed_tile(set_index, position, tile, rules)
        if regrouped is not None:
            store_layout(db, game_id, regrouped.table_text)
            st.session_state.reading = regrouped
        else:
            fixed = slots.replace_slot(layout, set_index, position, tile)
            store_layout(db, game_id, fixed)
            st.session_state.layout_edited = fixed
    except (InputError, StorageError) as error:
        st.session_state.layout_error = str(error)


def read_new_photo(db: Storage, game: Game, rules: Rules, source: str, data: bytes, name: str) -> None:
    """Read a photo this tab has not read yet; a bad photo keeps the table as it was."""
    key = photo_bytes_key(source, data)
    if key == st.session_state.photo_key:
        return
    st.session_state.photo_key = key
    chosen = st.session_state.photo_chosen
    # Only the example is there without the player: a camera shot, an upload or a checked video frame
    # was put there in this tab, so each new one is read (a reload empties those widgets).
    put_by_player = chosen or source != "example"
    if not helpers.photo_may_replace_table(game.table_layout, game.table_photo, key, put_by_player):
        # A fresh tab or a reload shows the stored table: the example is not read over it.
        return
    try:
        frame = photos.decode_photo(data, name)
        with st.spinner("Reading the tiles…"):
            reading = photos.read_photo(frame, tile_reader(), rules)
    except photos.PhotoError as error:
        st.session_state.photo_error = str(error)
        st.session_state.photo_notice = None
        return
    except Exception as error:  # a model that fails to load or run must not lose the game's state
        st.session_state.photo_error = f"the tiles could not be read ({type(error).__name__}: {error})"
        return
    st.session_state.photo_error = None
    st.session_state.reading = reading
    st.session_state.layout_edited = None
    # A photo of the bare table is an empty table (the start of a game, before the first meld), said so
    # plainly: a table kept from before would be judged as taken off at the next turn.
    st.session_state.photo_notice = (
        f"No tiles seen: the table is empty ({name} shows none; if tiles are on the table, is it in the "
        "picture?)"
        if reading.tiles_seen == 0
        else None
    )
    # The same photo in another tab (or after a reload) must not undo corrections made since.
    if game.table_photo != key or chosen:
        store_layout(db, game.id, reading.table_text, photo=key)
    st.session_state.photo_chosen = False


def slots_now(game: Game) -> list[list[slots.Slot]]:
    try:
        return slots.parse_slots(game.table_layout)
    except InputError:
        return []


def photo_source_ui(db: Storage, game: Game, rules: Rules) -> None:
    sources = [s for s in SOURCES if s != "live" or photos.live_video_available()]
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
            data, name = photos.load_example_photo(), "the example photo"
        except photos.PhotoError as error:
            st.session_state.photo_error = str(error)
    elif source == "camera":
        if helpers.camera_blocked(str(st.context.url or "")):
            st.warning(
                "This browser allows the camera only over https: open the app as the Game screen shows."
            )
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
    if source == "example" and data is not None and st.session_state.reading is None:
        # A fresh tab on a table stored since (another photo, typed): it is shown, not read over.
        left, right = st.columns([3, 1], vertical_alignment="center")
        left.caption(
            "The table below is the one stored for this game; the example photo was not read over it."
        )
        right.button("Read the example", on_click=on_source_chosen)
    if st.session_state.photo_error:
        st.error(st.session_state.photo_error + " — the table below is kept as it was.")


def on_source_chosen() -> None:
    st.session_state.photo_error = None
    st.session_state.photo_notice = None
    st.session_state.photo_key = None
    st.session_state.photo_chosen = True
    st.session_state.reading = None  # the last source's picture is not this one's
    st.session_state.layout_error = None
    st.session_state.selected_slot = None


def awaiting_photo() -> bool:
    """Camera or Upload was just chosen and has no photo read yet: the last verdict is not shown as its."""
    return st.session_state.photo_chosen and st.session_state.source in ("camera", "upload")


# Counts the browser's cameras before the stream is offered: with none, streamlit-webrtc would show the
# browser's raw "NotFoundError: Requested device not found" after START. -1: the page may not ask (http).
CAMERA_COUNT_JS = """
export default function (component) {
    const { setStateValue } = component;
    const media = navigator.mediaDevices;
    if (!media || !media.enumerateDevices) {
        setStateValue("cameras", -1);
        return;
    }
    media.enumerateDevices()
        .then((devices) => setStateValue("cameras", devices.filter((d) => d.kind === "videoinput").length))
        .catch(() => setStateValue("cameras", -1));
}
"""
# What streamlit-webrtc's own messages say, where it lets the app word them.
WEBRTC_WORDING = {
    "media_api_not_available": "This browser allows the camera only over https (or on localhost)",
    "device_ask_permission": "Allow this page to use the camera",
    "device_not_available": "No camera found: connect one, or use Camera or Upload",
    "device_access_denied": "The camera was refused: allow it in the browser's address bar",
}


@st.cache_resource
def camera_counter() -> Any:
    """The browser-side camera count as a component (registered once per server)."""
    return st.components.v2.component("rummi_camera_count", js=CAMERA_COUNT_JS)


def cameras_in_browser() -> int | None:
    """How many cameras the browser has: -1 when it may not use any here, None until it has answered."""
    try:
        answer = camera_counter()(key="camera_count", on_cameras_change=lambda: None)
    except Exception:  # no browser behind the session (a test run): the stream says what it can
        return None
    cameras = getattr(answer, "cameras", None)
    return cameras if isinstance(cameras, int) else None


def live_video_ui(rules: Rules) -> bytes | None:
    """The webcam stream with the verdict drawn on each frame (needs the optional streamlit-webrtc).

    Returns the latest frame as JPEG when "Check this frame" is pressed, to correct and judge it below.
    """
    import av
    from streamlit_webrtc import webrtc_streamer

    st.session_state.live_playing = False
    try:
        reader = tile_reader()
    except Exception as error:
        st.error(f"the tile reader is not available: {error}")
        return None
    latest = st.session_state.setdefault("live_latest", photos.LatestFrame())
    live = st.session_state.get("live_reader")
    if not isinstance(live, LiveReader) or live.reader is not reader or live.rules != rules:
        live = st.session_state["live_reader"] = LiveReader(reader, rules)
    sets_seen = st.session_state.setdefault("live_sets", LiveSets())
    cameras = cameras_in_browser()
    if cameras == 0:
        st.warning(
            "No camera found in this browser: connect a webcam (or close the program using it) and choose "
            "Live video again, or use Camera or Upload."
        )
        return None
    if cameras == -1:
        st.warning(
            "This browser allows the camera only over https (or on localhost): open the app as the Game "
            "screen shows, or use Upload."
        )
        return None

    def on_frame(frame: Any) -> Any:  # runs in the stream's thread, not in the script
        image = frame.to_ndarray(format="bgr24")
        latest.put(image)
        return av.VideoFrame.from_ndarray(live_overlay(image, live, sets_seen), format="rgb24")

    try:
        streamer = webrtc_streamer(
            key="live_video",
            video_frame_callback=on_frame,
            media_stream_constraints={"video": True, "audio": False},
            translations=WEBRTC_WORDING,
        )
    except Exception as error:  # the stream needs a live server session; without one, say so and carry on
        st.error(f"live video is not available here ({type(error).__name__}: {error}); use Camera or Upload")
        return None
    st.session_state.live_playing = bool(streamer.state.playing)
    if not streamer.state.playing:
        st.caption(
            "Press START to stream the camera; if it disconnects, the table below stays as it was. An error "
            "in the video box means the browser could not open the camera: is another program using it?"
        )
        return None
    if st.button("Check this frame", help="Freeze the latest frame to correct and judge it below"):
        return latest.jpeg()
    return None


class LiveSets:
    """The newest streamed frame's sets as layout text, handed from the stream's thread to the script."""

    def __init__(self) -> None:
        self.text: str | None = None  # one str assignment: atomic, no lock needed


def live_overlay(image: Any, live: LiveReader, sets_seen: LiveSets | None = None) -> Any:
    """One video frame as RGB, at most `ui.helpers.LIVE_SHOWN_WIDTH` wide: the sets boxed by verdict (the full
    read only when the picture changed, `vision.tracking.LiveReader`) and the frames a second the screen keeps
    up; a frame that cannot be read shows as it is. `sets_seen` gets the frame's sets for the verdicts under
    the stream."""
    try:
        shown = live.update(image)
        reading = photos.PhotoReading(frame=image, layout=shown.layout)
        if sets_seen is not None:
            sets_seen.text = reading.table_text
        verdicts = [None if verdict is None else verdict.valid for verdict in shown.layout.verdicts]
        canvas = helpers.shown_size(annotate(reading, verdicts))
    except Exception:  # a failing frame must not stop the stream
        canvas = helpers.shown_rgb(image)
    return draw_rate(canvas, live.fps)


def picture_ui(sets: list[list[slots.Slot]], verdicts: list[bool | None], layout: str) -> None:
    reading: photos.PhotoReading | None = st.session_state.reading
    if reading is None:
        return
    same = helpers.same_shape(sets, reading.layout)
    doubtful = helpers.doubts(reading, sets)
    drawn = annotate(reading, verdicts if same else [], doubtful if same else [])
    st.image(helpers.fit_for_screen(drawn), width="stretch")
    racks = sum(len(r) for r in reading.layout.racks)
    seen = f"{reading.tiles_seen} tiles seen" + (f" ({racks} on racks)" if racks else "")
    st.caption(seen + helpers.picture_note(same, st.session_state.get("layout_edited") == layout))


def set_verdicts(sets: list[list[slots.Slot]], rules: Rules) -> list[Any]:
    """check_set for every fully read set, None for a set with a ? in it."""
    return [None if any(t is None for t in tiles) else check_set(tiles, rules) for tiles in sets]  # type: ignore[arg-type]


def verdict_ui(
    db: Storage,
    game: Game,
    sets: list[list[slots.Slot]],
    verdicts: list[Any],
    rules: Rules,
    layout: str,
    can_write: bool = True,
) -> None:
    """One row per set: its verdict, and its tiles as buttons; tap a tile, then tap what it really is (not
    for a viewer: the tiles show, not to be tapped)."""
    unread = slots.unread_count(sets)
    if not sets:
        # A photo of the bare table says so (`read_new_photo`); else how to fill the table.
        st.info(
            st.session_state.get("photo_notice")
            or "The table is empty. Take a photo, upload one, or type the layout."
        )
        return
    problems: list[str] = []
    if not unread:
        known = slots.known_sets(sets)
        table = check_table(known, rules)
        problems = count_problems((tile for tiles in known for tile in tiles), rules)
        if table.valid:
            sets_text = "1 set" if len(sets) == 1 else f"{len(sets)} sets"
            st.success(f"Table valid: {sets_text}, {sum(map(len, sets))} tiles, {table.value} points.")
        else:
            count = slots.count_sets(sets, [None if v is None else v.valid for v in verdicts])
            bad = count.invalid
            single = (
                f" ({count.single} single tile{'s' if count.single != 1 else ''})" if count.single else ""
            )
            st.error(
                f"Table not valid: {bad} of {len(sets)} sets break the rules{single}."
                if bad and len(sets) > 1
                else "Table not valid: the set breaks the rules."
                if bad
                else "Table not valid."
            )
    else:
        st.warning(f"{unread} tile(s) not read (?): tap each one below and pick what it is.")
    for problem in problems:
        st.error(problem)
    doubtful = {(d.set_index, d.position): d for d in helpers.doubts(st.session_state.reading, sets)}
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
                (VALID_MARK, helpers.set_label(verdict))
                if verdict.valid
                else (INVALID_MARK, helpers.set_label(verdict))
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
            disabled=not can_write,
        )
        selected = st.session_state.selected_slot
        if can_write and selected is not None and selected[0] == index:
            tile_fix_ui(
                db, game, sets, layout, rules
            )  # right under the tapped tile, where a phone user looks


def tile_fix_ui(db: Storage, game: Game, sets: list[list[slots.Slot]], layout: str, rules: Rules) -> None:
    selected = st.session_state.selected_slot
    if selected is None or selected[2] != layout:
        return
    set_index, position, _ = selected
    if not (set_index < len(sets) and position < len(sets[set_index])):
        return
    current = sets[set_index][position]
    reading: photos.PhotoReading | None = st.session_state.reading
    same = reading is not None and helpers.same_shape(sets, reading.layout)
    offered = helpers.choices_for(reading, same, set_index, position)
    with st.container(border=True):
        st.markdown(f"**Set {set_index + 1}, tile {position + 1}** reads {tile_markup(current)}: what is it?")
        notes = [
            d.note
            for d in helpers.doubts(reading, sets)
            if (d.set_index, d.position) == (set_index, position)
        ]
        if notes and notes[0]:
            st.caption(notes[0])
        if offered:
            st.pills(
                "Likely",
                [str(t) for t in offered],
                format_func=tile_choice_markup,
                key="fix_likely",
                on_change=on_tile_fixed,
                args=(db, game.id, "fix_likely", rules),
            )
        any_tile_ui("fix_any", rules, on_tile_fixed, lambda key: (db, game.id, key, rules))


def any_tile_ui(
    key: str, rules: Rules, on_pick: Callable[..., None], args_for: Callable[[str], tuple[Any, ...]]
) -> None:
    """What a tile really is, from every tile: one row per colour (on a phone a row wraps within its colour),
    each tile with its colour letter (red and orange look alike), then the joker and "remove". Each row is a
    widget of its own, `{key}_k`, `{key}_b`, `{key}_r`, `{key}_o` and `{key}_j`; `on_pick(*args_for(row))`."""
    st.caption("Any tile")
    rows = [(c.letter, [f"{c.letter}{n}" for n in range(1, 14)], rules.color_label(c)) for c in Color]
    rows.append(("j", ["J", "remove"], "joker or remove"))
    for letter, options, label in rows:
        row_key = f"{key}_{letter}"
        st.pills(
            label,
            options,
            format_func=tile_choice_markup,
            key=row_key,
            on_change=on_pick,
            args=args_for(row_key),
            label_visibility="collapsed",
        )


def tile_choice_markup(choice: str) -> str:
    """A choice of the tile picker: `r5` in red, `J`, or remove."""
    if choice == "remove":
        return ":material/delete: remove"
    tile = Tile.parse(choice)
    return "**J**" if tile.color is None else COLOR_MARKUP[tile.color.letter].format(choice)


def layout_editor_ui(db: Storage, game: Game, can_write: bool = True) -> None:
    # Copy the stored table in when it changed, or when the box lost it (Streamlit forgets a widget's value
    # on a run of another screen); text that does not parse stays, to be fixed.
    lost = st.session_state.layout_text != game.table_layout and not st.session_state.layout_error
    if st.session_state.layout_synced != game.table_layout or lost:
        st.session_state.layout_text = game.table_layout
        st.session_state.layout_synced = game.table_layout
    title = "Edit the layout as text" if can_write else "The layout as text"
    with st.expander(title, expanded=can_write and st.session_state.source == "type"):
        st.text_area(
            "Sets split by |, tiles by spaces (r5 red 5, k black, b blue, o orange, J joker, ? unread)",
            key="layout_text",
            on_change=on_layout_typed,
            args=(db, game.id),
            disabled=not can_write,
        )
    if st.session_state.layout_error:
        st.error(st.session_state.layout_error)


def table_input_ui(db: Storage, game: Game, rules: Rules, can_write: bool = True) -> list[list[slots.Slot]]:
    """Photo or text in, verdicts out; returns the table as it stands now. Without `can_write` (a viewer)
    no photo is read and nothing can be tapped or typed: the stored table is shown, judged."""
    if can_write:
        photo_source_ui(db, game, rules)
    else:
        st.caption(helpers.VIEW_ONLY)
    game = db.load_game(game.id)  # a photo read this run may have changed the stored table
    sets = slots_now(game)
    verdicts = set_verdicts(sets, rules)
    # While typing there is no photo, and the live video shows its own verdicts.
    has_picture = (
        can_write and st.session_state.reading is not None and st.session_state.source not in ("type", "live")
    )
    picture, verdict_column = st.columns([3, 2]) if has_picture else (st.container(), st.container())
    if has_picture:
        with picture:
            picture_ui(sets, [None if v is None else v.valid for v in verdicts], game.table_layout)
    streaming = (
        can_write and st.session_state.source == "live" and st.session_state.get("live_playing", False)
    )
    frame_checked = str(st.session_state.photo_key or "").startswith("live:")
    with verdict_column:
        if streaming:
            live_verdicts_ui(rules)
            if frame_checked:
                st.markdown("**The checked frame** (tap a tile to correct it)")
        if streaming and not frame_checked:
            st.caption("The table stored before the stream is kept until a frame is checked.")
        elif can_write and awaiting_photo():
            what = "Take a photo" if st.session_state.source == "camera" else "Upload a photo"
            st.info(f"{what} of the table: its verdict shows here. Until then the last table is kept.")
        elif st.session_state.layout_error:
            st.info("The typed layout is not checked: fix the text below (the last good one is kept).")
        else:
            verdict_ui(db, game, sets, verdicts, rules, game.table_layout, can_write)
    layout_editor_ui(db, game, can_write)
    return sets


@st.fragment(run_every=1.0)
def live_verdicts_ui(rules: Rules) -> None:
    """What the camera sees now, set by set, refreshed every second while the stream runs."""
    sets_seen: LiveSets | None = st.session_state.get("live_sets")
    text = None if sets_seen is None else sets_seen.text
    with st.container(border=True):
        st.markdown("**On camera now**")
        if text is None:
            st.caption("Waiting for the first frame…")
            return
        sets = slots.parse_slots(text)
        if not sets:
            st.caption("No tiles seen: is the table in the picture?")
            return
        verdicts = set_verdicts(sets, rules)
        for index, (tiles, verdict) in enumerate(zip(sets, verdicts, strict=True)):
            mark = UNJUDGED_MARK if verdict is None else VALID_MARK if verdict.valid else INVALID_MARK
            said = "not judged: a tile is not read" if verdict is None else helpers.set_label(verdict)
            shown = " ".join(tile_markup(tile) for tile in tiles)
            st.markdown(f"{mark} Set {index + 1}: {shown} · {said}")
        st.caption("Press “Check this frame” to keep this table, correct it and judge it below.")


def meld_ui(game: Game, sets: list[list[slots.Slot]], rules: Rules) -> None:
    with st.expander(f"Opening meld check ({rules.opening_threshold} points)"):
        meld_check_ui(game, sets, rules)


def meld_check_ui(game: Game, sets: list[list[slots.Slot]], rules: Rules) -> None:
    try:
        agreed = slots.parse_slots(game.agreed_layout)
    except InputError:
        agreed = []
    new = helpers.new_set_indexes(agreed, sets)
    chosen = st.multiselect(
        "Sets put down from the rack",
        list(range(len(sets))),
        default=new,
        format_func=lambda i: f"Set {i + 1}: {slots.format_slots([sets[i]])}",
        key=f"meld_sets_{game.table_layout}",
    )
    if not chosen:
        st.caption(
            f"Pick the sets a player put down to open; together they need {rules.opening_threshold} points."
        )
        return
    try:
        meld = check_meld(slots.known_sets([sets[i] for i in chosen]), rules)
    except InputError as error:
        st.warning(str(error))
        return
    # An invalid set never makes a meld enough (000_*.txt section 3: the meld is valid sets only).
    figure = helpers.meld_metric(meld)
    st.metric("Meld value", figure.value, figure.delta, delta_color=figure.color, delta_arrow=figure.arrow)
    for line in helpers.meld_lines(meld):
        st.markdown(line)
