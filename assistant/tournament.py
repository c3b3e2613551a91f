"""Tournament play (004_*.txt): tables drawn by raffle, standings by games won then cumulative score.

"In tournament play, seating and table assignments are determined by raffle prior to entering the
competition hall" and "the player with the most game wins advances; ties are broken by highest cumulative
score" (004_*.txt). Everything here is pure: the hall's storage is `assistant.storage.tournaments`, and
`assistant.hall` joins the two for the CLI and the app.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

from assistant.arguments import whole_number
from assistant.errors import InputError
from assistant.names import BadName, clean_name, strip_controls
from assistant.rules import Rules
from assistant.scoring import same_names

Tables = tuple[tuple[str, ...], ...]
SEATINGS = ("raffle", "standings")


class TournamentError(InputError):
    """Tournament input that cannot be used: an unknown player, a player at another table, a bad size."""


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    name: str
    games_won: int
    score: int
    games: int


def parse_players(arguments: Iterable[str]) -> list[str]:
    """Player names from `--players`: separated by commas, or by spaces when no comma is given.

    Each name is cleaned of control characters (`assistant.names`): a terminal escape or a bidi override
    is never stored.

    Raises:
        TournamentError: no names, a blank or repeated name, a name of control characters only, two names
            that differ only in case (a game compares names ignoring case, so they could never play), or a
            name with '=' (it would not parse back in `--rack NAME=TILES`).
    """
    parts = list(arguments)
    joined = ",".join(parts)
    names = [n.strip() for n in joined.split(",")] if "," in joined else " ".join(parts).split()
    if any(not name for name in names):
        raise TournamentError(f"a player name is blank in {joined!r}")
    try:
        names = [clean_name(name, "every player") for name in names]
    except BadName as error:
        raise TournamentError(str(error)) from error
    for name in names:
        if "=" in name:
            raise TournamentError(f"a player name cannot contain '=': {name!r}")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise TournamentError(f"player names must differ: {', '.join(repeated)} given twice")
    same = same_names(names)
    if same:
        raise TournamentError(f"{same}: a game could not tell them apart")
    return names


def tournament_name(name: str) -> str:
    """A tournament's name as stored and looked up: cleaned of control characters (`assistant.names`).

    Raises:
        TournamentError: a blank name, or one of control characters only.
    """
    try:
        return clean_name(name, "the tournament")
    except BadName as error:
        raise TournamentError(str(error)) from error


def stored_name(players: Iterable[str], given: str) -> str:
    """The registered spelling of `given`, matched ignoring case as scoring does (`hal` for `HAL`);
    `given` itself when no player matches, or when several do (names registered before that was
    refused), unless one matches exactly."""
    registered = list(players)
    if given in registered:
        return given
    cleaned = strip_controls(given)  # names are stored cleaned of control characters
    if cleaned in registered:
        return cleaned
    matches = [name for name in registered if name.casefold() == cleaned.casefold()]
    return matches[0] if len(matches) == 1 else given


def table_sizes(players: int, table_size: int, rules: Rules) -> list[int]:
    """How many players sit at each table: as few tables as `table_size` allows, sizes differing by at
    most one (10 players at tables of 4: 4, 3, 3).

    Raises:
        TournamentError: too few players, or a table size the rules do not allow.
    """
    if not rules.min_players <= table_size <= rules.max_players:
        raise TournamentError(
            f"a table seats {rules.min_players} to {rules.max_players} players under the {rules.label} "
            f"rules, not {table_size}"
        )
    if players < rules.min_players:
        raise TournamentError(f"a tournament needs at least {rules.min_players} players, got {players}")
    count = -(-players // table_size)
    base, extra = divmod(players, count)
    sizes = [base + (1 if index < extra else 0) for index in range(count)]
    if sizes[-1] < rules.min_players:
        # As few tables as the size allows is also the largest each can be: more tables cannot help.
        lowest = rules.min_players
        seats = f"exactly {lowest}" if table_size == lowest else f"{lowest} to {table_size}"
        left = "one player alone" if sizes[-1] == 1 else f"only {sizes[-1]} players"
        larger = -(-players // (table_size + 1))
        hint = (
            f" (tables of {table_size + 1} would seat them)"
            if table_size < rules.max_players and players // larger >= lowest
            else ""
        )
        raise TournamentError(
            f"{players} players cannot be seated at tables of {table_size}: a table seats {seats} players, "
            f"and {count} tables for {players} players leave {left} at one{hint}"
        )
    return sizes


def new_seed() -> str:
    """A seed for a raffle nobody asked to repeat; stored, so the draw can be checked afterwards."""
    return secrets.token_hex(4)


def draw_tables(players: Sequence[str], table_size: int, seed: str, rules: Rules) -> Tables:
    """The raffle: players shuffled by `seed` (the same seed draws the same tables), then seated table by
    table; the order within a table is the seating order."""
    order = list(players)
    random.Random(f"rummi-raffle:{seed}").shuffle(order)
    return _deal(order, table_sizes(len(order), table_size, rules))


def seat_by_standings(standings: Sequence[Standing], table_size: int, rules: Rules) -> Tables:
    """Re-seating by standings: the leaders together at table 1, the next at table 2, and so on."""
    order = [row.name for row in rank(standings)]
    return _deal(order, table_sizes(len(order), table_size, rules))


def _deal(order: Sequence[str], sizes: Sequence[int]) -> Tables:
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(order[start : start + size]))
        start += size
    return tuple(tables)


def rank(standings: Iterable[Standing]) -> list[Standing]:
    """Most games won first; ties broken by the highest cumulative score (004_*.txt), then by name so the
    order is the same on every device."""
    return sorted(standings, key=lambda row: (-row.games_won, -row.score, row.name))


def standings_from(
    players: Iterable[str], games: Iterable[tuple[dict[str, int], Sequence[str]]]
) -> list[Standing]:
    """Standings from (scores, winners) per game; a tied blocked game counts as a win for each winner."""
    won: dict[str, int] = {}
    score: dict[str, int] = {}
    played: dict[str, int] = {}
    names = list(players)
    for scores, winners in games:
        for name, points in scores.items():
            score[name] = score.get(name, 0) + points
            played[name] = played.get(name, 0) + 1
        for name in winners:
            won[name] = won.get(name, 0) + 1
    return rank(Standing(n, won.get(n, 0), score.get(n, 0), played.get(n, 0)) for n in names)


def table_of(tables: Tables, player: str) -> int | None:
    """The 1-based table `player` sits at, or None."""
    for number, table in enumerate(tables, start=1):
        if player in table:
            return number
    return None


def check_table_players(tables: Tables, table: int, given: Iterable[str], registered: Iterable[str]) -> None:
    """The racks given for a game at `table` are exactly its players.

    Raises:
        TournamentError: no such table, an unknown player, a player seated elsewhere, or one missing.
    """
    if not 1 <= table <= len(tables):
        raise TournamentError(f"there is no table {table}: the tables are 1 to {len(tables)}")
    known = set(registered)
    seated = tables[table - 1]
    names = list(given)
    for name in names:
        if name not in known:
            raise TournamentError(f"{name!r} is not a player of this tournament")
        if name not in seated:
            raise TournamentError(f"{name!r} plays at table {table_of(tables, name)}, not at table {table}")
    missing = [name for name in seated if name not in names]
    if missing:
        raise TournamentError(
            f"table {table} seats {', '.join(seated)}: no rack given for {', '.join(missing)} "
            "(an empty rack is given as NAME=)"
        )


# Joining a table from a device -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TableLink:
    """What a table's device needs to join: the tournament and the table number."""

    tournament: str
    table: int

    def query(self) -> str:
        return urlencode({"tournament": self.tournament, "table": self.table})

    def url(self, base: str) -> str:
        """The link (and QR code content) that opens the app at this table."""
        return f"{base.rstrip('/')}/?{self.query()}"

    @classmethod
    def parse(cls, text: str) -> TableLink:
        """From a link or just its query (`tournament=Club&table=3`).

        Raises:
            TournamentError: no tournament or no table number in it.
        """
        query = urlsplit(text).query if "://" in text or text.startswith("/") else text.lstrip("?")
        return cls.from_query({key: values[-1] for key, values in parse_qs(query).items()})

    @classmethod
    def from_query(cls, params: dict[str, str]) -> TableLink:
        name = (params.get("tournament") or "").strip()
        table = (params.get("table") or "").strip()
        if not name:
            raise TournamentError("the link names no tournament")
        number = whole_number(table)
        if number is None or number < 1:
            raise TournamentError(f"the link's table is not a table number: {table!r}")
        return cls(name, number)
