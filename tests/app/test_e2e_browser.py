"""End to end: `streamlit run app.py`, headless Chromium with a fake camera showing a rendered table scene, a
photo taken through the page's camera widget, and the verdict read off the page."""

from __future__ import annotations

import re
from pathlib import Path

from app_browser import CHROMIUM_ARGS, require_chromium, scene_image, streamlit_server, write_y4m
from playwright.sync_api import expect, sync_playwright

VERDICT = re.compile(r"Table valid|Table not valid|tile\(s\) not read")


def test_camera_photo_to_verdict_in_a_real_browser(tmp_path: Path) -> None:
    chromium = require_chromium()
    video = write_y4m(scene_image(), tmp_path / "table.y4m")
    with streamlit_server(tmp_path / "games.sqlite3") as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium),
            args=[*CHROMIUM_ARGS, f"--use-file-for-fake-video-capture={video}"],
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url)
            expect(page.get_by_text("Table 1 · standard")).to_be_visible(timeout=60_000)
            page.get_by_text("Camera", exact=True).click()
            take = page.get_by_role("button", name=re.compile("take photo", re.IGNORECASE))
            expect(take).to_be_enabled(timeout=30_000)
            take.click()
            verdict = page.get_by_text(VERDICT).first
            expect(verdict).to_be_visible(timeout=90_000)
            assert page.get_by_text(re.compile(r"\d+ tiles seen")).count() == 1
            assert page.get_by_text("could not be read").count() == 0
        finally:
            browser.close()
