"""The Referee screen live, as a table uses it: frames a second, time to each verdict, and its calls against
`rummi watch` on the same video (issue 36).

    python benchmarks/bench_referee_live.py --video GAME.mp4 [--seconds-limit S] [--json OUT]

GAME.mp4 is a rendered game (`python -m datasets.game_video`) beside its truth (GAME.json: players, first
seat, each turn's `time_s`, the moment the table has been still for the settle time, as
`vision.evaluation.game_videos` scores it). The bench

1. runs `rummi watch GAME.mp4 --players N --first SEAT --json` (the file read directly, 5 frames a second);
2. writes the video as a Y4M file for Chromium's fake camera at `--camera-fps` (30: each frame repeated, as a
   camera gives them), its first frame held still `--lead` seconds before the game and its last `--tail`
   seconds after it (Chromium loops the file: nothing after the first playthrough is counted);
3. starts `streamlit run app.py` on a throwaway SQLite database, opens the Referee screen in headless Chromium
   whose fake camera plays the file, starts a new referee game with the truth's players and first seat,
   presses the camera's Start, and lets the file play once.

Measured on the way:

- the video's start: when the page's `getUserMedia` (the camera's Start) gave the stream, by the browser's
  clock; checked by the pictures: every third frame the server gets is matched to the video's frames (a
  small grey copy), giving the camera-to-server delay;
- frames a second: the "Camera: N frames a second" line the screen shows (sampled each half second), the
  frames the server's video callback hands to the referee (`RefereeStream.on_frame`) and the frames its
  watcher looks at (`RefereeStream.process`, a frame that comes during a read is skipped), counted over the
  game (lead and tail left out);
- each call: seat, action, legal, tiles added and removed (from the database), the frame it was judged on
  (server clock), when it was stored, and when it appeared on the screen (the turn history's entry or the
  verdict box, by the browser's clock, polled every 0.1 s); its delay after the table settled (truth
  `time_s`, on the video's timeline from the camera's start);
- the live calls paired with `rummi watch`'s in time order (`pair_calls`: from 1 s before to `--match-s`
  after, the live screen running behind the file): the same or which fields differ (seat, action, legal,
  added, removed), and each side's calls against the truth
  (as `game_videos.score_calls`, paired the same way).

Needs Debian's Chromium (/usr/bin/chromium), playwright and streamlit-webrtc. Writes 1.1 MB a frame of Y4M
(about 2.5 GB for a 65 s game at 30 frames a second) in a temporary folder (`--work` keeps it).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "app"))

from app_browser import free_port, launch_chromium, stop  # noqa: E402

from vision.evaluation.game_videos import COMPARED  # noqa: E402

EARLY_S = 1.0
"""A live call is paired with a true turn (or a call of `rummi watch`) from this long before it to `--match-s`
after it (`pair_calls`)."""
THUMB = (80, 60)
THUMB_EVERY = 3
"""Every third frame the server gets is kept small and grey, to find which frame of the video it was."""

WRAPPER = """
import json, os, runpy, struct, sys, threading, time
from pathlib import Path

root, stats_path, thumbs_path = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
sys.path.insert(0, str(root))
import cv2
import ui.referee as referee_ui

if not getattr(referee_ui, "_bench_counted", False):
    lock = threading.Lock()
    state = {"shown": [], "looked": [], "sizes": {}, "changes": [], "banner": [], "written": 0.0}
    thumbs = thumbs_path.open("ab")
    recorded = os.environ.get("BENCH_RECORD")
    record = open(recorded, "ab") if recorded else None
    on_frame, process = referee_ui.RefereeStream.on_frame, referee_ui.RefereeStream.process

    def save(now):
        part = stats_path.with_suffix(".part")
        kept = ("shown", "looked", "sizes", "changes", "banner")
        part.write_text(json.dumps({key: state[key] for key in kept}))
        part.replace(stats_path)  # whole, never half written, when the bench reads it
        state["written"] = now

    def counted_on_frame(self, image, *given):  # the frame, and its stream's time where the app passes it
        now = time.monotonic()
        with lock:
            state["shown"].append(now)
            size = f"{image.shape[1]}x{image.shape[0]}"
            state["sizes"][size] = state["sizes"].get(size, 0) + 1
            if not state["changes"] or state["changes"][-1][1] != size:
                state["changes"].append([now, size])  # the browser's encoder scales the picture as it can
            if len(state["shown"]) % THUMB_EVERY == 0:
                grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
                small = cv2.resize(grey, THUMB, interpolation=cv2.INTER_AREA)
                captured = float(given[0]) if given and given[0] is not None else float("nan")
                thumbs.write(struct.pack("<dd", now, captured) + small.tobytes())
                thumbs.flush()
            if now - state["written"] >= 1.0:
                save(now)
        shown = on_frame(self, image, *given)
        call = self.banner()  # the call drawn on this frame, as the server hands it to the stream
        drawn = None if call is None else [call.turn, call.action, call.legal]
        with lock:
            if not state["banner"] or state["banner"][-1][1] != drawn:
                state["banner"].append([time.monotonic(), drawn])
        return shown

    def counted_process(self, frame, time_s, index=0):
        started = time.monotonic()
        if record is not None:  # every frame the watcher looks at, whole, with its time (replay_live.py)
            height, width = frame.shape[:2]
            record.write(struct.pack("<dqii", time_s, index, height, width) + frame.tobytes())
            record.flush()
        try:
            return process(self, frame, time_s, index)
        finally:
            with lock:
                state["looked"].append([started, time.monotonic() - started])

    referee_ui.RefereeStream.on_frame = counted_on_frame
    referee_ui.RefereeStream.process = counted_process
    referee_ui._bench_counted = True

