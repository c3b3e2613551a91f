"""Screenshots of every screen at desktop and phone width, into docs/screenshots/ (small PNGs).

    .venv/bin/python tests/app/screenshots.py [--out docs/screenshots]

A game with a disputed turn and three scored rounds is stored first, so each screen has something to show.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np
from app_browser import ROOT, launch_chromium, rack_photos, scene_image, streamlit_server, write_y4m
from PIL import Image
from playwright.sync_api import Page, expect, sync_playwright

sys.path.insert(0, str(ROOT))

from assistant.storage import Storage  # noqa: E402

# Streamlit scrolls inside the page, so a tall window stands in for a full-page shot; blank rows are cut.
WIDTHS = {"desktop": (1280, 2400), "phone": (390, 3200)}
MAX_WIDTH = 900
MAX_HEIGHT = 2000


def seed_game(db_path: Path) -> tuple[int, int]:
    """A standard game with a disputed turn and three rounds, and a tournament game; returns both ids."""
    store = Storage(db_path)
    game_id = store.create_game("Friday table", "standard", ["Ann", "Ben", "Cy"], camera="type")
    store.set_agreed_layout(game_id, "r10 r11 r12 | k7 b7 o7")
    store.start_turn(game_id, 1, "r10 r11 r12 | k7 b7 o7", "", started_at=1000.0)
    store.finish_turn(
        game_id, 1000.0, after="r10 r11 r12 r13 | k7 b7 | o7 o8", legal=False, action="play",
        played="r13 o8", reasons=["set 3 (o7 o8) is left invalid: a set needs at least 3 tiles"],
        penalty_tiles=1, agreed_layout="r10 r11 r12 | k7 b7 o7", next_seat=2, opened=False, ended_at=1042.0,
    )  # fmt: skip
    for number, scores in enumerate(([41, -30, -11], [-9, 25, -16], [-20, -4, 24]), start=1):
        store.record_round(
            game_id, number, blocked=number == 2,
            racks={seat: "r5" for seat in range(3)},
            rack_values={seat: max(0, -score) for seat, score in enumerate(scores)},
            scores=dict(enumerate(scores)), winners={max(range(3), key=lambda s: scores[s])},
        )  # fmt: skip
    store.set_table_layout(game_id, "r10 r11 r12 | k7 b7 o7 | J o4 o5 | b9 b9 b10")
    cup = store.create_game("Cup final", "tournament", ["Ann", "Ben"], camera="type")
    store.set_table_layout(cup, "k1 k2 k3")
    return game_id, cup


def shoot(page: Page, path: Path) -> None:
    page.wait_for_timeout(800)
    # Elements of the previous run stay on the page, faded, until the new run has finished.
    page.wait_for_function("document.querySelectorAll('[data-stale=\"true\"]').length === 0", timeout=60_000)
    page.wait_for_timeout(1200)
    page.screenshot(path=str(path))
    image = cv2.imread(str(path))
    used = np.flatnonzero(
        (np.abs(image.astype(int) - image[-1:, :, :].astype(int)).sum(axis=2) > 30).any(axis=1)
    )
    image = image[: int(used[-1]) + 24] if len(used) else image
    image = image[:MAX_HEIGHT]
    scale = min(1.0, MAX_WIDTH / image.shape[1])
    if scale < 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    # A 256-colour palette keeps the PNGs small; text stays sharp.
    palette = Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB)).quantize(
        256, method=Image.Quantize.FASTOCTREE
    )
    palette.save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        video = write_y4m(scene_image(), work / "table.y4m")
        example_db = work / "example.sqlite3"
        seeded_db = work / "seeded.sqlite3"
        friday, cup = seed_game(seeded_db)
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, video)
            for width_name, (width, height) in WIDTHS.items():
                with streamlit_server(example_db.with_name(f"example-{width_name}.sqlite3")) as url:
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(url)
                    expect(page.get_by_text("Table 1 · standard")).to_be_visible(timeout=60_000)
                    # The tile reader loads on the first photo: wait for its reading, not the bare header.
                    expect(page.get_by_text(re.compile(r"\d+ tiles seen"))).to_be_visible(timeout=90_000)
                    shoot(page, args.out / f"table-example-{width_name}.png")
                    tiles = page.locator("[data-testid=stButtonGroup] button")
                    if tiles.count():  # none when the tile reader is not shipped
                        tiles.first.click()
                        shoot(page, args.out / f"table-fix-{width_name}.png")
                    page.get_by_text("Camera", exact=True).click()
                    take = page.get_by_role("button", name=re.compile("take photo", re.IGNORECASE))
                    expect(take).to_be_enabled(timeout=30_000)
                    page.wait_for_timeout(1500)  # the fake camera's first frames
                    take.click()
                    expect(page.get_by_text(re.compile(r"\d+ tiles seen"))).to_be_visible(timeout=90_000)
                    shoot(page, args.out / f"table-camera-{width_name}.png")
                    # The live stream (streamlit-webrtc) with the verdict drawn on each frame.
                    page.get_by_text("Live video", exact=True).click()
                    start = page.frame_locator("iframe").first.get_by_role("button", name="START")
                    start.click(timeout=60_000)
                    page.wait_for_timeout(12_000)
                    shoot(page, args.out / f"table-live-{width_name}.png")
                    page.close()
                with streamlit_server(seeded_db) as url:
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(f"{url}/?game={friday}")
                    expect(page.get_by_text("Friday table · standard")).to_be_visible(timeout=60_000)
                    shoot(page, args.out / f"table-typed-{width_name}.png")
                    # The Referee screen, with a game under way: tests/app/screenshots_referee.py.
                    for screen in ("Turn", "Round", "Game", "Setup", "Tournament"):
                        page.get_by_role("radiogroup", name="Screen").get_by_text(screen, exact=True).click()
                        shoot(page, args.out / f"{screen.lower()}-{width_name}.png")
                    # The Game screen's address and QR code for a phone.
                    page.get_by_role("radiogroup", name="Screen").get_by_text("Game", exact=True).click()
                    page.get_by_text("Open on a phone", exact=True).click()
                    shoot(page, args.out / f"game-phone-qr-{width_name}.png")
                    # Round 4 read from photos of the three racks (rendered rack scenes), one tile tapped.
                    page.get_by_role("radiogroup", name="Screen").get_by_text("Round", exact=True).click()
                    expect(page.get_by_text("Round 4: racks at the end")).to_be_visible(timeout=30_000)
                    page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(
                        [str(p) for p in rack_photos(work, count=3)]
                    )
                    expect(page.get_by_label("Ann's rack (blank if they went out)")).not_to_have_value(
                        "", timeout=120_000
                    )
                    rows = page.locator("[data-testid=stButtonGroup]").filter(has_text=re.compile("^Ann: "))
                    rows.first.locator("button").first.click()
                    shoot(page, args.out / f"round-racks-{width_name}.png")
                    page.close()
                    # A tournament turn under way: the 60-second timer.
                    Storage(seeded_db).start_turn(cup, 0, "k1 k2 k3", "")
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(f"{url}/?game={cup}")
                    expect(page.get_by_text("Cup final · tournament")).to_be_visible(timeout=60_000)
                    page.get_by_role("radiogroup", name="Screen").get_by_text("Turn", exact=True).click()
                    shoot(page, args.out / f"turn-timer-{width_name}.png")
                    Storage(seeded_db).cancel_turn(cup)
                    page.close()
            browser.close()
    print(f"wrote {len(list(args.out.glob('*.png')))} screenshots to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
