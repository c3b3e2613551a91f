"""A file a user names is read one way (issue 35): only a regular file, at most a limit + 1 bytes of it; a
named pipe, a device, a folder or a socket is refused by name, before anything is read."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from assistant.user_files import UserFileError, check_regular, read_user_file
from vision.frames import ImageError, load_image
from vision.profile import MAX_PROFILE_BYTES, Profile, ProfileError, load_profile

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes and /dev/zero are POSIX")


def test_a_regular_file_and_a_link_to_one_are_read(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"12345")
    (tmp_path / "link.txt").symlink_to(path)
    assert read_user_file(path, 5) == b"12345"
    assert read_user_file(tmp_path / "link.txt", 5) == b"12345"
    assert check_regular(tmp_path / "link.txt").st_size == 5


def test_what_is_no_regular_file_is_refused_by_name(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "sock"))
        for name, message in [
            ("pipe", "pipe: is a named pipe, not a file"),
            ("zero", "zero: is a device \\(/dev/zero\\), not a file"),
            ("sock", "sock: is a socket, not a file"),
            (".", "is a folder, not a file"),
            ("absent", "absent: no such file"),
            ("loop", "loop: cannot read the file"),
        ]:
            with pytest.raises(UserFileError, match=message):
                read_user_file(tmp_path / name, 10)
    finally:
        server.close()
    with pytest.raises(UserFileError, match="the file name is empty"):
        read_user_file("", 10)
    with pytest.raises(UserFileError, match="not a file name"):
        read_user_file("a\x00b", 10)


def test_at_most_the_limit_and_one_byte_are_read(tmp_path: Path) -> None:
    big = tmp_path / "big"
    with open(big, "wb") as handle:
        handle.truncate(400_000_000)  # sparse: says 400 MB, takes no room
    with pytest.raises(UserFileError, match=r"big: the file is too large \(400 MB; at most 10 MB\)"):
        read_user_file(big, 10_000_000)
    # /proc files say they are empty: read until the limit is passed.
    with pytest.raises(UserFileError, match="too large \\(over 10 bytes; at most 10 bytes\\)"):
        read_user_file("/proc/self/status", 10)
    assert len(read_user_file("/proc/self/status", 10**6)) > 10


def test_an_image_that_is_no_file_is_an_image_error(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "photo.jpg")
    (tmp_path / "zero.jpg").symlink_to("/dev/zero")
    with pytest.raises(ImageError, match="photo.jpg: is a named pipe, not an image file"):
        load_image(tmp_path / "photo.jpg")
    with pytest.raises(ImageError, match="zero.jpg: is a device .*, not an image file"):
        load_image(tmp_path / "zero.jpg")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1" * 100_000, "a number of 100000 digits"),
        ('{"format": "rummi-profile/1", "empty_photos": -' + "9" * 5000 + "}", "a number of 5000 digits"),
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ('{"a": ' * 100_000 + "1" + "}" * 100_000, "nested too deep"),
    ],
    ids=["digits", "negative digits", "nested arrays", "nested objects"],
)
def test_a_hostile_profile_is_a_profile_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "table.profile"
    path.write_text(content)
    with pytest.raises(ProfileError, match=f"table.profile: not a rummi calibration profile .*{message}"):
        load_profile(path)
    with pytest.raises(ProfileError, match=message):  # as stored in the game database
        Profile.from_bytes(content.encode())


def test_a_profile_that_is_no_file_or_too_large_is_refused_unread(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.profile")
    (tmp_path / "zero.profile").symlink_to("/dev/zero")
    with open(tmp_path / "huge.profile", "wb") as handle:
        handle.truncate(400_000_000)
    for name, message in [
        ("pipe.profile", "is a named pipe, not a profile file"),
        ("zero.profile", "is a device \\(/dev/zero\\), not a profile file"),
        ("huge.profile", f"the file is too large \\(400 MB; at most {MAX_PROFILE_BYTES // 10**6} MB\\)"),
        ("absent.profile", "no such file"),
    ]:
        with pytest.raises(ProfileError, match=f"{name}: {message}"):
            load_profile(tmp_path / name)
    with pytest.raises(ProfileError, match="a profile is at most 10 MB"):
        Profile.from_bytes(b" " * (MAX_PROFILE_BYTES + 1))