runpy.run_path(str(root / "app.py"), run_name="__main__")
""".replace("THUMB_EVERY", str(THUMB_EVERY)).replace("THUMB", repr(THUMB))

CAMERA_SCRIPT = """
(() => {
  const proto = window.MediaDevices && window.MediaDevices.prototype;
  if (!proto || !proto.getUserMedia || proto.benchWrapped) return;
  const original = proto.getUserMedia;
  proto.getUserMedia = function (constraints) {
    const asked = Date.now();
    return original.call(this, constraints).then((stream) => {
      const track = stream.getVideoTracks()[0];
      const settings = track ? track.getSettings() : {};
      try {
        window.benchCamera(asked, Date.now(), JSON.stringify(constraints), JSON.stringify(settings));
      } catch (error) {}
      return stream;
    });
  };
  proto.benchWrapped = true;
})();
"""

WATCH_SCREEN = """
() => {
  if (window.benchSeen) return;
  const seen = {};
  const rates = [];
  window.benchSeen = seen;
  window.benchRates = rates;
  let tick = 0;
  setInterval(() => {
    const now = Date.now();
    for (const element of document.querySelectorAll('[class*="st-key-referee_turn_"]')) {
      const key = [...element.classList].find((name) => name.startsWith("st-key-referee_turn_"));
      if (key && !(key in seen)) seen[key] = {t: now, text: element.innerText};
    }
    const verdict = document.querySelector(".st-key-referee_verdict");
    if (verdict) {
      const match = (verdict.innerText || "").match(/Turn (\\d+) ·/);
      if (match && !(("verdict_" + match[1]) in seen)) {
        seen["verdict_" + match[1]] = {t: now, text: verdict.innerText};
      }
    }
    if (tick++ % 5 === 0) {
      for (const caption of document.querySelectorAll('[data-testid="stCaptionContainer"]')) {
        const match = (caption.innerText || "").match(/^Camera: (\\d+) frames a second/);
        if (match) { rates.push([now, Number(match[1]), caption.innerText]); break; }
      }
    }
  }, 100);
}
"""

BANNER_WATCH = """
() => {
  // In the camera's frame: the colour of the banner's solid square (ui.referee: the last call drawn across
  // the top of the picture, vision.tracking.draw_banner) in the picture the page shows, every 50 ms.
  if (window.benchBanner) return;
  const changes = [];
  window.benchBanner = changes;
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", {willReadFrequently: true});
  const colours = {legal: [30, 140, 60], illegal: [190, 30, 30], drew: [40, 90, 190]};
  let last = null;
  setInterval(() => {
    let found = "none";
    for (const video of document.querySelectorAll("video")) {
      const w = video.videoWidth, h = video.videoHeight;
      if (!w || !h || video.paused) continue;
      const band = Math.max(24, Math.round(h * 0.085));
      const x0 = 2, x1 = Math.max(3, Math.floor(band / 2)), y0 = Math.floor(band / 4);
      const y1 = Math.max(y0 + 1, Math.floor(band * 3 / 4));
      canvas.width = x1 - x0; canvas.height = y1 - y0;
      context.drawImage(video, x0, y0, x1 - x0, y1 - y0, 0, 0, x1 - x0, y1 - y0);
      const pixels = context.getImageData(0, 0, x1 - x0, y1 - y0).data;
      for (const [name, [r, g, b]] of Object.entries(colours)) {
        let near = 0;
        for (let i = 0; i < pixels.length; i += 4) {
          near += Math.abs(pixels[i] - r) < 45 && Math.abs(pixels[i + 1] - g) < 45
            && Math.abs(pixels[i + 2] - b) < 45;
        }
        if (near >= 0.8 * pixels.length / 4) found = name;
      }
    }
    if (found !== last) { changes.push([Date.now(), found]); last = found; }
  }, 50);
}
"""


# -- the video -------------------------------------------------------------------------------------------


def write_camera_file(
    video: Path, out: Path, camera_fps: int, lead_s: float, tail_s: float, limit_s: float | None
) -> dict[str, Any]:
    """The game as a Y4M file at `camera_fps` (each frame repeated to its time), the first frame held `lead_s`
    before and the last `tail_s` after; with `limit_s`, only that much of the game. Returns its length, the
    game's frame rate and a small grey copy of each game frame (`THUMB`)."""
    capture = cv2.VideoCapture(str(video))
    if not capture.isOpened():
        raise SystemExit(f"cannot read a video from {video}")
    source_fps = capture.get(cv2.CAP_PROP_FPS) or 10.0
    thumbs: list[np.ndarray] = []
    written = 0
    with out.open("wb") as handle:
        planes = b""
        last_time = 0.0
        index = 0
        while True:
            ok, frame = capture.read()
            if not ok or (limit_s is not None and index / source_fps >= limit_s):
                break
            height, width = frame.shape[:2]
            frame = frame[: height - height % 2, : width - width % 2]
            if index == 0:
                height, width = frame.shape[:2]
                handle.write(f"YUV4MPEG2 W{width} H{height} F{camera_fps}:1 Ip A1:1 C420jpeg\n".encode())
            planes = cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes()
            grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            thumbs.append(cv2.resize(grey, THUMB, interpolation=cv2.INTER_AREA).astype(np.float32))
            if index == 0:
                for _ in range(round(lead_s * camera_fps)):
                    handle.write(b"FRAME\n" + planes)
                    written += 1
            # the camera's frames up to this frame's end: frame k shows from k / source_fps on
            last_time = (index + 1) / source_fps
            until = round(lead_s * camera_fps) + round(last_time * camera_fps)
            while written < until:
                handle.write(b"FRAME\n" + planes)
                written += 1
            index += 1
        capture.release()
        if index == 0:
            raise SystemExit(f"no frame could be read from {video}")
        for _ in range(round(tail_s * camera_fps)):
            handle.write(b"FRAME\n" + planes)
            written += 1
    return {
        "frames": written,
        "seconds": written / camera_fps,
        "game_seconds": last_time,
        "source_fps": source_fps,
        "size": f"{width}x{height}",
        "thumbs": np.stack(thumbs),
    }


