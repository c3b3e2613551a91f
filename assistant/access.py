"""Who may change what: the director, a table (through its link), or a viewer.

The director holds the server's key (`--director-key`, RUMMI_DIRECTOR_KEY or the secret `director_key`);
with no key set, the browser on the server's own computer is the director (one laptop at one table). A
table holds the token of its link (`assistant.storage.links`), which grants its own game or tournament
table and nothing else. Everyone else only looks.

`GuardedStorage` and `GuardedHall` are the stores the app's screens get: every write asks the session's
access first, in the server, whatever the page showed. The access is asked again at each write, so a link
the director replaced stops working on the next press.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from assistant.errors import InputError
from assistant.server_settings import server_setting
from assistant.storage import RoundRecord, Storage
from assistant.storage.database import StorageError
from assistant.storage.links import GameTable, Grant, TournamentTable
from assistant.storage.tournaments import GameEntry, Tournament, TournamentGame, TournamentStore
from assistant.tournament import Tables

KEY_ENV_VAR = "RUMMI_DIRECTOR_KEY"
KEY_SECRET = "director_key"
MIN_KEY_LENGTH = 12


class AccessDenied(StorageError):
    """A change this session's role may not make; nothing was written."""


@dataclass(frozen=True)
class KeySetting:
    """The director's key from the server's settings (None: no key set), and which setting said so."""

    key: str | None
    source: str

    def matches(self, given: str) -> bool:
        """Whether `given` is the key (compared in constant time)."""
        if self.key is None:
            return False
        return hmac.compare_digest(digest(given), digest(self.key))


class GuessThrottle:
    """Wrong director keys cost time, for every client together and for each client apart.

    Every wrong key waits its turn behind the others (one wrong key a `delay_s` across the whole server,
    however many tabs or devices guess at once), and a client with `lockout_after` wrong keys in a row is
    refused without a check for `lockout_s` seconds. A right key clears that client's count.

    `clock` and `sleep` are the real ones unless a test gives others.
    """

    def __init__(
        self,
        delay_s: float = 1.0,
        lockout_after: int = 5,
        lockout_s: float = 60.0,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        import threading
        import time

        self.delay_s = delay_s
        self.lockout_after = lockout_after
        self.lockout_s = lockout_s
        self._clock = clock or time.monotonic
        self._sleep = sleep or time.sleep
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}  # client -> (wrong keys in a row, last at)

    def locked_for(self, client: str) -> float:
        """Seconds `client` must still wait before a key is checked again (0: it may try now)."""
        count, last = self._failures.get(client, (0, 0.0))
        if count < self.lockout_after:
            return 0.0
        return max(0.0, last + self.lockout_s - self._clock())

    def check(self, setting: KeySetting, given: str, client: str) -> bool:
        """Whether `given` is the key; a wrong one (or any try while locked out) returns after the delay.

        Raises:
            InputError: `client` is locked out (the message says for how long); the key was not checked.
        """
        wait = self.locked_for(client)
        if wait > 0:
            raise InputError(f"too many wrong keys from this device: try again in {math.ceil(wait)} s")
        if setting.matches(given):
            self._failures.pop(client, None)
            return True
        with self._lock:  # one wrong key at a time for the whole server
            count, _ = self._failures.get(client, (0, 0.0))
            if count >= self.lockout_after:  # the lockout is over: a new series
                count = 0
            self._sleep(self.delay_s)
            self._failures[client] = (count + 1, self._clock())
            if len(self._failures) > 10_000:  # a flood of clients: forget the oldest
                oldest = sorted(self._failures, key=lambda c: self._failures[c][1])[:5_000]
                for c in oldest:
                    del self._failures[c]
        return False


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def director_key_setting(
    argv: Sequence[str], environ: Mapping[str, str], secrets: Mapping[str, Any]
) -> KeySetting:
    """The director's key, first found wins: `--director-key` after `streamlit run app.py --`, the
    RUMMI_DIRECTOR_KEY environment variable, Streamlit's secret `director_key`; else no key.

    Raises:
        InputError: `--director-key` without a value, or a key shorter than 12 characters.
    """
    found = server_setting(
        argv, environ, secrets, "--director-key", KEY_ENV_VAR, KEY_SECRET, "--director-key KEY"
    )
    if found is None:
        return KeySetting(None, "no director key is set")
    given, source = found
    key = given.strip()
    if len(key) < MIN_KEY_LENGTH:
        raise InputError(
            f"the director key from {source} has {len(key)} characters; it needs at least "
            f"{MIN_KEY_LENGTH} (make one with: python -c \"import secrets; print(secrets.token_urlsafe())\")"
        )
    return KeySetting(key, source)


