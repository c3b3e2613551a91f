"""Photos up to 100 MB reach the app and are read (issue 31, item 5): the server's upload limit and the app's
own check agree with README."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomllib

from vision import photos

ROOT = Path(__file__).resolve().parents[2]
README_LIMIT_BYTES = 100 * 10**6  # "Photos up to 200 megapixels (and 100 MB) are read"


def test_the_server_lets_a_100_mb_photo_through() -> None:
    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    upload_limit_bytes = settings["server"]["maxUploadSize"] * 1024 * 1024  # Streamlit's megabytes
    assert upload_limit_bytes >= photos.MAX_PHOTO_BYTES >= README_LIMIT_BYTES
    assert "100 MB" in (ROOT / "README.md").read_text()


def test_a_30_mb_photo_is_not_refused_for_its_size() -> None:
    # Starts like a JPEG, then zeros: refused as damaged, which means the size check let it through.
    with pytest.raises(photos.PhotoError, match="damaged"):
        photos.decode_photo(b"\xff\xd8\xff" + bytes(30 * 10**6), "the photo")


def test_a_photo_over_100_mb_is_refused_with_its_size() -> None:
    with pytest.raises(photos.PhotoError, match=r"is 100\.0 MB; photos up to 100 MB are read"):
        photos.decode_photo(b"\xff\xd8\xff" + bytes(README_LIMIT_BYTES), "the photo")