# -- rummi watch -----------------------------------------------------------------------------------------


def run_watch(video: Path, players: int, first: int) -> tuple[list[dict[str, Any]], float]:
    """`rummi watch VIDEO --players N --first SEAT --json`: its calls and its wall seconds."""
    command = [sys.executable, "-m", "rummi", "watch", str(video), "--players", str(players),
               "--first", str(first), "--json"]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(f"rummi watch failed ({done.returncode}): {done.stderr[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip().startswith("{")], wall


# -- the live screen -------------------------------------------------------------------------------------


def start_server(work: Path, db: Path, stats: Path, thumbs: Path) -> tuple[subprocess.Popen[bytes], str, Any]:
    wrapper = work / "counted_app.py"
    wrapper.write_text(WRAPPER)
    port = free_port()
    env = {**os.environ, "RUMMI_DB": str(db), "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable, "-m", "streamlit", "run", str(wrapper),
        "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
        "--", str(ROOT), str(stats), str(thumbs),
    ]  # fmt: skip
    log_path = work / "server.log"
    log = log_path.open("wb")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return server, url, log
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise SystemExit(f"streamlit did not start: {log_path.read_text()[-2000:]}")
        time.sleep(0.5)


def newest_referee_game(db: Path) -> dict[str, Any] | None:
    if not db.is_file():
        return None
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT id, players, first_seat, settle_s FROM referee_games ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return (
        None if row is None else {"id": row[0], "players": row[1], "first_seat": row[2], "settle_s": row[3]}
    )


def stored_calls(db: Path, referee_id: int) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT number, call, recorded_at FROM referee_turns WHERE referee_id = ? ORDER BY number",
            (referee_id,),
        ).fetchall()
    return [
        {"number": number, "call": json.loads(call), "recorded_at": float(at)} for number, call, at in rows
    ]


def run_live(
    camera_file: Path, work: Path, players: int, first: int, play_s: float, settle_wait_s: float = 2.0
) -> dict[str, Any]:
    """The Referee screen over the camera file, played once: what the page, the server and the database saw.
    Times: wall clock (`time.time`, the browser's `Date.now` / 1000), the server's frames by `time.monotonic`
    (the same clock in every process here), given as wall clock with `mono_to_wall`."""
    from playwright.sync_api import expect, sync_playwright

    db, stats, thumbs = work / "games.sqlite3", work / "stats.json", work / "thumbs.bin"
    for old in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"), stats, thumbs):
        old.unlink(missing_ok=True)  # a throwaway database: a kept `--work` folder starts afresh too
    mono_to_wall = time.time() - time.monotonic()
    server, url, log = start_server(work, db, stats, thumbs)
    cameras: list[dict[str, Any]] = []
    loads: list[float] = []
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, camera_file)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                page.expose_function(
                    "benchCamera",
                    lambda asked, given, constraints, settings: cameras.append(
                        {
                            "asked": asked / 1000,
                            "given": given / 1000,
                            "constraints": json.loads(constraints),
                            "settings": json.loads(settings),
                            "heard": time.time(),
                        }
                    ),
                )
                page.add_init_script(CAMERA_SCRIPT)
                page.goto(url)
                expect(page.get_by_text("Table 1 · standard")).to_be_visible(timeout=120_000)
                page.get_by_role("radiogroup", name="Screen").get_by_text("Referee", exact=True).click()
                expect(page.get_by_text("No turn judged yet", exact=False)).to_be_visible(timeout=120_000)
                before = newest_referee_game(db)
                # A new referee game with the truth's seats and first seat.
                page.get_by_text("Referee settings", exact=True).click()
                for label, value in (("Players", players), ("First seat", first)):
                    box = page.get_by_label(label, exact=True)
                    box.fill(str(value))
                    box.press("Enter")
                    page.wait_for_timeout(1500)
                page.get_by_role("button", name="New referee game").click()
                deadline = time.monotonic() + 60
                while True:
                    game = newest_referee_game(db)
                    if (
                        game is not None
                        and (before is None or game["id"] > before["id"])
                        and game["players"] == players
                        and game["first_seat"] == first
                    ):
                        break
                    if time.monotonic() > deadline:
                        raise SystemExit(
                            f"no new referee game with {players} players, first seat {first}: {game}"
                        )
                    page.wait_for_timeout(300)
                expect(page.get_by_text("No turn judged yet", exact=False)).to_be_visible(timeout=30_000)
                page.evaluate(WATCH_SCREEN)
                camera = page.frame_locator("iframe[title*='webrtc']").first
                pressed = time.time()
                camera.get_by_role("button", name=re.compile("^start$", re.IGNORECASE)).click(timeout=60_000)
                deadline = time.monotonic() + 60
                while not cameras:
                    if time.monotonic() > deadline:
                        raise SystemExit("the camera never started (no getUserMedia stream)")
                    page.wait_for_timeout(100)
                start = cameras[0]["given"]
                camera_frame = page.query_selector("iframe[title*='webrtc']").content_frame()
                camera_frame.evaluate(BANNER_WATCH)
                # The file played once, and time for its last verdict to be polled and shown.
                end = start + play_s + settle_wait_s
                while time.time() < end:
                    page.wait_for_timeout(500)
                    loads.append(os.getloadavg()[0])
                seen = page.evaluate("() => window.benchSeen")
                banner = camera_frame.evaluate("() => window.benchBanner")
                rates = page.evaluate("() => window.benchRates")
                counted = json.loads(stats.read_text()) if stats.is_file() else {"shown": [], "looked": []}
            finally:
                browser.close()
    finally:
        stop(server, 15)
        log.close()
    referee_id = int(game["id"])
    calls = stored_calls(db, referee_id)
    raw = thumbs.read_bytes() if thumbs.is_file() else b""
    step = 16 + THUMB[0] * THUMB[1]
    server_thumbs = []
    for i in range(0, len(raw) - step + 1, step):
        at, captured = struct.unpack("<dd", raw[i : i + 16])
        small = np.frombuffer(raw[i + 16 : i + step], dtype=np.uint8).reshape(THUMB[1], THUMB[0])
        server_thumbs.append((at + mono_to_wall, small.astype(np.float32), captured))
    return {
        "referee_game": game,
        "pressed": pressed,
        "cameras": cameras,
        "start": start,
        "seen": seen,
        "banner": [(at / 1000, colour) for at, colour in banner or []],
        "rates": [{"at": at / 1000, "fps": fps, "text": text} for at, fps, text in rates],
        "shown": [t + mono_to_wall for t in counted.get("shown", [])],
        "looked": [(t + mono_to_wall, d) for t, d in counted.get("looked", [])],
        "sizes": counted.get("sizes", {}),
        "server_banner": [(t + mono_to_wall, drawn) for t, drawn in counted.get("banner", [])],
        "size_changes": [(t + mono_to_wall, size) for t, size in counted.get("changes", [])],
        "calls": calls,
        "mono_to_wall": mono_to_wall,
        "server_thumbs": server_thumbs,
        "loads": loads,
    }


