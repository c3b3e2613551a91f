"""The session's role in the app (`assistant.access`): the director's key and sign-in, the table link the
tab was opened with, whether the browser runs on the server's own computer, and the address the tables'
links and QR codes point at."""

from __future__ import annotations

import os
import sys
import time
from ipaddress import ip_address
from urllib.parse import urlsplit, urlunsplit

import streamlit as st

from assistant.access import Access, KeySetting, decide_access, digest, director_key_setting
from assistant.storage.links import TableLinks
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


def connection_is_local() -> bool:
    """Whether this session's browser runs on the server's own computer (connected over loopback).

    The peer address is the TCP connection's, which a browser cannot choose. With no server at all (bare
    mode, or AppTest's stand-in runtime) nobody else can reach the app, so that counts as local too; a
    server's session with no browser connected does not.
    """
    from unittest.mock import NonCallableMock

    from streamlit import runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if not runtime.exists() or isinstance(runtime.get_instance(), NonCallableMock):  # AppTest's is a mock
        return True
    ctx = get_script_run_ctx()
    try:
        client = runtime.get_instance().get_client(ctx.session_id) if ctx is not None else None
        remote = client.client_context.remote_ip if client is not None else None
        return remote is not None and ip_address(remote).is_loopback
    except (AttributeError, ValueError):  # no client context, an address that is not an IP (a socket file)
        return False


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


def on_sign_in(setting: KeySetting) -> None:
    state = st.session_state
    given = str(state.get("director_key_input") or "")
    state.director_key_input = ""  # the key does not stay in the page
    if setting.matches(given):
        state[SIGNED_IN] = digest(given)
        state.sign_in_error = None
        return
    time.sleep(WRONG_KEY_DELAY_S)  # guessing costs time
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