@dataclass(frozen=True)
class Access:
    """One session's role: the director, the table of `grant`, or (neither) a viewer."""

    director: bool
    grant: Grant | None = None

    @property
    def role(self) -> str:
        """The role in words, as the page shows it."""
        if self.director:
            return "the director"
        if self.grant is None:
            return "a viewer"
        return f"the table of {self.grant}"

    def may_record_game(self, game_id: int) -> bool:
        return self.director or self.grant == GameTable(game_id)

    def may_record_table(self, tournament: str, table: int) -> bool:
        return self.director or self.grant == TournamentTable(tournament, table)

    def check_director(self, action: str) -> None:
        """Raises: AccessDenied, unless this is the director."""
        if not self.director:
            raise AccessDenied(f"only the director can {action} (this device is {self.role})")

    def check_game(self, game_id: int, action: str) -> None:
        """Raises: AccessDenied, unless this is the director or the game's own table."""
        if not self.may_record_game(game_id):
            raise AccessDenied(
                f"only the director or this game's table (its link) can {action} (this device is {self.role})"
            )

    def check_table(self, tournament: str, table: int, action: str) -> None:
        """Raises: AccessDenied, unless this is the director or that tournament table."""
        if not self.may_record_table(tournament, table):
            raise AccessDenied(
                f"only the director or {tournament}'s table {table} (its link) can {action} "
                f"(this device is {self.role})"
            )


def decide_access(
    setting: KeySetting, entered_digest: str | None, local: bool, grant: Grant | None
) -> Access:
    """The role of a session: the director if it gave the key (or, with no key set, if its browser runs on
    the server's own computer); else the table its link grants; else a viewer.

    `entered_digest` is `digest()` of the key the session signed in with, if any.
    """
    if setting.key is not None:
        director = entered_digest is not None and hmac.compare_digest(entered_digest, digest(setting.key))
    else:
        director = local
    return Access(director=director, grant=None if director else grant)


AccessOf = Callable[[], Access]


class GuardedStorage(Storage):
    """The games of `storage`, each write checked against the session's access (asked at each write).

    The director: everything. A game's table: its own game's table, turns, rounds and table profile.
    Nobody else writes. Reads are `Storage`'s own.
    """

    def __init__(self, storage: Storage, access_of: AccessOf) -> None:
        self.__dict__.update(storage.__dict__)  # the same database, engine and settings as `storage`
        self.access_of = access_of

    # The director's ---------------------------------------------------------------------------------------

    def create_game(self, *args: Any, **kwargs: Any) -> int:
        self.access_of().check_director("create a game")
        return super().create_game(*args, **kwargs)

    def rename_player(self, game_id: int, seat: int, name: str) -> None:
        self.access_of().check_director("rename players")
        super().rename_player(game_id, seat, name)

    def undo_round(self, game_id: int, number: int) -> RoundRecord:
        self.access_of().check_director("undo a round")
        return super().undo_round(game_id, number)

    # The game's table's -----------------------------------------------------------------------------------

    def set_table_layout(self, game_id: int, layout: str, photo: str | None = None) -> None:
        self.access_of().check_game(game_id, "change the table")
        super().set_table_layout(game_id, layout, photo)

    def set_agreed_layout(self, game_id: int, layout: str) -> None:
        self.access_of().check_game(game_id, "change the table")
        super().set_agreed_layout(game_id, layout)

    def set_turn_seat(self, game_id: int, seat: int) -> None:
        self.access_of().check_game(game_id, "change whose turn it is")
        super().set_turn_seat(game_id, seat)

    def set_game_profile(self, game_id: int, data: bytes, format: str, replace: bool = True) -> bool:
        self.access_of().check_game(game_id, "set up the table")
        return super().set_game_profile(game_id, data, format, replace)

    def forget_game_profile(self, game_id: int) -> bool:
        self.access_of().check_game(game_id, "forget the table profile")
        return super().forget_game_profile(game_id)

    def start_turn(self, game_id: int, *args: Any, **kwargs: Any) -> None:
        self.access_of().check_game(game_id, "start a turn")
        super().start_turn(game_id, *args, **kwargs)

    def cancel_turn(self, game_id: int) -> None:
        self.access_of().check_game(game_id, "cancel a turn")
        super().cancel_turn(game_id)

    def finish_turn(self, game_id: int, *args: Any, **kwargs: Any) -> Any:
        self.access_of().check_game(game_id, "end a turn")
        return super().finish_turn(game_id, *args, **kwargs)

    def record_round(self, game_id: int, *args: Any, **kwargs: Any) -> None:
        self.access_of().check_game(game_id, "record a round")
        super().record_round(game_id, *args, **kwargs)


class GuardedHall(TournamentStore):
    """The tournaments of `hall`, each write checked against the session's access (asked at each write).

    The director: everything. A tournament table: its own table's games. Nobody else writes.
    """

    def __init__(self, hall: TournamentStore, access_of: AccessOf) -> None:
        self.__dict__.update(hall.__dict__)  # the same database as `hall`
        self.access_of = access_of

    def create(
        self,
        name: str,
        preset: str,
        players: Sequence[str],
        table_size: int,
        tables: Tables,
        seed: str | None,
    ) -> Tournament:
        self.access_of().check_director("start a tournament")
        return super().create(name, preset, players, table_size, tables, seed)

    def new_round(
        self, name: str, expected_round: int, tables: Tables, seating: str, seed: str | None
    ) -> int:
        self.access_of().check_director("start a round")
        return super().new_round(name, expected_round, tables, seating, seed)

    def record_game(self, name: str, entry: GameEntry) -> TournamentGame:
        self.access_of().check_table(name.strip(), entry.table, "record a game at that table")
        return super().record_game(name, entry)


STORAGE_READS = frozenset(
    {"path", "url", "list_games", "load_game", "game_profile", "turns", "rounds", "export_csv"}
)
HALL_READS = frozenset({"names", "load", "tables", "games", "standings"})
"""The methods the guards pass through unchecked; a test holds every other public method to a check."""
