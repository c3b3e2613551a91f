"""Hostile files from outside (issue 35, "a shared server that holds"): each is refused (exit 2, a message
naming the file, no traceback) or read small, within 10 s and 1 GB, through `rummi read`, `rummi watch`,
`rummi read --profile` and the app's `decode_photo`; each process is measured (its peak memory from wait4).

Before: the stray-byte JPEG took 6.2 GB, the truncated one 1.5 GB (the app 5 GB), the Radiance HDR 4 GB,
/dev/zero grew until memory ran out and a named pipe hung.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from rummi import main

ROOT = Path(__file__).resolve().parents[2]
SECONDS = 10.0
PEAK_BYTES = 10**9
WATCHDOG_BYTES = 2 * 10**9
"""A process over this is stopped at once (the old code would take the machine's memory)."""

pytestmark = pytest.mark.skipif(
    not (hasattr(os, "mkfifo") and hasattr(os, "wait4") and Path("/proc/self/statm").exists()),
    reason="named pipes, /dev/zero and /proc are Linux's",
)


def small_jpeg(side: int = 32) -> bytes:
    image = np.random.default_rng(0).integers(0, 255, (side, side, 3), dtype=np.uint8)
    return cv2.imencode(".jpg", image)[1].tobytes()


def with_size(data: bytes, width: int, height: int) -> bytes:
    at = data.index(b"\xff\xc0")
    return data[: at + 5] + height.to_bytes(2, "big") + width.to_bytes(2, "big") + data[at + 9 :]


def stray_byte_jpeg() -> bytes:
    """1.8 kB declaring 32768 x 32768, one stray byte before the frame header (libjpeg skips it)."""
    data = with_size(small_jpeg(), 32768, 32768)
    at = data.index(b"\xff\xc0")
    return data[:at] + b"\x00" + data[at:]


def truncated_jpeg() -> bytes:
    """1.4 kB declaring 14000 x 14000: decoded, the missing rest is made up (old: 588 MB of pixels)."""
    return with_size(small_jpeg(), 14000, 14000)[:1400] + b"\xff\xd9"


def radiance_hdr(width: int = 16384, height: int = 16384) -> bytes:
    """17 MB of run-length scanlines declaring 16384 x 16384 (old: decoded to 3.2 GB of floats)."""
    runs, rest = divmod(width, 127)
    component = bytes([255, 0]) * runs + (bytes([128 + rest, 0]) if rest else b"")
    line = bytes([2, 2, width >> 8, width & 0xFF]) + component * 4
    head = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n" + f"-Y {height} +X {width}\n".encode()
    return head + line * height


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "stray.jpg").write_bytes(stray_byte_jpeg())
    (folder / "truncated.jpg").write_bytes(truncated_jpeg())
    (folder / "table.hdr").write_bytes(radiance_hdr())
    for name in ("pipe.jpg", "pipe.profile", "pipe.mp4"):
        os.mkfifo(folder / name)
    for name in ("zero.jpg", "zero.profile", "zero.mp4"):
        (folder / name).symlink_to("/dev/zero")
    (folder / "digits.profile").write_text("1" * 100_000)
    (folder / "nested.profile").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "empty.mp4").write_bytes(b"")
    (folder / "notes.mp4").write_text("not a video\n")
    image = np.random.default_rng(1).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    cv2.imwrite(str(folder / "photo.jpg"), image)
    return folder


@dataclass
class Run:
    code: int
    out: str
    err: str
    seconds: float
    peak_bytes: int

    def within_bounds(self) -> None:
        assert "Traceback" not in self.err, self.err
        assert self.seconds < SECONDS, f"took {self.seconds:.1f} s"
        assert self.peak_bytes < PEAK_BYTES, f"peaked at {self.peak_bytes / 1e6:.0f} MB"


