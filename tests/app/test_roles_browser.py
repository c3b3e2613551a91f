"""Roles end to end: `streamlit run app.py` with a director key, headless Chromium opening a tournament
table's link. The link records its own table's game; with its token in another table's address the page
refuses, shows no form, and shows no other table's token; the database holds only the first game."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_browser import CHROMIUM_ARGS, require_chromium, streamlit_server
from playwright.sync_api import expect, sync_playwright

from assistant.hall import open_hall, start_tournament
from assistant.storage.links import TableLinks

PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_a_tables_link_cannot_record_at_another_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chromium = require_chromium()
    db_path = tmp_path / "hall.sqlite3"
    hall = open_hall(db_path)
    tables = start_tournament(hall, "Cup", PLAYERS, table_size=4, seed="7").tables
    links = TableLinks(hall.db)
    own, other = links.table_token("Cup", 1), links.table_token("Cup", 2)
    monkeypatch.setenv("RUMMI_DIRECTOR_KEY", "a-director-key-nobody-at-a-table-has")
    with streamlit_server(db_path) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{url}/?tournament=Cup&table=1&key={own}")
            expect(page.get_by_text("Cup, table 1", exact=False).first).to_be_visible(timeout=60_000)
            for index, player in enumerate(tables[0]):
                page.get_by_label(player, exact=True).fill("" if index == 0 else f"r{index + 1}")
            page.get_by_role("button", name="Record game 1").click()
            expect(page.get_by_text("Game 1 at table 1 recorded")).to_be_visible(timeout=30_000)

            # The same device, table 1's token, table 2's address (or a link edited by hand).
            page.goto(f"{url}/?tournament=Cup&table=2&key={own}")
            refusal = page.get_by_text("This device holds the link of Cup, table 1: it records only there")
            expect(refusal).to_be_visible(timeout=60_000)
            expect(page.get_by_text("This device is the table of Cup, table 1.")).to_be_visible()
            assert page.get_by_role("button", name="Record game 1").count() == 0
            for player in tables[1]:
                assert page.get_by_label(player, exact=True).count() == 0
            assert other not in page.content()
        finally:
            browser.close()
    assert [(g.table, g.table_game) for g in open_hall(db_path).games("Cup")] == [(1, 1)]
