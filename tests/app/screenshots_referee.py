"""Screenshots of the Referee screen at desktop and phone width, into docs/screenshots/ (small PNGs): the
fake camera plays a rendered game (`test_referee_browser.referee_video`) until two turns are judged.

    .venv/bin/python tests/app/screenshots_referee.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path

from app_browser import ROOT, launch_chromium, streamlit_server
from playwright.sync_api import expect, sync_playwright
from screenshots import WIDTHS, shoot
from test_referee_browser import referee_video, start_referee


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        video = referee_video(work / "game.y4m", seconds=11.0, hold_s=20.0)  # turn 2 stays the last
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, video)
            for width_name, (width, height) in WIDTHS.items():
                with streamlit_server(work / f"referee-{width_name}.sqlite3") as url:
                    page = browser.new_page(viewport={"width": width, "height": height})
                    start_referee(page, url)
                    second = re.compile(r"^Turn 2 · seat 1 · played b11 · legal")
                    expect(page.get_by_text(second)).to_be_visible(timeout=90_000)
                    shoot(page, args.out / f"referee-{width_name}.png")
                    page.close()
            browser.close()
    print(f"wrote the Referee screenshots to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
