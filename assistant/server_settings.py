"""The app server's own settings (the database, the director's key): read from the server, never the page."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from assistant.errors import InputError


def server_setting(
    argv: Sequence[str],
    environ: Mapping[str, str],
    secrets: Mapping[str, Any],
    option: str,
    env_var: str,
    secret: str,
    usage: str,
    empty_option_is_unset: bool = False,
) -> tuple[str, str] | None:
    """A setting, first found wins: `option` after `streamlit run app.py --`, the environment variable
    `env_var`, Streamlit's secret `secret`. Returns the value and which setting gave it (`the --db option`),
    or None where none is set (an empty variable or secret counts as not set; an empty option too with
    `empty_option_is_unset`, else it is given as empty, for the caller to refuse).

    Raises:
        InputError: `option` without a value; the message shows `usage` (`--db PATH-OR-URL`).
    """
    parser = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    parser.add_argument(option, dest="value")
    try:
        known, _ = parser.parse_known_args(list(argv))
    except argparse.ArgumentError as error:
        raise InputError(f"the app's command line: {error} (use: streamlit run app.py -- {usage})") from None
    if known.value is not None and (known.value or not empty_option_is_unset):
        return known.value, f"the {option} option"
    if environ.get(env_var):
        return environ[env_var], f"the {env_var} environment variable"
    if secrets.get(secret):
        return str(secrets[secret]), f"the secret {secret!r}"
    return None
