"""Scores: one round (someone went out, or the round is blocked) and a match ledger across rounds.

Standard round (000_*.txt section 5, 001_*.txt, 002_*.txt, 004_*.txt): each loser scores minus their rack
value and the winner scores the sum, so a round balances to zero. A joker left on a rack counts the
preset's penalty (30 standard and six-player, 25 Goliath, 50 tournament).

Blocked round (000_*.txt section 5, 002_*.txt): the lowest rack wins; every other player scores minus the
difference between their rack and the lowest, and the winner scores the sum of those differences.
Ties for lowest: 000_*.txt leaves it to the table ("share the round win or play a tiebreaker"). Here the
tied players share the win: each is a winner, and they split the sum of differences equally; points that
do not split evenly go one each to the tied winners in seating order (the order the racks are given). The
round still balances to zero.

Failed opening (004_*.txt): a player who never opened owes 100 (could not have opened) or 200 (could
have but chose not to) on top of their rack; the winner collects it, so the round still balances.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from assistant.errors import InputError, quote
from assistant.rules import STANDARD, Rules, rack_value
from assistant.supply import supply_problems
from assistant.tiles import Tile

__all__ = ["FailedOpening", "Ledger", "RoundResult", "ScoringError", "rack_value", "score_round"]


class ScoringError(InputError):
    """Racks or rounds that cannot be scored as given (two players out, unknown player, match over)."""


class FailedOpening(enum.Enum):
    """Why a player never opened (004_*.txt): the penalty is the first or second of the preset's pair."""

    COULD_NOT = "could-not"
    CHOSE_NOT = "chose-not"


def parse_failed_openings(entries: Sequence[str] | None, player: str = "NAME") -> dict[str, FailedOpening]:
    """`PLAYER=could-not|chose-not` entries (the command line's `--failed-opening`), by player; a bare
    `PLAYER=` could not open.

    Raises:
        InputError: an entry names no known reason (`player` is the word its message uses for the name).
    """
    failed: dict[str, FailedOpening] = {}
    for entry in entries or []:
        name, _, why = entry.partition("=")
        try:
            failed[name.strip()] = FailedOpening(why.strip() or FailedOpening.COULD_NOT.value)
        except ValueError:
            raise InputError(f"not {player}=could-not|chose-not: {quote(entry)}") from None
    return failed


@dataclass(frozen=True)
class RoundResult:
    """One round's outcome. `scores` sums to zero; `rack_values` counts jokers at the preset's penalty."""

    blocked: bool
    winners: tuple[str, ...]
    rack_values: dict[str, int]
    scores: dict[str, int]
    penalties: dict[str, int] = field(default_factory=dict)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.rack_values)


def score_round(
    racks: Mapping[str, Sequence[Tile]],
    rules: Rules = STANDARD,
    failed_openings: Mapping[str, FailedOpening] | None = None,
) -> RoundResult:
    """Score a round from every player's remaining rack. An empty rack marks the player who went out;
    with no empty rack the round is blocked.

    Raises:
        ScoringError: fewer than two players, more than the preset allows, two names that differ only
            in case, more than one empty rack, more copies of a tile than the edition has;
            a failed opening for an unknown player or under a preset without that penalty.
    """
    names = list(racks)
    if len(names) < rules.min_players:
        raise ScoringError(f"a round needs at least {rules.min_players} players, got {len(names)}")
    if len(names) > rules.max_players:
        raise ScoringError(
            f"{len(names)} players, but the {rules.name} rules allow at most {rules.max_players}"
        )
    same_name = same_names(names)
    if same_name:
        raise ScoringError(same_name)
    impossible = supply_problems((t for rack in racks.values() for t in rack), rules, "the racks")
    if impossible:
        raise ScoringError("; ".join(impossible))
    values = {name: rack_value(racks[name], rules) for name in names}
    penalties = _failed_opening_penalties(names, failed_openings or {}, rules)
    out = [name for name in names if not racks[name]]
    if len(out) > 1:
        raise ScoringError(f"only one player can go out, but {', '.join(out)} all have empty racks")

    blocked = not out
    if blocked:
        lowest = min(values.values())
        winners = [name for name in names if values[name] == lowest]
    else:
        lowest = 0
        winners = out
    scores = {name: 0 for name in names}
    for name in names:
        if name not in winners:
            scores[name] = -(values[name] - lowest + penalties.get(name, 0))
    pot = -sum(scores.values())
    share, remainder = divmod(pot, len(winners))
    for index, name in enumerate(winners):
        scores[name] = share + (1 if index < remainder else 0)
    charged = {name: p for name, p in penalties.items() if name not in winners}
    return RoundResult(blocked, tuple(winners), values, scores, charged)


