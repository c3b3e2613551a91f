"""ui.host_guard: which Host and Origin headers the app serves, and what counts as this computer."""

from __future__ import annotations

import pytest

from ui import host_guard

NAMES = frozenset({"localhost", "127.0.0.1", "::1", "laptop", "laptop.local", "192.168.1.20"})


@pytest.mark.parametrize(
    "host",
    ["localhost:8501", "LOCALHOST:8501", "localhost.:8501", "127.0.0.1:8501", "[::1]:8501", "laptop.local",
     "192.168.1.20:8443"],
)
def test_this_computers_names_are_served(host: str) -> None:
    assert host_guard.refusal({"host": host}, NAMES) is None


@pytest.mark.parametrize(
    "host",
    ["rebind.example:8501", "127.0.0.1.nip.io:8501", "", "user@localhost:8501", "localhost:99999",
     "localhost/x", "evil.localhost.example", "local host"],
)
def test_a_foreign_or_broken_host_is_refused(host: str) -> None:
    refusal = host_guard.refusal({"host": host}, NAMES)
    assert refusal is not None and "not served under the name" in refusal


def test_no_host_at_all_is_refused() -> None:
    assert host_guard.refusal({}, NAMES) is not None


@pytest.mark.parametrize(
    ("origin", "host", "served"),
    [
        (None, "localhost:8501", True),  # not a browser
        ("http://localhost:8501", "localhost:8501", True),
        ("https://laptop.local:8501", "laptop.local:8501", True),
        ("https://laptop.local", "laptop.local:443", True),
        ("http://localhost:3000", "localhost:8501", False),  # another local site's page
        ("http://rebind.example:8501", "localhost:8501", False),
        ("http://127.0.0.1:8501", "localhost:8501", False),  # another origin, though the same computer
        ("null", "localhost:8501", False),
        ("", "localhost:8501", False),
    ],
)
def test_only_same_site_websockets(origin: str | None, host: str, served: bool) -> None:
    headers = {"host": host} if origin is None else {"host": host, "origin": origin}
    assert (host_guard.refusal(headers, NAMES) is None) is served


def test_a_host_given_twice_is_refused() -> None:
    headers = host_guard.header_map([("Host", "localhost:8501"), ("host", "rebind.example:8501")])
    assert host_guard.refusal(headers, NAMES) is not None
    assert host_guard.header_map([("Host", "localhost:1"), ("Host", "localhost:1")])["host"] == "localhost:1"


@pytest.mark.parametrize(
    "address", ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "::ffff:127.0.1.1"]
)
def test_loopback_peers_ipv4_mapped_included(address: str) -> None:
    assert host_guard.is_loopback_address(address)


@pytest.mark.parametrize("address", ["192.168.1.20", "::ffff:192.168.1.20", "10.0.0.1", "", None, "sock"])
def test_other_peers_are_not_loopback(address: str | None) -> None:
    assert not host_guard.is_loopback_address(address)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("localhost:8501", True), ("127.0.0.1:8501", True), ("[::1]:8501", True), ("[::ffff:127.0.0.1]:1", True),
     ("laptop.local:8501", False), ("192.168.1.20:8501", False), ("rebind.example:8501", False),
     (None, False)],
)
def test_loopback_hosts(host: str | None, loopback: bool) -> None:
    assert host_guard.is_loopback_host(host) is loopback


def test_this_computer_and_configured_names(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    monkeypatch.setenv(host_guard.EXTRA_HOSTS_ENV, "rummi.club.example, Hall.Example.")
    names = host_guard.allowed_names()
    assert {"localhost", "127.0.0.1", "::1", "rummi.club.example", "hall.example"} <= names
    assert socket.gethostname().lower() in names
    assert "rebind.example" not in names


def test_any_address_of_this_computer_is_served_and_no_other() -> None:
    from ui.common import lan_address

    assert host_guard.host_allowed(f"{lan_address()}:8501", frozenset({"localhost"}))
    assert host_guard.host_allowed("127.0.0.2:8501", frozenset({"localhost"}))  # all of 127/8 is here
    assert not host_guard.host_allowed("192.0.2.44:8501", frozenset({"localhost"}))  # TEST-NET: nobody's
    assert not host_guard.host_allowed("0.0.0.0:8501", frozenset({"localhost"}))
