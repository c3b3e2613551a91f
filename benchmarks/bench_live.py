"""Frames a second the live screen keeps up: `streamlit run app.py`, headless Chromium with a fake camera.

    python benchmarks/bench_live.py [--roots /path/to/old/checkout .] [--seconds 20] [--warmup 15]

For each checkout in turn: the app is started with its own code, Chromium's fake camera plays a rendered
table (a still table, then a hand passing over part of it, looped), the Live video source is started, and
the frames the server's video callback handles are counted over `--seconds` after `--warmup` seconds.
The count is taken by wrapping the callback given to `streamlit_webrtc.webrtc_streamer` (the same wrapper
for every checkout), so it measures what the screen shows whatever code the checkout runs per frame.
Needs Debian's Chromium (/usr/bin/chromium), playwright and streamlit-webrtc.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "app"))

from app_browser import free_port, launch_chromium, stop  # noqa: E402

WRAPPER = '''
import json, runpy, sys, threading, time
from pathlib import Path

root, stats = Path(sys.argv[1]), Path(sys.argv[2])
sys.path.insert(0, str(root))
import streamlit_webrtc

if not getattr(streamlit_webrtc, "_counted", False):
    original = streamlit_webrtc.webrtc_streamer
    handled = []
    lock = threading.Lock()

    def webrtc_streamer(*args, video_frame_callback=None, **kwargs):
        if video_frame_callback is not None:
            inner = video_frame_callback

            def counted(frame):
                out = inner(frame)
                with lock:
                    handled.append(time.monotonic())
                    part = stats.with_suffix(".part")
                    part.write_text(json.dumps({"frames": len(handled), "at": handled[-1]}))
                    part.replace(stats)  # whole, never half written, when the bench reads it
                return out

            video_frame_callback = counted
        return original(*args, video_frame_callback=video_frame_callback, **kwargs)

    streamlit_webrtc.webrtc_streamer = webrtc_streamer
    streamlit_webrtc._counted = True

runpy.run_path(str(root / "app.py"), run_name="__main__")
'''


def table_video(path: Path, fps: int = 15, seconds: float = 6.0) -> Path:
    """A y4m clip: a rendered table, still for half the clip, then a dark hand sweeping over its foot."""
    from datasets.render import render_indexed

    image, _, _ = render_indexed(9001, 0, long_side=640, kind="game")
    height, width = image.shape[:2]
    height, width = height - height % 2, width - width % 2
    image = image[:height, :width]
    frames = int(fps * seconds)
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for k in range(frames):
            frame = image.copy()
            if k >= frames // 2:
                x = int((k - frames // 2) / (frames - frames // 2) * width)
                cv2.ellipse(frame, (x, int(height * 0.8)), (70, 45), 0, 0, 360, (60, 80, 120), -1)
            out.write(b"FRAME\n")
            out.write(cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes())
    return path


def measure(root: Path, video: Path, work: Path, seconds: float, warmup: float) -> float:
    from playwright.sync_api import expect, sync_playwright

    stats = work / f"stats-{abs(hash(str(root)))}.json"
    wrapper = work / "counted_app.py"
    wrapper.write_text(WRAPPER)
    port = free_port()
    env = {**os.environ, "RUMMI_DB": str(work / f"games-{port}.sqlite3"), "PYTHONPATH": str(root)}
    command = [
        sys.executable, "-m", "streamlit", "run", str(wrapper),
        "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
        "--", str(root), str(stats),
    ]  # fmt: skip
    log_path = work / f"server-{port}.log"
    log = log_path.open("wb")
    server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start: {log_path.read_text()[-2000:]}")
            time.sleep(0.5)
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, video)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(url)
                expect(page.get_by_text("Live video", exact=True)).to_be_visible(timeout=300_000)
                page.get_by_text("Live video", exact=True).click()
                start = page.frame_locator("iframe").first.get_by_role("button", name="START")
                start.click(timeout=300_000)
                deadline = time.monotonic() + 300
                while not stats.is_file():
                    if time.monotonic() > deadline:
                        raise RuntimeError("the live stream never handled a frame")
                    time.sleep(0.5)
                time.sleep(warmup)
                first = json.loads(stats.read_text())
                time.sleep(seconds)
                last = json.loads(stats.read_text())
            finally:
                browser.close()
    finally:
        stop(server)
        log.close()
    print(f"{root}: {last['frames']} frames handled in all, {last['frames'] - first['frames']} in the window",
          file=sys.stderr)
    # Frames handled over the window, from its start to the last frame handled in it.
    return (last["frames"] - first["frames"]) / max(seconds, last["at"] - first["at"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--roots", type=Path, nargs="+", default=[ROOT], help="checkouts to compare")
    parser.add_argument("--seconds", type=float, default=20.0, help="counting window (default 20 s)")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds after the first frame (15)")
    parser.add_argument("--rounds", type=int, default=1, help="turns of each checkout (default 1)")
    args = parser.parse_args(argv)
    results: dict[str, list[float]] = {str(root): [] for root in args.roots}
    with tempfile.TemporaryDirectory(prefix="bench_live_") as folder:
        work = Path(folder)
        video = table_video(work / "table.y4m")
        for _ in range(args.rounds):
            for root in args.roots:
                fps = measure(root.resolve(), video, work, args.seconds, args.warmup)
                results[str(root)].append(fps)
                print(f"{root}: {fps:.2f} frames a second handled by the live screen", flush=True)
    print(f"load {os.getloadavg()[0]:.1f}; camera clip 15 fps, 640 px wide")
    for root, values in results.items():
        print(f"{root}: median {np.median(values):.2f} frames a second over {len(values)} round(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