# -- the figures ---------------------------------------------------------------------------------------------


def normal(call: dict[str, Any]) -> dict[str, Any]:
    return {key: sorted(call[key]) if key in ("added", "removed") else call[key] for key in COMPARED}


def pair_calls(
    refs: list[dict[str, Any]], calls: list[dict[str, Any]], early_s: float, late_s: float
) -> list[tuple[int | None, int | None]]:
    """Pairs of indices (ref, call) in time order: each ref (a true turn, or a call of `rummi watch`) takes
    a call from `early_s` before it to `late_s` after it (the live screen runs behind the file), later than
    the call taken before; of those, the first with the ref's seat and action, else the first. Those left
    over are paired with None."""
    order = sorted(range(len(calls)), key=lambda k: calls[k]["time_s"])
    pairs: list[tuple[int | None, int | None]] = []
    taken: set[int] = set()
    after = -1  # the place in `order` of the call taken last
    for i in sorted(range(len(refs)), key=lambda k: refs[k]["time_s"]):
        ref = refs[i]
        near = [
            n for n in range(after + 1, len(order))
            if -early_s <= calls[order[n]]["time_s"] - ref["time_s"] <= late_s
        ]  # fmt: skip
        alike = [
            n
            for n in near
            if (calls[order[n]]["seat"], calls[order[n]]["action"]) == (ref["seat"], ref["action"])
        ]
        if not near:
            pairs.append((i, None))
            continue
        after = (alike or near)[0]
        taken.add(order[after])
        pairs.append((i, order[after]))
    pairs.extend((None, j) for j in range(len(calls)) if j not in taken)
    return sorted(pairs, key=lambda p: refs[p[0]]["time_s"] if p[0] is not None else calls[p[1]]["time_s"])


def score(
    truth: list[dict[str, Any]], calls: list[dict[str, Any]], early_s: float, late_s: float
) -> dict[str, Any]:
    """The calls against the true turns (as `game_videos.score_calls`, paired by `pair_calls`): fully right
    (seat, action, legal, added, removed), missed, invented, and each wrong one."""
    right, missed, invented, wrong = 0, 0, 0, []
    for i, j in pair_calls(truth, calls, early_s, late_s):
        if i is None:
            invented += 1
            wrong.append({"truth": None, "call": {**normal(calls[j]), "time_s": calls[j]["time_s"]}})
        elif j is None:
            missed += 1
            wrong.append({"truth": {**normal(truth[i]), "time_s": truth[i]["time_s"]}, "call": None})
        elif normal(truth[i]) == normal(calls[j]):
            right += 1
        else:
            wrong.append({"truth": {**normal(truth[i]), "time_s": truth[i]["time_s"]},
                          "call": {**normal(calls[j]), "time_s": calls[j]["time_s"]}})  # fmt: skip
    return {"turns": len(truth), "right": right, "missed": missed, "invented": invented, "wrong": wrong}


