"""The host-name guard (`ui.host_guard`) against the real server: a page under a name that resolves to
127.0.0.1 (DNS rebinding) never drives the app, and only same-site WebSockets are let in."""

from __future__ import annotations

import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from app_browser import CHROMIUM_ARGS, launch_chromium, streamlit_server
from playwright.sync_api import expect, sync_playwright

from assistant.storage import Storage

REBIND = "rebind.example"


def handshake(port: int, host: str, origin: str | None) -> str:
    """The status line the server answers a WebSocket upgrade to /_stcore/stream with."""
    lines = [
        "GET /_stcore/stream HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Protocol: streamlit",
    ]  # fmt: skip
    if origin is not None:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return sock.recv(4096).decode("latin-1").split("\r\n")[0]


@pytest.fixture
def one_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("RUMMI_DIRECTOR_KEY", raising=False)  # no key: the server's own computer directs
    db_path = tmp_path / "club.sqlite3"
    Storage(db_path).create_game("Table 1", "standard", ["Ann", "Ben"])
    return db_path


def test_a_rebinding_page_is_not_served_even_as_the_first_connection(one_game: Path) -> None:
    with streamlit_server(one_game) as url, sync_playwright() as playwright:
        port = urlsplit(url).port
        args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {REBIND} 127.0.0.1"]
        browser = launch_chromium(playwright, args=args)
        try:
            page = browser.new_page()
            page.goto(f"http://{REBIND}:{port}/")  # the server's very first browser
            refusal = page.get_by_text(f"this app is not served under the name '{REBIND}:{port}'")
            expect(refusal).to_be_visible(timeout=60_000)
            assert page.get_by_text("This device is the director.").count() == 0
            assert page.get_by_text("Table 1").count() == 0

            here = browser.new_page()  # the laptop's own browser, as localhost: the app as before
            here.goto(f"http://localhost:{port}/")
            expect(here.get_by_text("This device is the director.")).to_be_visible(timeout=60_000)

            again = browser.new_page()  # now refused where the WebSocket opens
            again.goto(f"http://{REBIND}:{port}/")
            again.wait_for_timeout(5_000)
            assert again.get_by_text("This device is the director.").count() == 0
            assert again.get_by_text("Table 1").count() == 0
        finally:
            browser.close()
        assert handshake(port, f"{REBIND}:{port}", f"http://{REBIND}:{port}").split()[1] == "403"
        assert handshake(port, f"localhost:{port}", "http://localhost:3000").split()[1] == "403"
        assert handshake(port, f"localhost:{port}", f"http://localhost:{port}").split()[1] == "101"


def test_127_0_0_1_is_as_local_as_localhost(one_game: Path) -> None:
    # On a dual-stack socket (Streamlit's default address) an IPv4 client arrives as ::ffff:127.0.0.1.
    with streamlit_server(one_game, address="::") as url, sync_playwright() as playwright:
        port = urlsplit(url).port
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            expect(page.get_by_text("This device is the director.")).to_be_visible(timeout=60_000)
        finally:
            browser.close()