def same_names(names: Sequence[str]) -> str | None:
    """A sentence naming two players whose names differ only in case or surrounding spaces (`Ann`, `ann`),
    or None: at a table they are one person."""
    seen: dict[str, str] = {}
    for name in names:
        key = name.strip().casefold()
        if key in seen:
            first = seen[key]
            if first == name:
                return f"player {quote(name)} is listed twice"
            return (
                f"players {quote(first)} and {quote(name)} are the same name "
                "(names are compared ignoring case)"
            )
        seen[key] = name
    return None


def _failed_opening_penalties(
    names: Sequence[str], failed: Mapping[str, FailedOpening], rules: Rules
) -> dict[str, int]:
    if not failed:
        return {}
    if rules.failed_opening_penalty is None:
        raise ScoringError(
            f"the {rules.label} rules have no failed-opening penalty (the tournament rules do)"
        )
    could_not, chose_not = rules.failed_opening_penalty
    penalties = {}
    for name, why in failed.items():
        if name not in names:
            raise ScoringError(f"failed opening for {name!r}, who has no rack in this round")
        penalties[name] = could_not if why is FailedOpening.COULD_NOT else chose_not
    return penalties


@dataclass
class Ledger:
    """A match: round results in order, cumulative totals (always summing to zero) and games won.

    The match winner follows `rules.match_decided_by`: the highest total (000_*.txt section 5), or the
    most games won with ties broken by total (002_*.txt, 004_*.txt, simple win counting). A tied blocked
    round counts as a win for each tied player. With `rules.partnership`, partners (by default players
    1 and 3, 2 and 4 in seating order: 000_*.txt section 6) combine their scores.
    """

    players: tuple[str, ...]
    rules: Rules = STANDARD
    partnerships: tuple[tuple[str, ...], ...] = ()
    rounds: list[RoundResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.players = tuple(self.players)
        same_name = same_names(self.players)
        if same_name:
            raise ScoringError(same_name)
        if self.rules.partnership and not self.partnerships:
            if len(self.players) != 4:
                raise ScoringError(f"partnership play needs 4 players, got {len(self.players)}")
            first, second, third, fourth = self.players
            self.partnerships = ((first, third), (second, fourth))
        self.partnerships = tuple(tuple(team) for team in self.partnerships)
        seated = [name for team in self.partnerships for name in team]
        unknown = [name for name in seated if name not in self.players]
        if unknown or len(set(seated)) != len(seated):
            raise ScoringError(f"partnerships must name each player at most once: {self.partnerships}")

    @property
    def games_per_round(self) -> int:
        """Games in one round: as many as there are players under 002_*.txt ("six players = six games,
        five players = five games"), else one. `rounds` holds every game played, in order."""
        return len(self.players) if self.rules.games_per_round_by_players else 1

    @property
    def rounds_completed(self) -> int:
        """Whole rounds played (a six-player round is complete after one game per player)."""
        return len(self.rounds) // self.games_per_round

    @property
    def finished(self) -> bool:
        """True once a short match (or any fixed number of rounds) has all its rounds."""
        return self.rules.match_rounds is not None and self.rounds_completed >= self.rules.match_rounds

    def record(self, result: RoundResult) -> None:
        """Add a round.

        Raises:
            ScoringError: the round's players differ from the match's, or the match is over.
        """
        if set(result.players) != set(self.players):
            raise ScoringError(
                f"the round's players ({', '.join(result.players)}) differ from the match's "
                f"({', '.join(self.players)})"
            )
        if self.finished:
            raise ScoringError(f"the match is over after {self.rules.match_rounds} rounds")
        # (a game is one RoundResult; under 002_*.txt a round is `games_per_round` of them)
        self.rounds.append(result)

    @property
    def totals(self) -> dict[str, int]:
        return {name: sum(r.scores[name] for r in self.rounds) for name in self.players}

    @property
    def wins(self) -> dict[str, int]:
        return {name: sum(name in r.winners for r in self.rounds) for name in self.players}

    @property
    def partnership_totals(self) -> dict[str, int]:
        """Combined totals keyed `alice+carol`."""
        totals = self.totals
        return {"+".join(team): sum(totals[name] for name in team) for team in self.partnerships}

    def standings(self) -> list[tuple[str, int, int]]:
        """(name, total, wins), best first; partnerships instead of players under partnership play."""
        if self.partnerships:
            totals = self.partnership_totals
            wins = {"+".join(team): sum(self.wins[name] for name in team) for team in self.partnerships}
        else:
            totals, wins = self.totals, self.wins
        rows = [(name, totals[name], wins[name]) for name in totals]
        return sorted(rows, key=self._rank, reverse=True)

    def leaders(self) -> tuple[str, ...]:
        """Who is ahead (the winners once the match is over); several when tied."""
        rows = self.standings()
        if not rows or not self.rounds:
            return ()
        best = self._rank(rows[0])
        return tuple(row[0] for row in rows if self._rank(row) == best)

    def _rank(self, row: tuple[str, int, int]) -> tuple[int, ...]:
        _, total, wins = row
        if self.rules.simple_win_counting:
            return (wins,)
        if self.rules.match_decided_by == "wins":
            return (wins, total)
        return (total,)
