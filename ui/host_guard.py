"""Which requests the app serves: only under the host names it is meant for, and only same-site WebSockets.

A page on another site must not drive the app through a browser on this computer. Two ways it could:
- DNS rebinding: a name the attacker controls resolves to 127.0.0.1, so the page's own origin reaches this
  server over loopback; its requests carry `Host: evil.example:8501`. Only this computer's names and
  addresses are served (`allowed_names`), so such a Host is refused.
- A cross-site WebSocket: a page on `http://localhost:3000` opens `ws://localhost:8501/_stcore/stream`
  (Streamlit lets localhost origins in whatever their port). Only an Origin equal to the Host is let in.

Both are checked where the WebSocket opens (`install`, which replaces Streamlit's origin check) and again on
every run of the script (`refusal`, which sees the same headers): the first connection of a server is made
before the script has run once, so the script's check is the one that always holds.

"Local" (the director with no key set) is a loopback peer under a loopback Host, IPv4-mapped addresses
included: a loopback peer under the machine's LAN name could be a proxy or a rebinding page.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterable, Mapping
from functools import lru_cache
from ipaddress import IPv6Address, ip_address
from urllib.parse import urlsplit

EXTRA_HOSTS_ENV = "RUMMI_ALLOWED_HOSTS"
"""Comma-separated further host names to serve (a reverse proxy's public name, a DNS name on the LAN)."""

LOOPBACK_NAMES = frozenset({"localhost"})

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def parse_host(host: str | None) -> tuple[str, int | None] | None:
    """(name, port) of a Host header value, the name lower case without a trailing dot or IPv6 brackets;
    None when it is no host at all (empty, user info, a path, a bad port)."""
    if not host or any(c.isspace() for c in host):
        return None
    try:
        parts = urlsplit(f"//{host}")
        port = parts.port
    except ValueError:
        return None
    name = parts.hostname
    if not name or parts.username is not None or parts.password is not None or parts.path or parts.query:
        return None
    return name.lower().rstrip("."), port


def is_loopback_address(address: str | None) -> bool:
    """Whether an IP address is this computer's own: 127.0.0.0/8, ::1, and ::ffff:127.x (an IPv4
    loopback client on a dual-stack socket, which Python 3.11 does not call loopback)."""
    if not address:
        return False
    try:
        parsed = ip_address(address.split("%")[0])
    except ValueError:
        return False
    if isinstance(parsed, IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    return parsed.is_loopback


def is_loopback_host(host: str | None) -> bool:
    """Whether a Host header names this computer by a loopback name or address only."""
    parsed = parse_host(host)
    if parsed is None:
        return False
    name = parsed[0]
    return name in LOOPBACK_NAMES or is_loopback_address(name)


def _normalised_address(name: str) -> str:
    try:
        parsed = ip_address(name)
    except ValueError:
        return name
    if isinstance(parsed, IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    return parsed.compressed


@lru_cache(maxsize=1)
def this_computer_names() -> frozenset[str]:
    """Loopback, this computer's host names (with `.local`, as phones find it by mDNS) and its addresses."""
    names = {"localhost", "127.0.0.1", "::1"}
    try:
        hostname = socket.gethostname()
    except OSError:
        hostname = ""
    for name in (hostname, socket.getfqdn() if hostname else ""):
        if name:
            names.add(name.lower())
            names.add(f"{name.split('.')[0].lower()}.local")
    for name in list(names):
        try:
            infos = socket.getaddrinfo(name, None)
        except (OSError, UnicodeError):
            continue
        names.update(str(info[4][0]).split("%")[0] for info in infos)
    from ui.common import lan_address

    names.add(lan_address())
    return frozenset(_normalised_address(n.lower().rstrip(".")) for n in names if n)


def allowed_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names served: this computer's, those of RUMMI_ALLOWED_HOSTS, and `extra`."""
    configured = [n for n in os.environ.get(EXTRA_HOSTS_ENV, "").split(",")]
    given = (_normalised_address(n.strip().lower().rstrip(".")) for n in (*configured, *extra))
    return this_computer_names() | frozenset(n for n in given if n)


def host_allowed(host: str | None, names: frozenset[str]) -> bool:
    """Whether `host` (a Host header) is one of `names` (`*` among them: any well-formed host), or an
    address of one of this computer's network interfaces (a laptop on Wi-Fi and a cable has two)."""
    parsed = parse_host(host)
    if parsed is None:
        return False
    name = _normalised_address(parsed[0])
    return "*" in names or name in names or is_own_address(name)


@lru_cache(maxsize=256)
def is_own_address(name: str) -> bool:
    """Whether `name` is an IP address of this computer: only then can a socket be bound to it."""
    try:
        address = ip_address(name)
    except ValueError:
        return False
    if address.is_unspecified or address.is_multicast:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(address), 0))
    except OSError:
        return False
    return True


def same_site(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket's Origin is the page the server itself served: scheme aside, the same host and
    port as the Host header. No Origin (not a browser) is allowed: only a browser carries another site's
    page to this server."""
    if origin is None:
        return True
    try:
        parts = urlsplit(origin)
        origin_port = parts.port or _DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return False
    parsed = parse_host(host)
    if parsed is None or not parts.hostname:
        return False
    host_port = parsed[1] or _DEFAULT_PORTS.get(parts.scheme)
    return parts.hostname.lower().rstrip(".") == parsed[0] and origin_port == host_port


def header_map(headers: Iterable[tuple[str, str]] | Mapping[str, str]) -> dict[str, str]:
    """Headers by lower-case name; a Host or Origin given twice with two values is dropped (no request
    of a browser has two, and which one a proxy would use is anyone's guess)."""
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    seen: dict[str, str] = {}
    doubled: set[str] = set()
    for name, value in pairs:
        key = str(name).lower()
        if key in seen and seen[key] != value:
            doubled.add(key)
        seen[key] = str(value)
    for key in doubled & {"host", "origin"}:
        seen[key] = ""
    return seen


def refusal(headers: Mapping[str, str], names: frozenset[str]) -> str | None:
    """Why a request with these headers (by lower-case name, `header_map`) is not served, or None."""
    host = headers.get("host")
    origin = headers.get("origin")
    if not host_allowed(host, names):
        return (
            f"this app is not served under the name {host!r}: open it as localhost on this computer, or by "
            f"this computer's name or address (other names: set {EXTRA_HOSTS_ENV} on the server)"
        )
    if not same_site(origin, host):
        return f"a page of another site ({origin}) may not use this app"
    return None


def served_names() -> frozenset[str]:
    """`allowed_names` with the server's own `server.allowedHosts` setting, if it has one."""
    from streamlit import config

    return allowed_names(config.get_option("server.allowedHosts") or ())


def install(names: frozenset[str]) -> None:
    """Refuse foreign Hosts and cross-site WebSockets where Streamlit opens them (idempotent)."""
    from streamlit import config

    try:
        from streamlit.web.server.starlette import starlette_websocket
    except ImportError:  # another server: the script's own check (`refusal`) still holds
        starlette_websocket = None
    if starlette_websocket is None or getattr(starlette_websocket, "_rummi_guarded", None) == names:
        return  # every run of the script asks: nothing to do once these names are guarded

    def guarded(origin: str | None, host: str | None) -> bool:
        return host_allowed(host, names) and same_site(origin, host)

    config.set_option("server.allowedHosts", sorted(names))
    starlette_websocket._is_origin_allowed = guarded
    starlette_websocket._rummi_guarded = names