LAUNCHER = """
import os, subprocess, sys
peak_file, args = sys.argv[1], sys.argv[2:]
child = subprocess.Popen([sys.executable, *args], stdin=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
with open(peak_file, "w") as out:
    out.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""
"""Runs the command and writes its peak memory. Linux keeps a process's peak across fork and exec, so a child
forked straight from this (large) test process would report the test process's size: the launcher is small
when it forks, and its child's peak is the command's own."""


def measured(args: list[str], tmp_path: Path) -> Run:
    """`python ARGS` from the repository root: exit code, output, wall time and peak memory (wait4's
    ru_maxrss of that one process, through `LAUNCHER`). A watchdog stops it past 3 x SECONDS or
    WATCHDOG_BYTES."""
    out, err, peak = tmp_path / "out.txt", tmp_path / "err.txt", tmp_path / "peak.txt"
    peak.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENCV_")}
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(peak), *args], cwd=ROOT, stdin=subprocess.DEVNULL,
            stdout=stdout, stderr=stderr, env=env, start_new_session=True,
        )
    start = time.monotonic()
    finished = threading.Event()

    def watchdog() -> None:
        page = os.sysconf("SC_PAGE_SIZE")
        while not finished.wait(0.05):
            try:
                children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
                resident = sum(int(Path(f"/proc/{c}/statm").read_text().split()[1]) for c in children) * page
            except (OSError, IndexError, ValueError):
                continue
            if resident > WATCHDOG_BYTES or time.monotonic() - start > 3 * SECONDS:
                os.killpg(process.pid, 9)
                return

    guard = threading.Thread(target=watchdog, daemon=True)
    guard.start()
    process.wait()
    seconds = time.monotonic() - start
    finished.set()
    guard.join()
    peak_bytes = int(peak.read_text()) * 1024 if peak.is_file() else 0
    return Run(process.returncode, out.read_text(), err.read_text(), seconds, peak_bytes)


def test_hostile_photos_through_rummi_read(hostile: Path, tmp_path: Path) -> None:
    names = ["stray.jpg", "truncated.jpg", "table.hdr", "zero.jpg", "pipe.jpg"]
    run = measured(["-m", "rummi", "read", *(str(hostile / n) for n in names), "--json"], tmp_path)
    run.within_bounds()
    assert run.code == 2
    lines = {Path(line["image"]).name: line for line in map(json.loads, run.out.splitlines())}
    assert list(lines) == names
    expected = {
        "stray.jpg": "too large (32768x32768 pixels; at most 200 megapixels)",
        "table.hdr": "is a Radiance HDR image",
        "zero.jpg": "is a device (/dev/zero), not an image file",
        "pipe.jpg": "is a named pipe, not an image file",
    }
    for name, message in expected.items():
        assert message in lines[name]["error"] and name in lines[name]["error"]
        assert message in run.err
    truncated = lines["truncated.jpg"]  # read at a quarter, given in its own pixels
    assert "error" not in truncated and (truncated["width"], truncated["height"]) == (14000, 14000)


def test_hostile_photos_through_the_apps_decode(hostile: Path, tmp_path: Path) -> None:
    script = (
        "import json, sys\n"
        "from vision import photos\n"
        "said = {}\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n"
        "        said[path] = list(photos.decode_photo(open(path, 'rb').read(), path).shape)\n"
        "    except photos.PhotoError as error:\n"
        "        said[path] = str(error)\n"
        "print(json.dumps(said))\n"
    )
    names = ["stray.jpg", "truncated.jpg", "table.hdr"]
    run = measured(["-c", script, *(str(hostile / n) for n in names)], tmp_path)
    run.within_bounds()
    said = {Path(path).name: answer for path, answer in json.loads(run.out).items()}
    assert "too large (32768x32768 pixels" in said["stray.jpg"]
    assert "is a blank frame" in said["truncated.jpg"]  # decoded at a quarter: 37 MB, not 588
    assert "table.hdr is a Radiance HDR image" in said["table.hdr"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("zero.profile", "is a device (/dev/zero), not a profile file"),
        ("pipe.profile", "is a named pipe, not a profile file"),
        ("digits.profile", "not a rummi calibration profile (it holds a number of 100000 digits)"),
        ("nested.profile", "not a rummi calibration profile (JSON nested too deep to read)"),
    ],
)
def test_hostile_profiles_through_rummi_read(hostile: Path, tmp_path: Path, name: str, message: str) -> None:
    args = ["-m", "rummi", "read", "--profile", str(hostile / name), str(hostile / "photo.jpg")]
    run = measured(args, tmp_path)
    run.within_bounds()
    assert run.code == 2
    assert f"{name}: {message}" in run.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["zero.mp4"], "zero.mp4: is a device (/dev/zero), not a video file"),
        (["pipe.mp4"], "pipe.mp4: is a named pipe, not a video file"),
        (["empty.mp4"], "empty.mp4: the file is empty (0 bytes), not a video"),
        (["notes.mp4"], "notes.mp4' cannot be opened as a video"),
        (["stray.jpg"], "stray.jpg is a JPEG image, not a video"),
        (["table.hdr"], "table.hdr is a Radiance HDR image, not a video"),
        (["--profile", "pipe.profile", "notes.mp4"], "pipe.profile: is a named pipe, not a profile file"),
        (["--profile", "zero.profile", "notes.mp4"], "zero.profile: is a device (/dev/zero), not a profile"),
    ],
    ids=["/dev/zero", "pipe", "empty", "not a video", "a photo", "hdr", "pipe profile", "/dev/zero profile"],
)
def test_hostile_files_through_rummi_watch(
    hostile: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    given = [a if a.startswith("--") else str(hostile / a) for a in args]
    run = measured(["-m", "rummi", "watch", *given], tmp_path)
    run.within_bounds()
    assert run.code == 2
    # One line: the message, without OpenCV's or FFmpeg's own warnings before it.
    assert run.err.splitlines() == [run.err.strip()] and message in run.err, run.err


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--settle", "nan"], "--settle must be a number of seconds more than 0, got nan"),
        (["--settle", "inf"], "--settle must be a number of seconds more than 0, got inf"),
        (["--settle", "-1"], "--settle must be a number of seconds more than 0, got -1.0"),
        (["--players", "1"], "--players: the standard rules are for 2 to 4 players, not 1"),
        (["--players", "5"], "--players: the standard rules are for 2 to 4 players, not 5"),
        (["--players", "6", "--rules", "goliath"], "the goliath rules are for 2 to 4 players, not 6"),
    ],
)
def test_watch_options_out_of_range_exit_2(
    tmp_path: Path, option: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    video = tmp_path / "still.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 5.0, (160, 120))
    for _ in range(5):
        writer.write(np.full((120, 160, 3), 90, np.uint8))
    writer.release()
    assert main(["watch", str(video), *option]) == 2
    assert message in capsys.readouterr().err


def test_watch_help_says_one_json_object_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "one JSON object per line" in help_text and "one JSON document" not in help_text


def test_a_big_photo_is_read_small_and_told_in_its_own_pixels(tmp_path: Path) -> None:
    """A 17 MP photo through `rummi read`: decoded at half size, its width, height and boxes its own."""
    from datasets.render import render_indexed

    image, _, _ = render_indexed(9001, 0, long_side=1000, kind="game")
    height, width = image.shape[:2]
    big = cv2.resize(image, (width * 24 // 5, height * 24 // 5), interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 90])
    run = measured(["-m", "rummi", "read", str(path), "--json"], tmp_path)
    run.within_bounds()
    assert run.code == 0, run.err
    document = json.loads(run.out)
    assert (document["width"], document["height"]) == (big.shape[1], big.shape[0])
    boxes = np.array([tile["box"] for tile in document["tiles"]])
    assert len(boxes) >= 5
    assert boxes[:, 2].max() <= big.shape[1] and boxes[:, 3].max() <= big.shape[0]
    assert boxes[:, 2].max() > big.shape[1] / 2  # not in the half-size frame's pixels
