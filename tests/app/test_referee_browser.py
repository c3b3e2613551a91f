"""Referee mode end to end (issue 29): `streamlit run app.py`, headless Chromium whose fake camera plays a
rendered game (`datasets.game_video`), the shipped tile reader; the turns' verdicts appear with no tap."""

from __future__ import annotations

import re
from pathlib import Path

from app_browser import CHROMIUM_ARGS, launch_chromium, streamlit_server
from playwright.sync_api import Page, expect, sync_playwright

VIDEO_FPS = 15
VIDEO_SECONDS = 11.0
"""The first two turns of the rendered game (seed 7): seat 1 lays b9 b10 (not legal), then mends it with
b11 (legal); the camera's file then starts again."""
LEAD_SECONDS = 5.0
"""The empty table held still before the game: the stream is up (a few seconds) before the first turn."""


def referee_video(
    path: Path, seed: int = 7, seconds: float = VIDEO_SECONDS, fps: int = VIDEO_FPS, hold_s: float = 0.0
) -> Path:
    """A y4m (640x480) for Chromium's fake camera: the empty table still for `LEAD_SECONDS`, then the first
    `seconds` of a rendered two-player game, with hands coming and going, no light changes or camera
    shake; its last frame held for `hold_s` more seconds."""
    from itertools import chain, islice, repeat

    from datasets.game_script import simulate_game
    from datasets.game_video import render_frames, write_y4m

    script = simulate_game(seed, players=2, turns=3, solver_seconds=0.5)
    frames, _, _ = render_frames(script, fps=fps, size=(640, 480), light_changes=0.0, shakes=0.0)
    first = next(frames)
    lead = repeat(first, round(LEAD_SECONDS * fps))
    game = list(islice(frames, round(seconds * fps)))
    hold = repeat(game[-1], round(hold_s * fps))
    write_y4m(chain(lead, game, hold), path, fps=fps, size=(640, 480))
    return path


def start_referee(page: Page, url: str) -> None:
    """The Referee screen with the camera started (the one tap: the browser's camera needs it)."""
    page.goto(url)
    expect(page.get_by_text("Table 1 · standard")).to_be_visible(timeout=60_000)
    page.get_by_role("radiogroup", name="Screen").get_by_text("Referee", exact=True).click()
    expect(page.get_by_text("No turn judged yet", exact=False)).to_be_visible(timeout=30_000)
    camera = page.frame_locator("iframe[title*='webrtc']").first
    camera.get_by_role("button", name=re.compile("^start$", re.IGNORECASE)).click(timeout=60_000)


def test_verdicts_appear_with_no_tap(tmp_path: Path) -> None:
    # The mended table held still after turn 2, so the file's restart comes after the draw.
    video = referee_video(tmp_path / "game.y4m", seconds=11.0, hold_s=15.0)
    with streamlit_server(tmp_path / "games.sqlite3") as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright, video)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            start_referee(page, url)
            # Turn 1 (b9 b10) is not legal; turn 2 mends it with b11: both judged as the table settles.
            first = re.compile(r"^Turn 1 · seat 1 · played b9 b10 · NOT legal")
            expect(page.get_by_text(first)).to_be_visible(timeout=60_000)
            expect(page.get_by_text(re.compile(r"^Turn 2 · seat 1 · played b11 · legal"))).to_be_visible(
                timeout=40_000
            )
            expect(page.get_by_text("Turn history (", exact=False)).to_be_visible()
            verdict = page.locator(".st-key-referee_verdict")
            assert "Legal" in verdict.inner_text() or "Not legal" in verdict.inner_text()
            # The verdict's sound (hidden) played by itself.
            expect(page.locator(".st-key-referee_sound audio")).to_have_count(1, timeout=10_000)
            page.wait_for_function(
                "() => { const a = document.querySelector('.st-key-referee_sound audio');"
                " return a !== null && (a.currentTime > 0 || a.ended); }",
                timeout=10_000,
            )
            rate = page.get_by_text(re.compile(r"^Camera: \d+ frames a second")).first.inner_text()
            fps = int(re.search(r"(\d+) frames", rate).group(1))  # type: ignore[union-attr]
            # The file plays at 15; on two shared cores the browser and the server decode and encode the
            # video too (RefereeStream's own test shows reads never hold frames up).
            assert fps >= 5, rate
            # The turn's snapshot. The history is a fragment drawn again every second: counted at one
            # instant, its picture can be between two drawings (CI on the loaded machine: 0).
            expect(page.locator(".st-key-referee_turn_1_1 img")).to_have_count(1, timeout=10_000)
            # Seat 2 draws: the key D (the keyboard still on the camera's panel, where Start was tapped).
            page.keyboard.press("d")
            drew = re.compile(r"^Turn 3 · seat 2 · drew a tile$")
            expect(page.get_by_text(drew)).to_be_visible(timeout=20_000)
        finally:
            browser.close()


def test_a_refused_camera_gets_a_plain_message(tmp_path: Path) -> None:
    # No fake permission prompt: the browser refuses the camera, as a player who taps "Block".
    refusing = [a for a in CHROMIUM_ARGS if a != "--use-fake-ui-for-media-stream"]
    refusing.append("--deny-permission-prompts")
    with streamlit_server(tmp_path / "games.sqlite3") as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright, args=refusing)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            start_referee(page, url)
            expect(page.locator("#rummi-camera-help")).to_have_text(
                re.compile(r"^The camera is blocked: allow it in the browser's site settings"), timeout=30_000
            )
            camera = page.frame_locator("iframe[title*='webrtc']").first
            expect(camera.get_by_text("No camera picture: see the note below.")).to_be_visible()
            assert camera.get_by_text("NotAllowedError").count() == 0
            assert page.get_by_text("NotAllowedError").count() == 0
        finally:
            browser.close()
