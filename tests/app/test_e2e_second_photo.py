"""In headless Chromium: a second photo in one tab is read and shown (Upload; Camera with a fake camera whose
video switches between two photos), and Live video without a camera says so instead of the browser's error
(issue 31, items 1 and 5). The photos are the bundled example (a render) and the same picture with only two
of its sets left."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
from app_browser import CHROMIUM_ARGS, ROOT, launch_chromium, streamlit_server
from playwright.sync_api import Page, expect, sync_playwright

EXAMPLE = ROOT / "vision" / "examples" / "table.jpg"
WHOLE_VERDICT = "Table not valid: 2 of 5 sets break the rules."
WHOLE_TILES = 19
PART_VERDICT = "Table valid: 2 sets, 9 tiles, 55 points."  # b5 r5 k5 o5 | o5 o6 o7 o8 o9
PART_TILES = 9
TILES_SEEN = re.compile(r"^(\d+) tiles seen")


def part_of_the_example() -> np.ndarray:
    """The example with two of its sets left (nine tiles), the rest painted over in the cloth's colour."""
    image = cv2.imread(str(EXAMPLE))
    truth = json.loads(EXAMPLE.with_suffix(".json").read_text())
    kept = np.zeros(image.shape[:2], np.uint8)
    for members in (truth["sets"][0], truth["sets"][2]):
        for index in members:
            corners = np.array(truth["tiles"][index]["corners"], np.float32)
            centre = corners.mean(axis=0)
            cv2.fillPoly(kept, [((corners - centre) * 1.15 + centre).astype(np.int32)], 255)
    image[kept == 0] = np.median(image[kept == 0], axis=0)
    return image


def open_app(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.get_by_text(re.compile(r"^Table 1 · standard"))).to_be_visible(timeout=60_000)


def tiles_seen(page: Page) -> int:
    caption = page.get_by_text(TILES_SEEN).first
    expect(caption).to_be_visible(timeout=120_000)
    return int(TILES_SEEN.search(caption.inner_text()).group(1))  # type: ignore[union-attr]


def test_a_second_upload_is_read_and_shown_in_a_real_browser(tmp_path: Path) -> None:
    part = tmp_path / "part.jpg"
    cv2.imwrite(str(part), part_of_the_example())
    with streamlit_server(tmp_path / "games.sqlite3") as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            open_app(page, url)
            page.get_by_text("Upload", exact=True).click()
            uploader = page.locator("[data-testid=stFileUploader] input[type=file]")
            uploader.set_input_files(str(EXAMPLE))
            expect(page.get_by_text(WHOLE_VERDICT)).to_be_visible(timeout=120_000)
            assert tiles_seen(page) == WHOLE_TILES
            # Remove the first photo, then add another: the new one is read, its picture and verdict shown.
            page.get_by_role("button", name="Remove table.jpg").click()
            uploader.set_input_files(str(part))
            expect(page.get_by_text(PART_VERDICT)).to_be_visible(timeout=120_000)
            expect(page.get_by_text(re.compile(rf"^{PART_TILES} tiles seen"))).to_be_visible()
            assert page.get_by_text(WHOLE_VERDICT).count() == 0
        finally:
            browser.close()


def write_two_photo_video(first: np.ndarray, second: np.ndarray, path: Path, seconds_each: int = 2) -> Path:
    """A fake camera's video: `first`, then `second`, `seconds_each` seconds each (Chromium loops it)."""
    height, width = first.shape[:2]
    height, width = height - height % 2, width - width % 2
    planes = [
        cv2.cvtColor(cv2.resize(image, (width, height)), cv2.COLOR_BGR2YUV_I420).tobytes()
        for image in (first, second)
    ]
    fps = 5
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for plane in planes:
            for _ in range(fps * seconds_each):
                out.write(b"FRAME\n")
                out.write(plane)
    return path


def test_a_second_camera_photo_is_read_and_shown_in_a_real_browser(tmp_path: Path) -> None:
    """The fake camera alternates the whole example and a part of it; after the first shot, shots are
    taken again until one shows the other photo: its tile count must then be shown (before the fix, the
    first photo's stayed)."""
    whole = cv2.imread(str(EXAMPLE))
    video = write_two_photo_video(whole, part_of_the_example(), tmp_path / "two.y4m")
    with streamlit_server(tmp_path / "games.sqlite3") as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright, video)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            open_app(page, url)
            page.get_by_text("Camera", exact=True).click()
            take = page.get_by_role("button", name=re.compile("take photo", re.IGNORECASE))
            expect(take).to_be_enabled(timeout=30_000)
            page.wait_for_timeout(1500)  # the fake camera's first frames
            take.click()
            first = tiles_seen(page)
            assert first in (WHOLE_TILES, PART_TILES)
            seen = [first]
            for _ in range(6):
                page.get_by_role("button", name=re.compile("clear photo", re.IGNORECASE)).click()
                expect(take).to_be_enabled(timeout=30_000)
                page.wait_for_timeout(2000)  # the video has moved on to the other photo (or back)
                take.click()
                expect(page.get_by_text(TILES_SEEN)).to_have_count(1, timeout=120_000)
                page.wait_for_timeout(1000)
                seen.append(tiles_seen(page))
                if seen[-1] != first:
                    break
            assert set(seen) == {WHOLE_TILES, PART_TILES}, seen
        finally:
            browser.close()


def test_live_video_without_a_camera_says_so(tmp_path: Path) -> None:
    without_camera = [arg for arg in CHROMIUM_ARGS if "fake-device" not in arg]
    with streamlit_server(tmp_path / "games.sqlite3") as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright, args=without_camera)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            open_app(page, url)
            page.get_by_text("Live video", exact=True).click()
            expect(page.get_by_text(re.compile(r"^No camera found in this browser"))).to_be_visible(
                timeout=60_000
            )
            assert page.get_by_text("NotFoundError").count() == 0
            assert page.locator("iframe").count() == 0  # no START that would only fail
        finally:
            browser.close()