def picture_delay(
    thumbs: np.ndarray,
    server_thumbs: list[tuple[float, np.ndarray, float]],
    game_start: float,
    source_fps: float,
) -> dict[str, Any]:
    """The server's frames found among the video's by picture (where one frame is clearly the best: hands
    moving): how long after the camera's start (`game_start`, the game's first frame) each came, less its
    place in the video; the median is the camera-to-server delay (up to one video frame more).

    That delay is split by each frame's own time in its stream (WebRTC's timestamp, set where Chromium's
    camera took the frame) into `camera_behind` (the fake camera playing the file later than the video's
    own time: it reads a 1.1 MB-a-frame file on the cores the server uses) and `on_the_way` (from the camera
    to the server's video callback). A stream's time has its own zero: `on_the_way` is counted from the
    quickest frame's, and `camera_behind` from its median over the game's first 10 s (`behind_from_start`),
    so that any delay the stream had from the start is counted as on the way, against the referee."""
    flat = thumbs.reshape(len(thumbs), -1)
    offsets, timeline, stream = [], [], []
    for at, small, captured in server_thumbs:
        errors = ((flat - small.reshape(1, -1)) ** 2).mean(axis=1)
        best = int(np.argmin(errors))
        far = np.abs(np.arange(len(errors)) - best) >= 3
        if best < 3 or best >= len(errors) - 3 or errors[best] >= 0.25 * errors[far].min():
            continue  # a still table (many frames alike), or the held first or last frame
        offsets.append(at - (game_start + best / source_fps))
        timeline.append((best / source_fps, offsets[-1]))
        if math.isfinite(captured):
            stream.append((best / source_fps, offsets[-1], at - captured))
    if not offsets:
        return {"frames_found": 0, "median_s": None}
    result: dict[str, Any] = {
        "frames_found": len(offsets),
        "frames_tried": len(server_thumbs),
        "median_s": round(statistics.median(offsets), 3),
        "p10_s": round(float(np.percentile(offsets, 10)), 3),
        "p90_s": round(float(np.percentile(offsets, 90)), 3),
        "median_by_10s_of_game": by_10s(timeline),
        "found": [(round(g, 2), round(o, 3)) for g, o in timeline],
    }
    if stream:
        quickest = min(arrived for _, _, arrived in stream)
        on_the_way = [(g, arrived - quickest) for g, _, arrived in stream]
        behind = [(g, offset - (arrived - quickest)) for g, offset, arrived in stream]
        early = [b for g, b in behind if g < 10] or [b for _, b in behind]
        start = statistics.median(early)
        result["behind_from_start"] = round(start, 3)
        result["camera_behind"] = [(round(g, 2), round(b - start, 3)) for g, b in behind]
        result["camera_behind_by_10s_of_game"] = by_10s([(g, b - start) for g, b in behind])
        result["on_the_way_by_10s_of_game"] = by_10s(on_the_way)
    return result


