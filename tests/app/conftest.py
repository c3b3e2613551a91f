"""AppTest fixtures: a temporary database, a fake tile reader with fixed detections, a fixed example photo."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import streamlit as st
from app_fakes import APP, VALID_TABLE, FakeReader, photo_bytes, scene_detections
from streamlit.testing.v1 import AppTest

from vision import photos


@pytest.fixture
def reader(monkeypatch: pytest.MonkeyPatch) -> FakeReader:
    fake = FakeReader(scene_detections(VALID_TABLE))
    monkeypatch.setattr(photos, "load_tile_reader", lambda: fake)
    monkeypatch.setattr(photos, "load_example_photo", lambda: photo_bytes(seed=1))
    return fake


@pytest.fixture
def app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader: FakeReader
) -> Iterator[Callable[[], AppTest]]:
    """A factory of app sessions on one temporary database (each call: a new browser tab)."""
    monkeypatch.setenv("RUMMI_DB", str(tmp_path / "games.sqlite3"))
    st.cache_resource.clear()

    def new_tab() -> AppTest:
        tab = AppTest.from_file(APP, default_timeout=30)
        return tab.run()

    yield new_tab
    st.cache_resource.clear()
