"""Drive the real app in headless Chromium: `streamlit run` on a free port, a fake camera fed from a file.

Used by `test_e2e_browser.py` and by `screenshots.py` (which writes docs/screenshots/).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_y4m(image_bgr: np.ndarray, path: Path, frames: int = 5, fps: int = 10) -> Path:
    """A short raw video of one still picture, the format Chromium's fake camera reads."""
    height, width = image_bgr.shape[:2]
    image_bgr = image_bgr[: height - height % 2, : width - width % 2]
    height, width = image_bgr.shape[:2]
    planes = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2YUV_I420).tobytes()
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            out.write(b"FRAME\n")
            out.write(planes)
    return path


def scene_image(long_side: int = 960) -> np.ndarray:
    """The bundled example photo if shipped, else a rendered game scene (never a real photo)."""
    example = ROOT / "vision" / "examples" / "table.jpg"
    if example.is_file():
        image = cv2.imread(str(example))
    else:
        from datasets.render import render_indexed

        image, _, _ = render_indexed(seed=2026, index=0, long_side=long_side, kind="game")
    scale = long_side / max(image.shape[:2])
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


@contextmanager
def streamlit_server(db_path: Path, timeout_s: float = 90.0, address: str = "127.0.0.1") -> Iterator[str]:
    """`streamlit run app.py` on a free port with its own database, answering on `address` (0.0.0.0: this
    computer's network too); yields the URL on localhost."""
    port = free_port()
    env = {**os.environ, "RUMMI_DB": str(db_path), "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
        "--server.port", str(port), "--server.address", address, "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
    ]  # fmt: skip
    log_path = db_path.with_suffix(".log")
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout_s
            while True:
                if server.poll() is not None:
                    raise RuntimeError(
                        f"streamlit exited with {server.returncode}: {log_path.read_text()[-2000:]}"
                    )
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit did not answer within {timeout_s:.0f} s")
                time.sleep(0.5)
            yield url
        finally:
            stop(server)


def stop(server: subprocess.Popen[Any], timeout_s: float = 10.0) -> None:
    """Ask a server to stop; kill it if it has not within `timeout_s`."""
    server.terminate()
    try:
        server.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        server.kill()


def require_chromium() -> Path:
    """Raises: RuntimeError (the test fails, it is not skipped) when Chromium is not installed."""
    if not CHROMIUM.is_file():
        raise RuntimeError(
            f"{CHROMIUM} is missing: the browser test needs Debian's Chromium (`apt-get install -y chromium`)"
        )
    return CHROMIUM


def launch_chromium(playwright: Any, video: Path | None = None, args: Sequence[str] = CHROMIUM_ARGS) -> Any:
    """Headless Chromium (`args`) whose fake camera shows `video` (a .y4m file), or Chromium's own test
    pattern without one.

    Raises:
        RuntimeError: Chromium is not installed (`require_chromium`).
    """
    video_args = [f"--use-file-for-fake-video-capture={video}"] if video is not None else []
    return playwright.chromium.launch(executable_path=str(require_chromium()), args=[*args, *video_args])


def rack_photos(folder: Path, count: int = 2, seed: int = 2027, long_side: int = 1024) -> list[Path]:
    """Rendered photos of one rack each (`datasets.render`, kind "rack") as JPEG files, never real photos."""
    from datasets.render import render_indexed

    paths = []
    for index in range(count):
        image, _, _ = render_indexed(seed=seed, index=index, long_side=long_side, kind="rack")
        path = folder / f"rack-{index + 1}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        paths.append(path)
    return paths


def page_overflow(page: object) -> int:
    """How many pixels the page is wider than the window (0: nothing runs off to the side)."""
    return int(
        page.evaluate(  # type: ignore[attr-defined]
            "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth"
        )
    )
