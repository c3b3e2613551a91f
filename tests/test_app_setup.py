"""The Setup screen runs: the calibration layout picture, the photo inputs, no exception."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def test_the_setup_screen_shows_the_layout_and_takes_photos(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RUMMI_DB", str(tmp_path / "games.db"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.radio(key="screen").set_value("Setup").run()
    assert not at.exception
    assert any("Set up your table and tiles" in m.value for m in at.markdown)
    assert [r.label for r in at.radio][1:] == ["Photo of the bare table", "Photo of your tiles in the layout"]


def test_a_stored_profile_round_trips_per_game(tmp_path: Path) -> None:
    import numpy as np

    from vision.profile import ModelVersions, Profile
    from vision.profile_store import game_profile_path, load_game_profile, store_game_profile

    db = tmp_path / "games.db"
    assert load_game_profile(db, 3) is None
    profile = Profile(models=ModelVersions("a", "b"), empty_photos=1,
                      false_descriptors=np.zeros((2, 5), np.float32), false_radius=1.0)
    store_game_profile(db, 3, profile)
    assert game_profile_path(db, 3).is_file()
    assert load_game_profile(db, 3).to_bytes() == profile.to_bytes()
    assert load_game_profile(db, 4) is None
    store_game_profile(db, 3, None)
    assert load_game_profile(db, 3) is None


def test_the_layout_picture_has_five_rows_of_tiles() -> None:
    from ui.setup import layout_picture

    picture = layout_picture.__wrapped__(40) if hasattr(layout_picture, "__wrapped__") else layout_picture(40)
    height, width = picture.shape[:2]
    assert picture.dtype.name == "uint8" and width > height > 5 * 40
