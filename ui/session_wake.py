"""A rerun of one browser tab's script asked for from another thread: the referee's camera thread wakes the
screen the moment it makes a call, so the verdict and the turn history do not wait for the screen's poll.

Streamlit has no public way to do this: `session_waker` uses its runtime's session manager and event loop
(checked on streamlit 1.67), and gives None wherever they are not there (AppTest, a bare script, another
version that moved them). The screen's polls then show the call, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def session_waker() -> Callable[[], None] | None:
    """A function that asks the running Streamlit server to rerun this tab's script, callable from any
    thread; None outside a live Streamlit server."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        context = get_script_run_ctx(suppress_warning=True)
        if context is None or not Runtime.exists():
            return None
        runtime: Any = Runtime.instance()
        loop = runtime._get_async_objs().eventloop
        sessions = runtime._session_mgr
        session_id = context.session_id
    except Exception:  # a Streamlit without these internals: the polls show the call
        return None

    def rerun() -> None:  # on the server's event loop
        info = sessions.get_active_session_info(session_id)
        if info is not None:
            info.session.request_rerun(None)

    def wake() -> None:
        try:
            loop.call_soon_threadsafe(rerun)
        except RuntimeError:  # the server's loop has closed
            pass

    return wake


def in_fragment_run() -> bool:
    """Whether the script runs for a fragment alone (`st.fragment`), not the whole page."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        context = get_script_run_ctx(suppress_warning=True)
    except Exception:
        return False
    return bool(context is not None and context.fragment_ids_this_run)
