"""The Referee screen's game record and spoken verdicts in headless Chromium against `streamlit run app.py`
(issue 36): a stored referee game's record downloads and a record file opens turn by turn; a new verdict is
said once through the page's `speechSynthesis`, and a browser without it shows the screen with no error."""

from __future__ import annotations

import re
import time
from pathlib import Path

from app_browser import launch_chromium, streamlit_server
from playwright.sync_api import Page, expect, sync_playwright

from assistant.game_record import parse_record
from assistant.referee import Referee, seen_table
from assistant.rules import find_preset
from assistant.storage import Storage
from assistant.storage.referee import RefereeStore
from assistant.tiles import parse_layout

FAKE_VOICE = """
window.__said = [];
Object.defineProperty(window, "speechSynthesis", {
  value: { speak: (u) => window.__said.push(u.text), cancel: () => {}, getVoices: () => [] },
  configurable: true,
});
"""
NO_VOICE = """
window.__errors = [];
window.addEventListener("error", (event) => window.__errors.push(String(event.message)));
delete window.speechSynthesis;
delete window.SpeechSynthesisUtterance;
Object.defineProperty(window, "speechSynthesis", { value: undefined, configurable: true });
"""


def stored_game(db_path: Path) -> None:
    """Table 1 (Ann, Bob): seat 1 plays k7 b7 o7, seat 2 draws, seat 1 lays k1 k2 (not legal)."""
    store = Storage(str(db_path))
    game = store.create_game("Table 1", "standard", ["Ann", "Bob"], camera="example")
    referees = RefereeStore(store.db)
    referee = Referee(find_preset("standard"), players=2)
    rid = referees.start(game, referee.to_json())
    for time_s, layout in [(1.0, "r10 r11 r12"), (4.0, "r10 r11 r12 | k7 b7 o7")]:
        call = referee.observe(seen_table(parse_layout(layout)), time_s=time_s)
    assert call is not None
    referees.record(rid, call, referee.to_json())
    referees.record(rid, referee.drew(6.0), referee.to_json())
    call = referee.observe(seen_table(parse_layout("r10 r11 r12 | k7 b7 o7 | k1 k2")), time_s=9.0)
    assert call is not None
    referees.record(rid, call, referee.to_json())


def open_referee(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.get_by_text("Table 1 · standard")).to_be_visible(timeout=60_000)
    page.get_by_role("radiogroup", name="Screen").get_by_text("Referee", exact=True).click()
    expect(page.get_by_text("Turn history (3)")).to_be_visible(timeout=30_000)


def tap_override(page: Page, verdict: str) -> None:
    """Tap the verdict's "Override" and see `verdict`. A tap can be lost when it comes as the verdict's
    fragment is drawn again (seen in about one run in three under CI, in either tab): tapped again, it must
    take; a second override to the same verdict changes nothing more (Referee.override of a call already
    so)."""
    override = page.get_by_role("button", name=re.compile("^Override"))
    override.click()
    try:
        expect(page.get_by_text(verdict)).to_be_visible(timeout=10_000)
    except AssertionError:
        override.click()
        expect(page.get_by_text(verdict)).to_be_visible(timeout=30_000)


def test_the_record_downloads_and_opens_and_a_new_verdict_is_said_once(tmp_path: Path) -> None:
    db_path = tmp_path / "games.sqlite3"
    stored_game(db_path)
    with streamlit_server(db_path) as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.add_init_script(FAKE_VOICE)
            open_referee(page, url)
            tap_override(page, "Legal (overridden)")  # a new verdict in this tab
            # Said as the verdict's fragment next draws it (within its second, later on a loaded machine) ...
            page.wait_for_function("window.__said.length > 0", timeout=30_000)
            time.sleep(3.0)  # ... and the screen is drawn again each second: still said once
            assert page.evaluate("window.__said") == ["Seat 1, Ann: legal, as a person called it."]

            page.get_by_text("Game record", exact=True).click()
            with page.expect_download() as download:
                page.get_by_role("button", name=re.compile("Download the game record")).click()
            assert download.value.suggested_filename == "table-1-referee-1.jsonl"
            saved = tmp_path / "record.jsonl"
            download.value.save_as(saved)
            record = parse_record(saved.read_bytes())
            assert [c.call.action for c in record.calls] == ["play", "drew", "play"]
            assert record.calls[2].call.overridden

            page.locator("input[type=file]").set_input_files(str(saved))
            expect(page.get_by_text("Opened record: Table 1 (3 turns)")).to_be_visible(timeout=30_000)
            drew = re.compile(r"^turn 2, seat 2: drew a tile; table before: ")
            expect(page.get_by_text(drew)).to_be_visible()

            quiet = browser.new_page(viewport={"width": 390, "height": 900})
            quiet.add_init_script(NO_VOICE)
            open_referee(quiet, url)
            tap_override(quiet, "Not legal (overridden)")
            time.sleep(2.0)
            # No voice: the script does nothing, and fails not. Chromium reports a ResizeObserver loop as a
            # window error when a narrow page's layout settles late (a loaded machine); that is no script's.
            errors = [e for e in quiet.evaluate("window.__errors") if "ResizeObserver loop" not in e]
            assert errors == []
        finally:
            browser.close()
