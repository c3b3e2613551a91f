"""The Setup screen runs: the calibration layout picture, the photo inputs, no exception."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def test_the_setup_screen_shows_the_layout_and_takes_photos(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RUMMI_DB", str(tmp_path / "games.db"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.radio(key="screen").set_value("Setup").run()
    assert not at.exception
    assert any("Set up your table and tiles" in m.value for m in at.markdown)
    assert [r.label for r in at.radio][1:] == ["Photo of the bare table", "Photo of your tiles in the layout"]


def _app_on(db: Path) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.radio(key="screen").set_value("Setup").run()
    assert not at.exception
    return at


def _profile_notes(at: AppTest) -> list[str]:
    return [m.value for m in at.info if "table profile" in m.value]


def _game_with_one_round(tmp_path: Path, monkeypatch) -> tuple[Path, Any, int]:
    """The app's database (RUMMI_DB) with one game of Ann and Bob and its first round scored 5 / -5."""
    from assistant.storage import Storage

    db = tmp_path / "games.db"
    monkeypatch.setenv("RUMMI_DB", str(db))
    storage = Storage(db)
    game = storage.create_game("Friday", "standard", ["Ann", "Bob"])
    storage.record_round(game, 1, False, {0: "", 1: "r5"}, {0: 0, 1: 5}, {0: 5, 1: -5}, {0})
    return db, storage, game


def test_the_profile_is_kept_in_the_database_for_a_new_session(tmp_path: Path, monkeypatch) -> None:
    import numpy as np

    from assistant.storage import Storage
    from vision.photos import load_tile_reader
    from vision.profile import Profile
    from vision.profile_store import store_game_profile
    from vision.profiled import model_versions

    db, storage, game = _game_with_one_round(tmp_path, monkeypatch)
    profile = Profile(models=model_versions(load_tile_reader()), empty_photos=1,
                      false_descriptors=np.zeros((4, 5), np.float32), false_radius=1.0)
    store_game_profile(storage, game, profile)  # what the Setup screen's "Learn" keeps
    first = _app_on(db)
    assert _profile_notes(first) == [
        "This game reads with its table profile (4 false finds, 0 tiles learned)."
    ]
    second = _app_on(db)  # a new session on the same database
    assert _profile_notes(second) == _profile_notes(first)
    second.button[0].click().run()  # "Forget the profile"
    assert not second.exception
    third = _app_on(db)
    assert _profile_notes(third) == [] and Storage(db).game_profile(game) is None
    assert [s.score for s in Storage(db).rounds(game)[0].scores] == [5, -5]


def test_a_broken_profile_is_reported_without_a_traceback(tmp_path: Path, monkeypatch) -> None:
    from assistant.storage import Storage

    db, storage, game = _game_with_one_round(tmp_path, monkeypatch)
    storage.set_game_profile(game, b"\x00 half a profile", "rummi-profile/1")
    at = _app_on(db)
    warnings = [w.value for w in at.warning]
    assert any("table profile is not used" in w and "cannot be read" in w for w in warnings), warnings
    assert _profile_notes(at) == []
    assert [b.label for b in at.button][0] == "Forget the profile"
    assert [s.score for s in Storage(db).rounds(game)[0].scores] == [5, -5]


def test_the_layout_picture_has_five_rows_of_tiles() -> None:
    from ui.setup import layout_picture

    picture = layout_picture.__wrapped__(40) if hasattr(layout_picture, "__wrapped__") else layout_picture(40)
    height, width = picture.shape[:2]
    assert picture.dtype.name == "uint8" and width > height > 5 * 40


def test_a_bare_table_photo_showing_tiles_is_refused_as_such(tmp_path: Path, monkeypatch) -> None:
    import cv2

    import ui.setup
    from assistant.storage import Storage

    db, storage, game = _game_with_one_round(tmp_path, monkeypatch)
    table = cv2.imread(str(ROOT / "vision" / "examples" / "table.jpg"))  # a game photo, tiles on it
    monkeypatch.setattr(ui.setup, "photo_ui", lambda label, key: table if key == "setup_empty" else None)
    at = _app_on(db)
    next(b for b in at.button if b.label == "Learn").click().run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any("bare table shows tiles" in e for e in errors), errors
    assert not any("does not match the layout" in e for e in errors)
    assert Storage(db).game_profile(game) is None


def test_two_games_read_at_once_each_with_its_own_profile(tmp_path: Path, monkeypatch) -> None:
    """Issue 35 item 3: one game's profile once followed the shared reader into every session."""
    import numpy as np

    from assistant.storage import Storage
    from vision.photos import load_tile_reader
    from vision.profile import Profile
    from vision.profile_store import store_game_profile
    from vision.profiled import model_versions

    db = tmp_path / "games.db"
    monkeypatch.setenv("RUMMI_DB", str(db))
    storage = Storage(db)
    profiled = storage.create_game("Rug", "standard", ["Ann", "Bob"])
    plain = storage.create_game("Marble", "standard", ["Cid", "Dee"])
    shared = load_tile_reader()
    profile = Profile(models=model_versions(shared), empty_photos=1,
                      false_descriptors=np.zeros((4, 5), np.float32), false_radius=1.0)
    store_game_profile(storage, profiled, profile)

    def tab(game: int) -> AppTest:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.query_params["game"] = str(game)
        return at.run()

    def reads_with(at: AppTest) -> Profile | None:
        reader = at.session_state["_session_reader"][1] if "_session_reader" in at.session_state else None
        return None if reader is None else reader.profile

    rug, marble = tab(profiled), tab(plain)
    rug.radio(key="screen").set_value("Table").run()
    marble.radio(key="screen").set_value("Table").run()
    assert not rug.exception and not marble.exception
    rug.run()  # the rug's session after the marble's: still the rug's profile
    assert reads_with(rug) is not None and reads_with(rug).false_finds == 4
    assert reads_with(marble) is None
    late = tab(profiled)  # a viewer opens the profiled game: the marble game is not touched
    marble.run()
    assert reads_with(late) is not None and reads_with(marble) is None
    assert shared.profile is None  # the server's shared models never read with any game's profile
