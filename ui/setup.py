"""The "Set up your table and tiles" screen: the calibration layout as a picture, a photo of the bare table
and one of the tiles laid out, what was learned (the tiles now read, the false tiles ignored), and the
profile kept with the game in its database (`vision.profile_store`), used by the reader for every photo of
this game, in every session."""

from __future__ import annotations

import json

import cv2
import numpy as np
import streamlit as st

from assistant.storage import Game, Storage, StorageError
from ui.common import GAME_PROFILE, shared_models
from vision.photos import PhotoError, decode_photo
from vision.profile import Profile, ProfileError
from vision.profile_store import load_game_profile, store_game_profile

PHOTO_SOURCES = {"camera": "Camera", "upload": "Upload"}


@st.cache_data(show_spinner=False)
def layout_picture(tile_height: int = 72) -> np.ndarray:
    """The standard calibration layout drawn with the renderer's tile faces (RGB)."""
    from datasets.tile_face import Edition, render_face
    from vision.calibration import STANDARD_LAYOUT

    rng = np.random.default_rng(15)
    edition = Edition.sample(rng, "train", other=0.0)
    width = int(round(tile_height * edition.aspect))
    gap = tile_height // 10
    canvas = np.full(
        (len(STANDARD_LAYOUT) * (tile_height + 2 * gap) + gap, 13 * (width + gap) + gap, 3), 0.35, np.float32
    )
    for r, row in enumerate(STANDARD_LAYOUT):
        for c, tile in enumerate(row):
            face, alpha = render_face(tile, edition, tile_height, rng)
            y, x = gap + r * (tile_height + 2 * gap), gap + c * (width + gap)
            h, w = face.shape[:2]
            region = canvas[y : y + h, x : x + w]
            canvas[y : y + h, x : x + w] = region * (1 - alpha[:, :, None]) + face * alpha[:, :, None]
    return (np.clip(canvas, 0, 1)[:, :, ::-1] * 255).astype(np.uint8)


def use_game_profile(db: Storage, game: Game) -> Profile | None:
    """This session reads with this game's profile (or none): a property of the session's own reader
    (`ui.common.tile_reader`), never of the reader the server shares. A profile that cannot be read, or
    made with other models, is reported and not used; the game's scores are not touched."""
    try:
        profile = load_game_profile(db, game.id)
    except (ProfileError, StorageError) as error:
        st.warning(f"This game's table profile is not used: {error}")
        profile = None
    if profile is not None:
        try:
            profile.check_models(shipped_model_versions())
        except ProfileError as error:  # made with other models
            st.warning(f"This game's table profile is not used: {error}")
            profile = None
        except Exception:  # the reader cannot load (no models): the other screens report that
            profile = None
    known = st.session_state.get(GAME_PROFILE)
    if profile is None or known is None or _profile_key(known) != _profile_key(profile):
        st.session_state[GAME_PROFILE] = profile  # the same profile keeps the same reader across runs
    return st.session_state[GAME_PROFILE]


def _profile_key(profile: Profile) -> str:
    return json.dumps(profile.to_json(), sort_keys=True)


def shipped_model_versions() -> dict[str, str]:
    from vision.profiled import model_versions

    return model_versions(shared_models())


def photo_ui(label: str, key: str) -> np.ndarray | None:
    source = st.radio(label, list(PHOTO_SOURCES), format_func=PHOTO_SOURCES.get, horizontal=True,
                      key=f"{key}_source")
    data = (st.camera_input(label, key=f"{key}_camera") if source == "camera"
            else st.file_uploader(label, type=["jpg", "jpeg", "png", "webp", "bmp"], key=f"{key}_upload"))
    if data is None:
        return None
    try:  # the app's one guarded decoder: size, format and bombs checked before any pixel is decoded
        return decode_photo(data.getvalue(), label)
    except PhotoError as error:
        st.error(f"{label}: {error}")
        return None


def _boxes_drawn(frame: np.ndarray, boxes: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    out = frame.copy()
    thickness = max(2, frame.shape[1] // 400)
    for x1, y1, x2, y2 in boxes.astype(int):
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thickness)
    return out[:, :, ::-1]


def learned_ui(profile: Profile, empty: np.ndarray | None, tiles: np.ndarray | None) -> None:
    plain_reader = shared_models().with_profile(None)
    profiled = shared_models().with_profile(profile)
    st.success(
        f"Learned: {profile.false_finds} false finds of the bare table, {profile.tiles_learned} of your tiles"
        + (", your inks mapped to the usual ones" if profile.map_inks else "")
    )
    if empty is not None:
        plain = plain_reader.read(empty)
        kept = profiled.read(empty)
        st.image(_boxes_drawn(empty, plain.xyxy, (0, 0, 255)),
                 caption=f"Bare table: {len(plain)} false tiles found before, {len(kept)} now (red: ignored)")
    if tiles is not None:
        read = profiled.read(tiles)
        tokens = " ".join(str(t) for t in read.tiles() if t is not None)
        st.image(_boxes_drawn(tiles, read.xyxy, (0, 160, 0)), caption=f"Your tiles, as now read: {tokens}")


def show(db: Storage, game: Game) -> None:
    from vision.calibration import STANDARD_LAYOUT, BareTableError, CalibrationError, calibrate_photos

    st.markdown("##### Set up your table and tiles")
    try:  # app.py gave the reader this profile and reported a damaged one already
        current = load_game_profile(db, game.id)
    except ProfileError:
        current = None
    if current is not None and st.session_state.get(GAME_PROFILE) is not None:
        st.info(f"This game reads with its table profile ({current.false_finds} false finds, "
                f"{current.tiles_learned} tiles learned).")
    if db.game_profile(game.id) is not None:
        if st.button("Forget the profile"):
            store_game_profile(db, game.id, None)
            st.session_state[GAME_PROFILE] = None
            st.rerun()
    st.markdown("1. A photo of the **bare table** the game is played on (nothing on it).")
    empty = photo_ui("Photo of the bare table", "setup_empty")
    st.markdown("2. Optionally, your tiles laid out like this: one row per colour (black, blue, red, orange) "
                "1 to 13, then the jokers.")
    st.image(layout_picture(), caption="The calibration layout")
    tiles = photo_ui("Photo of your tiles in the layout", "setup_tiles")
    if st.button("Learn", type="primary", disabled=empty is None and tiles is None):
        try:
            with st.spinner("Learning your table and tiles…"):
                profile = calibrate_photos(
                    shared_models().with_profile(None), [empty] if empty is not None else [],
                    [(tiles, STANDARD_LAYOUT)] if tiles is not None else [],
                )
        except BareTableError as error:
            st.error(f"The photo of the bare table shows tiles ({error.tiles} read surely): take it with "
                     "nothing on the table. Nothing was learned.")
            return
        except CalibrationError as error:
            st.error(f"The tile photo does not match the layout: {error}")
            return
        store_game_profile(db, game.id, profile)
        st.session_state[GAME_PROFILE] = profile
        learned_ui(profile, empty, tiles)
