"""Roles end to end in headless Chromium against `streamlit run app.py`. With a director key: a tournament
table's link records its own table's game; with its token in another table's address the page refuses, shows
no form and no other table's token; the database holds only the first game. With no key: the browser on the
server's own computer is the director, one on the network a viewer (with the game's link, its table)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from app_browser import launch_chromium, streamlit_server
from playwright.sync_api import expect, sync_playwright

from assistant.hall import open_hall, start_tournament
from assistant.storage import Storage
from assistant.storage.links import TableLinks
from ui.common import lan_address

PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_a_tables_link_cannot_record_at_another_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db_path = tmp_path / "hall.sqlite3"
    hall = open_hall(db_path)
    tables = start_tournament(hall, "Cup", PLAYERS, table_size=4, seed="7").tables
    links = TableLinks(hall.db)
    own, other = links.table_token("Cup", 1), links.table_token("Cup", 2)
    monkeypatch.setenv("RUMMI_DIRECTOR_KEY", "a-director-key-nobody-at-a-table-has")
    with streamlit_server(db_path) as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
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


def test_without_a_key_the_server_computer_directs_and_the_network_looks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lan = lan_address()
    if lan == "127.0.0.1":
        pytest.skip("this computer has no network address to connect from")
    monkeypatch.delenv("RUMMI_DIRECTOR_KEY", raising=False)
    db_path = tmp_path / "club.sqlite3"
    storage = Storage(db_path)
    storage.create_game("Table 1", "standard", ["Ann", "Ben"])
    token = TableLinks(storage.db).game_token(1)
    with streamlit_server(db_path, address="0.0.0.0") as url, sync_playwright() as playwright:
        on_lan = f"http://{lan}:{urlsplit(url).port}"
        browser = launch_chromium(playwright)
        try:
            here = browser.new_page(viewport={"width": 1280, "height": 900})
            here.goto(url)
            expect(here.get_by_text("This device is the director.")).to_be_visible(timeout=60_000)
            expect(here.get_by_text(re.compile(r"\d+ tiles seen"))).to_be_visible(timeout=90_000)
            stored = storage.load_game(1).table_layout  # the example photo, read and stored by the director
            assert stored
            there = browser.new_page(viewport={"width": 1280, "height": 900})
            there.goto(on_lan)  # another device on the network, without a link
            expect(there.get_by_text("This device is a viewer.")).to_be_visible(timeout=60_000)
            expect(there.get_by_text(r"Table 1 · standard")).to_be_visible(timeout=60_000)
            # A viewer is offered nothing to record (the server refuses it all the same: test_roles_screens).
            viewing = there.get_by_text("Viewing only: open the table's link").first
            expect(viewing).to_be_visible(timeout=60_000)
            assert there.get_by_text("Type it", exact=True).count() == 0
            assert storage.load_game(1).table_layout == stored
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto(f"{on_lan}/?game=1&key={token}")
            phone.get_by_test_id("stExpandSidebarButton").click()
            expect(phone.get_by_text("This device is the table of game 1.")).to_be_visible(timeout=60_000)
        finally:
            browser.close()