def by_10s(timeline: list[tuple[float, float]]) -> dict[str, float]:
    grouped: dict[int, list[float]] = {}
    for game_s, value in timeline:
        grouped.setdefault(int(game_s // 10) * 10, []).append(value)
    return {f"{k}-{k + 10}": round(statistics.median(v), 3) for k, v in grouped.items()}


def camera_behind_at(delay: dict[str, Any], game_s: float, around_s: float = 3.0) -> float | None:
    """How far the camera played behind the video near `game_s` (the median of the frames found within
    `around_s`, or of the nearest one); None without the stream's times."""
    behind = delay.get("camera_behind") or []
    if not behind:
        return None
    near = [b for g, b in behind if abs(g - game_s) <= around_s]
    if not near:
        near = [min(behind, key=lambda gb: abs(gb[0] - game_s))[1]]
    return statistics.median(near)


def rate(times: list[float], begin: float, end: float) -> dict[str, Any]:
    inside = [t for t in times if begin <= t < end]
    per_second = [sum(1 for t in inside if begin + k <= t < begin + k + 1) for k in range(int(end - begin))]
    return {
        "fps": round(len(inside) / (end - begin), 2) if end > begin else None,
        "frames": len(inside),
        "lowest_second": min(per_second, default=None),
        "p10_second": float(np.percentile(per_second, 10)) if per_second else None,
    }


def figures(
    truth: dict[str, Any],
    watch: list[dict[str, Any]],
    watch_wall: float | None,
    live: dict[str, Any],
    camera: dict[str, Any],
    lead_s: float,
    limit_s: float | None,
    match_s: float,
) -> dict[str, Any]:
    game_start = live["start"] + lead_s  # wall time of the game's first frame at the camera
    game_end = game_start + camera["game_seconds"]
    play_end = live["start"] + camera["seconds"]
    cut = camera["game_seconds"] if limit_s is None else min(limit_s, camera["game_seconds"])
    turns = [t for t in truth["turns"] if t["time_s"] <= cut]
    watch_calls = [c for c in watch if c["time_s"] <= cut + EARLY_S]
    seen = live["seen"] or {}
    referee_id = live["referee_game"]["id"]
    live_calls = []
    for row in live["calls"]:
        call = row["call"]
        judged = call["time_s"] + live["mono_to_wall"]
        if judged >= play_end:
            continue  # the file played again
        shown = seen.get(f"st-key-referee_turn_{referee_id}_{row['number']}") or seen.get(
            f"verdict_{call['turn']}"
        )
        live_calls.append(
            {
                **call,
                "time_s": round(judged - game_start, 3),  # on the video's timeline
                "stored_s": round(row["recorded_at"] - game_start, 3),
                "shown_s": None if shown is None else round(shown["t"] / 1000 - game_start, 3),
                "shown_text": None if shown is None else shown["text"],
            }
        )
    # The call drawn on the picture: first at the server (the first frame handed back with its banner), then
    # in the page (the first banner of its colour from then on, while no later call is drawn at the server).
    onsets = [(at - game_start, colour) for at, colour in live.get("banner", []) if colour != "none"]
    for call in live_calls:
        at_server = [
            at - game_start
            for at, drawn_call in live.get("server_banner", [])
            if drawn_call is not None
            and drawn_call[0] == call["turn"]
            and at - game_start >= call["time_s"] - 0.2
        ]
        call["drawn_at_server_s"] = round(at_server[0], 3) if at_server else None
    for k, call in enumerate(live_calls):
        later = [c["drawn_at_server_s"] for c in live_calls[k + 1 :] if c["drawn_at_server_s"] is not None]
        colour = "drew" if call["action"] == "drew" else "legal" if call["legal"] else "illegal"
        since, until = call["drawn_at_server_s"], min(later, default=math.inf)
        drawn = [at for at, seen in onsets if since is not None and seen == colour and since <= at < until]
        call["drawn_s"] = round(drawn[0], 3) if drawn else None
    # Each true turn: the live call that judged it, and its delays after the table settled, by the video's
    # time and by the time the camera showed it settled (`camera_behind_at`).
    delay = picture_delay(camera["thumbs"], live["server_thumbs"], game_start, camera["source_fps"])
    delays = []
    for i, j in pair_calls(turns, live_calls, EARLY_S, match_s):
        if i is None:
            continue
        turn = turns[i]
        call = live_calls[j] if j is not None else None
        delays.append({
            "turn": turn["turn"], "seat": turn["seat"], "settled_s": turn["time_s"],
            "judged_after_s": None if call is None else round(call["time_s"] - turn["time_s"], 3),
            "stored_after_s": None if call is None else round(call["stored_s"] - turn["time_s"], 3),
            "shown_after_s": None if call is None or call["shown_s"] is None
            else round(call["shown_s"] - turn["time_s"], 3),
            "drawn_after_s": None if call is None or call["drawn_s"] is None
            else round(call["drawn_s"] - turn["time_s"], 3),
            "drawn_at_server_after_s": None if call is None or call["drawn_at_server_s"] is None
            else round(call["drawn_at_server_s"] - turn["time_s"], 3),
            "live_turn": None if call is None else call["turn"],
        })  # fmt: skip
        behind = camera_behind_at(delay, turn["time_s"])
        delays[-1]["camera_behind_s"] = None if behind is None else round(behind, 3)
        for key in ("shown", "drawn"):
            after = delays[-1][f"{key}_after_s"]
            seen = None if after is None or behind is None else round(after - max(behind, 0.0), 3)
            delays[-1][f"{key}_after_seen_s"] = seen
    shown_delays = [d["shown_after_s"] for d in delays if d["shown_after_s"] is not None]
    drawn_delays = [d["drawn_after_s"] for d in delays if d["drawn_after_s"] is not None]
    judged_delays = [d["judged_after_s"] for d in delays if d["judged_after_s"] is not None]
    stored_delays = [d["stored_after_s"] for d in delays if d["stored_after_s"] is not None]
    # Live against watch, call by call.
    comparison = []
    for i, j in pair_calls(watch_calls, live_calls, EARLY_S, match_s):
        w = watch_calls[i] if i is not None else None
        c = live_calls[j] if j is not None else None
        differ = [] if w is None or c is None else [k for k in COMPARED if normal(w)[k] != normal(c)[k]]
        comparison.append({
            "watch": None if w is None else {**normal(w), "turn": w["turn"], "time_s": w["time_s"]},
            "live": None if c is None else {**normal(c), "turn": c["turn"], "time_s": c["time_s"]},
            "same": w is not None and c is not None and not differ,
            "differ": differ if w is not None and c is not None else ["missing"],
        })  # fmt: skip
    live_score = score(turns, live_calls, EARLY_S, match_s)
    watch_score = score(turns, watch_calls, EARLY_S, match_s)
    screen_rates = [r["fps"] for r in live["rates"] if game_start <= r["at"] < game_end]
    looked = [t for t, _ in live["looked"]]
    read_ms = [d * 1000 for t, d in live["looked"] if game_start <= t < game_end]
    camera_info = live["cameras"][0] if live["cameras"] else {}
    return {
        "video": truth.get("video"),
        "players": truth["players"],
        "first_seat": truth.get("first_seat", 1),
        "game_seconds": round(cut, 2),
        "clock": {"stream_given": live["start"], "game_start": game_start, "pressed_start": live["pressed"]},
        "camera": {
            "fps": camera["fps"],
            "size": camera["size"],
            "lead_s": lead_s,
            "file_seconds": camera["seconds"],
            "getusermedia_calls": len(live["cameras"]),
            "settings": camera_info.get("settings"),
            "start_after_press_s": round(live["start"] - live["pressed"], 3),
            "frame_sizes_at_server": live["sizes"],
            "frame_size_changes": [
                {"game_s": round(t - game_start, 2), "size": size} for t, size in live["size_changes"]
            ],
            "first_frame_at_server_s": round(live["shown"][0] - live["start"], 3) if live["shown"] else None,
        },  # fmt: skip
        "picture_delay": delay,
        "fps": {
            "screen_median": statistics.median(screen_rates) if screen_rates else None,
            "screen_lowest": min(screen_rates, default=None),
            "screen_samples": len(screen_rates),
            "server_handed": rate(live["shown"], game_start, game_end),
            "server_looked_at": rate(looked, game_start, game_end),
            "read_ms_median": round(statistics.median(read_ms), 1) if read_ms else None,
            "read_ms_max": round(max(read_ms), 1) if read_ms else None,
        },
        "delays": delays,
        "banner_seen": [(round(at - game_start, 3), colour) for at, colour in live.get("banner", [])],
        "banner_at_server": [(round(t - game_start, 3), drawn) for t, drawn in live.get("server_banner", [])],
        "shown_after_s_max": max(shown_delays, default=None),
        "shown_after_s_median": round(statistics.median(shown_delays), 3) if shown_delays else None,
        "shown_within_1s": sum(1 for d in shown_delays if d <= 1.0),
        "drawn_after_s_max": max(drawn_delays, default=None),
        "drawn_after_s_median": round(statistics.median(drawn_delays), 3) if drawn_delays else None,
        "drawn_within_1s": sum(1 for d in drawn_delays if d <= 1.0),
        "drawn_seen": len(drawn_delays),
        "shown_after_seen_s_median": median_of(delays, "shown_after_seen_s"),
        "shown_within_1s_of_seen": within(delays, "shown_after_seen_s", 1.0),
        "drawn_after_seen_s_median": median_of(delays, "drawn_after_seen_s"),
        "drawn_within_1s_of_seen": within(delays, "drawn_after_seen_s", 1.0),
        "judged_after_s_max": max(judged_delays, default=None),
        "judged_after_s_median": round(statistics.median(judged_delays), 3) if judged_delays else None,
        "stored_after_s_median": round(statistics.median(stored_delays), 3) if stored_delays else None,
        "turns": len(turns),
        "live_calls": live_calls,
        "watch_calls": watch_calls,
        "watch_wall_s": watch_wall,
        "comparison": comparison,
        "same_calls": sum(1 for c in comparison if c["same"]),
        "differing_calls": sum(1 for c in comparison if not c["same"]),
        "live_vs_truth": live_score,
        "watch_vs_truth": watch_score,
        "load": {
            "during_min": min(live["loads"], default=None),
            "during_max": max(live["loads"], default=None),
        },
    }


def median_of(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [row[key] for row in rows if row.get(key) is not None]
    return round(statistics.median(values), 3) if values else None


def within(rows: list[dict[str, Any]], key: str, limit_s: float) -> int:
    return sum(1 for row in rows if row.get(key) is not None and row[key] <= limit_s)


def describe(call: dict[str, Any] | None) -> str:
    if call is None:
        return "-"
    parts = [f"turn {call['turn']} at {call['time_s']:.1f} s seat {call['seat']} {call['action']}"]
    if call["added"]:
        parts.append("+" + " ".join(call["added"]))
    if call["removed"]:
        parts.append("-" + " ".join(call["removed"]))
    parts.append("legal" if call["legal"] else "NOT legal")
    return " ".join(parts)


def report(result: dict[str, Any]) -> None:
    fps, camera = result["fps"], result["camera"]
    print(
        f"{result['video']}: {result['players']} players, first seat {result['first_seat']}, "
        f"{result['game_seconds']} s of game, {result['turns']} true turns"
    )
    print(
        f"camera file {camera['size']} at {camera['fps']} fps (lead {camera['lead_s']} s); stream given "
        f"{camera['start_after_press_s']} s after Start; frames at the server: "
        f"{camera['frame_sizes_at_server']}, changed at (game s): "
        + ", ".join(f"{c['game_s']} {c['size']}" for c in camera["frame_size_changes"])
    )
    delay = result["picture_delay"]
    print(
        f"first frame at the server {camera['first_frame_at_server_s']} s after the stream; camera to server "
        f"(frames found by picture: {delay['frames_found']}): median {delay['median_s']} s "
        f"(p10 {delay.get('p10_s')}, p90 {delay.get('p90_s')}); by 10 s of game: "
        + ", ".join(f"{k} s: {v}" for k, v in delay.get("median_by_10s_of_game", {}).items())
    )
    if "camera_behind_by_10s_of_game" in delay:
        print(
            "  of which the camera played behind the video (by 10 s of game): "
            + ", ".join(f"{k} s: {v}" for k, v in delay["camera_behind_by_10s_of_game"].items())
            + "; camera to server, from the quickest frame: "
            + ", ".join(f"{k} s: {v}" for k, v in delay["on_the_way_by_10s_of_game"].items())
        )
    print(
        f"frames a second: screen says median {fps['screen_median']} (lowest {fps['screen_lowest']}, "
        f"{fps['screen_samples']} samples); server handed {fps['server_handed']['fps']} "
        f"(lowest second {fps['server_handed']['lowest_second']}), watcher looked at "
        f"{fps['server_looked_at']['fps']} (read median {fps['read_ms_median']} ms, "
        f"max {fps['read_ms_max']} ms)"
    )
    print(
        f"verdict shown after the table settled: median {result['shown_after_s_median']} s, max "
        f"{result['shown_after_s_max']} s, within 1 s: {result['shown_within_1s']} of {result['turns']}; "
        f"judged (the server's frame) median {result['judged_after_s_median']} s, max "
        f"{result['judged_after_s_max']} s; stored median {result['stored_after_s_median']} s"
    )
    print(
        f"after the camera showed the table settled (less how far it played behind): shown median "
        f"{result['shown_after_seen_s_median']} s, within 1 s {result['shown_within_1s_of_seen']}; drawn "
        f"median {result['drawn_after_seen_s_median']} s, within 1 s {result['drawn_within_1s_of_seen']}"
    )
    print(
        f"verdict drawn on the picture (seen in the page) after the table settled: median "
        f"{result['drawn_after_s_median']} s, max {result['drawn_after_s_max']} s, within 1 s: "
        f"{result['drawn_within_1s']} of {result['turns']} (seen for {result['drawn_seen']})"
    )
    for d in result["delays"]:
        print(
            f"  turn {d['turn']} seat {d['seat']} settled {d['settled_s']:.1f} s: "
            f"judged +{d['judged_after_s']} "
            f"stored +{d['stored_after_s']} shown +{d['shown_after_s']} drawn at the server "
            f"+{d['drawn_at_server_after_s']}, seen drawn +{d['drawn_after_s']}; camera behind "
            f"{d['camera_behind_s']} s"
        )
    print(
        f"live vs rummi watch: {result['same_calls']} same, {result['differing_calls']} differing "
        f"(watch took {result['watch_wall_s'] and round(result['watch_wall_s'], 1)} s)"
    )
    for c in result["comparison"]:
        if not c["same"]:
            print(f"  differ {c['differ']}: watch {describe(c['watch'])} | live {describe(c['live'])}")
    for name in ("live_vs_truth", "watch_vs_truth"):
        s = result[name]
        print(
            f"{name}: {s['right']} of {s['turns']} fully right, missed {s['missed']}, "
            f"invented {s['invented']}"
        )
    print(f"load during the live run: {result['load']['during_min']}-{result['load']['during_max']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--video", type=Path, required=True, help="a rendered game (.mp4) beside its truth (.json)"
    )
    parser.add_argument("--truth", type=Path, help="its truth (default: the video's name with .json)")
    parser.add_argument("--seconds-limit", type=float, help="only the game's first S seconds (default: all)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write every figure and call to OUT")
    parser.add_argument("--camera-fps", type=int, default=30, help="the fake camera's frame rate (30)")
    parser.add_argument("--lead", type=float, default=5.0, help="seconds the first frame is held first (5)")
    parser.add_argument("--tail", type=float, default=5.0, help="seconds the last frame is held after (5)")
    parser.add_argument(
        "--match-s", type=float, default=5.0, help="a live call is paired up to S s after the other (5)"
    )
    parser.add_argument(
        "--watch-calls", type=Path, help="rummi watch's JSON lines from before (not run again)"
    )
    parser.add_argument("--work", type=Path, help="keep the camera file, database and server log here")
    parser.add_argument(
        "--record", type=Path, metavar="FRAMES",
        help="write every frame the live watcher looks at, whole, with its time, to FRAMES (replay_live.py)",
    )
    args = parser.parse_args(argv)
    if args.record is not None:
        args.record.unlink(missing_ok=True)
        os.environ["BENCH_RECORD"] = str(args.record.resolve())  # the server inherits it
    truth_path = args.truth or args.video.with_suffix(".json")
    truth = json.loads(truth_path.read_text())
    players, first = int(truth["players"]), int(truth.get("first_seat", 1))
    load_before = os.getloadavg()
    if args.watch_calls is not None:
        watch = [json.loads(line) for line in args.watch_calls.read_text().splitlines() if line.strip()]
        watch_wall = None
    else:
        watch, watch_wall = run_watch(args.video, players, first)
        print(f"rummi watch: {len(watch)} calls in {watch_wall:.1f} s", file=sys.stderr)
    work = args.work or Path(tempfile.mkdtemp(prefix="bench_referee_live_"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        (work / "watch.jsonl").write_text("".join(json.dumps(c) + "\n" for c in watch))
        camera_file = work / "camera.y4m"
        camera = write_camera_file(
            args.video, camera_file, args.camera_fps, args.lead, args.tail, args.seconds_limit
        )
        camera["fps"] = args.camera_fps
        print(f"camera file: {camera['frames']} frames, {camera['seconds']:.1f} s", file=sys.stderr)
        live = run_live(camera_file, work, players, first, camera["seconds"])
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            (work / "camera.y4m").unlink(missing_ok=True)  # gigabytes: the rest is kept
    result = figures(truth, watch, watch_wall, live, camera, args.lead, args.seconds_limit, args.match_s)
    result["load"].update(
        before=[round(v, 2) for v in load_before], after=[round(v, 2) for v in os.getloadavg()]
    )
    report(result)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
