"""The session's role in the app (`assistant.access`): the director's key and sign-in, the table link the
tab was opened with, whether the browser runs on the server's own computer, and the address the tables'
links and QR codes point at."""

from __future__ import annotations

import os
import sys
from ipaddress import ip_address
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import streamlit as st

from assistant.access import Access, GuessThrottle, KeySetting, decide_access, digest, director_key_setting
from assistant.errors import InputError
from assistant.storage.links import TableLinks
from ui import host_guard
from ui.common import app_secrets, lan_address

LINK_PARAM = "key"  # the table's token in its link: `?game=3&key=...` or `?tournament=Cup&table=2&key=...`
SIGNED_IN = "director_signed_in"  # session state: the digest of the key this session signed in with
WRONG_KEY_DELAY_S = 1.0


def key_setting() -> KeySetting:
    """The server's director key (`--director-key`, RUMMI_DIRECTOR_KEY, the secret `director_key`), read on
    every run, never from the page.

    Raises:
        InputError: a key given without a value or too short.
    """
    return director_key_setting(sys.argv[1:], os.environ, app_secrets())


def _server_client() -> Any:
    """This session's browser connection, or None where no server runs (bare mode, AppTest's stand-in
    runtime, which is a mock): nobody else can reach the app then."""
    from unittest.mock import NonCallableMock

    from streamlit import runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if not runtime.exists() or isinstance(runtime.get_instance(), NonCallableMock):
        return None
    ctx = get_script_run_ctx()
    return runtime.get_instance().get_client(ctx.session_id) if ctx is not None else _NO_CLIENT


_NO_CLIENT = object()
"""A server's session with no browser connected."""


def connection_is_local() -> bool:
    """Whether this session's browser runs on the server's own computer: connected over loopback (the TCP
    peer's address, which a browser cannot choose; IPv4-mapped loopback included) and under a loopback
    Host (`localhost`, 127.x, ::1), so that a page whose name resolves to 127.0.0.1 is not local
    (`ui.host_guard`). With no server at all, local; a server's session with no browser, not."""
    client = _server_client()
    if client is None:
        return True
    try:
        context = client.client_context
        host = host_guard.header_map(context.headers).get("host")
        return host_guard.is_loopback_address(context.remote_ip) and host_guard.is_loopback_host(host)
    except AttributeError:  # no client context, or no browser connected
        return False


def request_refusal() -> str | None:
    """Why this session's browser connection is not served (a foreign Host, another site's page), or None;
    None too where no server runs."""
    client = _server_client()
    if client is None:
        return None
    try:
        headers = client.client_context.headers
    except AttributeError:
        return "no browser connection"
    names = host_guard.served_names()
    host_guard.install(names)
    return host_guard.refusal(host_guard.header_map(headers), names)


def link_token() -> str:
    return st.query_params.get(LINK_PARAM, "")


def current_access(links: TableLinks) -> Access:
    """This session's role now: asked on every run and again at every write.

    Raises:
        InputError: the server's director key is not set right; StorageError: the database did not answer.
    """
    token = link_token()
    grant = links.grant(token) if token else None
    return decide_access(key_setting(), st.session_state.get(SIGNED_IN), connection_is_local(), grant)


def sidebar_ui(setting: KeySetting, access: Access) -> None:
    """Who this device is, and the director's sign-in (or sign-out)."""
    with st.sidebar:
        st.markdown(f"This device is **{access.role}**.")
        if setting.key is None:
            # Markdown, not a caption: the screens' own captions stay the page's last ones.
            st.markdown(
                ":small[No director key is set: the director is whoever uses the app on the server's own "
                "computer; tables record through their links. Set a key with "
                "`streamlit run app.py -- --director-key KEY`.]"
            )
        elif access.director:
            st.button("Sign out", key="director_sign_out", on_click=on_sign_out)
        else:
            with st.form("director_sign_in"):
                st.text_input("Director key", type="password", key="director_key_input")
                st.form_submit_button("Sign in as the director", on_click=on_sign_in, args=(setting,))
        if st.session_state.get("sign_in_error"):
            st.error(st.session_state.sign_in_error)


GUESSES = GuessThrottle(delay_s=WRONG_KEY_DELAY_S)
"""Shared by every session of the server: six tabs guessing at once wait in one queue."""


def client_address() -> str:
    """The browser's address as the server sees it ("" where no server runs)."""
    client = _server_client()
    try:
        return str(client.client_context.remote_ip or "") if client is not None else ""
    except AttributeError:
        return ""


def on_sign_in(setting: KeySetting) -> None:
    state = st.session_state
    given = str(state.get("director_key_input") or "")
    state.director_key_input = ""  # the key does not stay in the page
    try:
        right = GUESSES.check(setting, given, client_address())
    except InputError as error:
        state.sign_in_error = f"Not checked: {error}."
        return
    if right:
        state[SIGNED_IN] = digest(given)
        state.sign_in_error = None
        return
    state.sign_in_error = "That is not the director key."


def on_sign_out() -> None:
    st.session_state[SIGNED_IN] = None
    st.session_state.sign_in_error = None


def only_here(host: str | None) -> bool:
    """Whether `host` names this computer only (localhost, 127.x, ::1, 0.0.0.0): no other device uses it."""
    if not host or host == "localhost":
        return True
    try:
        address = ip_address(host)
    except ValueError:  # a name, e.g. hall.local: the tables may reach it
        return False
    return address.is_loopback or address.is_unspecified


def lan_base_url(page_url: str, lan: str) -> str:
    """`page_url` (scheme, host, port, path) with its host replaced by `lan` when it names this computer
    only: a link made on `localhost` must open on the table's device too."""
    parts = urlsplit(page_url)
    if not only_here(parts.hostname) or only_here(lan):
        return page_url.rstrip("/")
    host = f"[{lan}]" if ":" in lan else lan
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", "")).rstrip("/")


def app_address() -> str:
    """Where the tables reach this app: the director's page address, on this computer's LAN address when
    the director opened it as localhost."""
    url = (st.context.url or "http://localhost:8501").split("?")[0]
    return lan_base_url(url, lan_address())
