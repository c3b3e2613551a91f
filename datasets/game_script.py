"""A seeded Rummikub game as a camera above the table would see it, with every tile's place on the table.

Pure simulation, nothing drawn: `simulate_game(seed)` deals racks from the edition's tiles, lets the seats
play in turn (plays found by `assistant.solver.solve`), injects illegal turns that are put back or mended,
hands that change nothing and nudged tiles, and lays every table state out physically: sets lie in rows,
each in a slot; a tile that stays keeps its place; a changed set is laid again in its slot; a new set goes
to a free slot. `datasets.game_video` renders the script into a video with its ground truth.

World units are tile heights (about 36 mm), as in `datasets.layouts`: x to the right, y up the table (seat 1
sits at -y, the bottom of the picture), rows of sets run along +x, later rows further down (-y).
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from assistant.rules import STANDARD, Rules
from assistant.sets import check_set, is_valid_set
from assistant.solver import Play, solve
from assistant.tiles import COLORS, JOKER, NUMBERS, Tile

TURN_KINDS: tuple[str, ...] = (
    "legal", "opening-under-threshold", "invalid-set", "tile-taken", "put-back", "mended",
)
"""`kind` of a turn in the truth: a legal play, one of the three illegal turns, the put back that follows an
illegal turn, or a legal table the same seat made out of its illegal one."""

ILLEGAL_KINDS = frozenset({"opening-under-threshold", "invalid-set", "tile-taken"})

TilePlace = tuple[float, float, float]
"""(x, y, up_deg): a tile's centre on the table and the direction of its top, degrees counter-clockwise
from +y (as `datasets.layouts.table_tile` takes it)."""


class TableFullError(RuntimeError):
    """No free slot on the table is long enough for a set: the game stops before that turn."""


@dataclass(frozen=True)
class TableGeometry:
    """Where sets may lie: `rows` rows `row_step` apart, each `row_width` long, sets `gap` apart."""

    rows: int = 7
    row_width: float = 17.5
    row_step: float = 1.6
    gap: float = 0.8
    aspect: float = 0.74  # tile width / height

    @property
    def step(self) -> float:
        """Centre distance of two touching tiles in a set."""
        return self.aspect + 0.012

    def row_y(self, row: int) -> float:
        return -row * self.row_step

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(x_min, y_min, x_max, y_max) of the area tiles may cover."""
        return (0.0, self.row_y(self.rows - 1) - 0.5, self.row_width, 0.5)


@dataclass(frozen=True)
class Slot:
    """The part of a row a set lies in: x from `x0` to `x1` (tile edges)."""

    row: int
    x0: float
    x1: float


@dataclass
class TableState:
    """One table: sets of tile ids (physical order, left to right), the slot of each, every tile's place."""

    sets: list[list[int]] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)
    places: dict[int, TilePlace] = field(default_factory=dict)
    grid: dict[int, tuple[int, float]] = field(default_factory=dict)  # id -> (row, x centre before jitter)

    def reading_order(self) -> list[int]:
        """Indices of the sets top to bottom, left to right."""
        return sorted(range(len(self.sets)), key=lambda i: (self.slots[i].row, self.slots[i].x0))

    def ids(self) -> list[int]:
        return [i for s in self.sets for i in s]


@dataclass
class ScriptEvent:
    """A hand over the table. `kind`: "turn" (a judged turn), "no-change" (a hand passes or straightens
    tiles and leaves the table as it was) or "nudge" (a hand moves `tile` a few millimetres).

    `state` is the table after the event (index into `GameScript.states`); `focus` where the hand works
    (world x, y); `from_seat` the side of the table the hand comes from.
    """

    kind: str
    state: int
    focus: tuple[float, float]
    from_seat: int
    seat: int | None = None
    turn_kind: str | None = None
    action: str | None = None
    legal: bool | None = None
    rack_before: list[int] | None = None  # the seat's rack (tile ids) before the turn
    opened_before: bool | None = None
    tile: int | None = None  # nudged tile


@dataclass
class GameScript:
    """What happens at the table, event by event, from an empty table (`states[0]`)."""

    seed: int
    players: int
    rules: Rules
    geometry: TableGeometry
    tiles: dict[int, Tile]  # every tile of the edition by id
    states: list[TableState]
    events: list[ScriptEvent]
    racks: dict[int, list[int]]  # seat -> tile ids dealt
    ended: str = "turns"  # why the game stopped: "turns", "out" (a rack emptied), "pool", "table full"

    def faces(self, state: int) -> list[list[Tile]]:
        """The table of a state as tiles, sets in reading order."""
        table = self.states[state]
        return [[self.tiles[i] for i in table.sets[k]] for k in table.reading_order()]

    def tokens(self, state: int) -> list[list[str]]:
        return [[str(t) for t in s] for s in self.faces(state)]

    def turn_records(self) -> list[dict[str, Any]]:
        """The judged turns in the contract's fields (no times): `turn`, `seat`, `action`, `added`,
        `removed` (against the table at the previous reported turn, or the start), `legal`, `table`, and
        `kind`; `state` is the table's index in `states`."""
        records = []
        previous = 0
        for event in self.events:
            if event.kind != "turn":
                continue
            added, removed = tile_changes(self.faces(previous), self.faces(event.state))
            records.append({
                "turn": len(records) + 1,
                "seat": event.seat,
                "action": event.action,
                "added": added,
                "removed": removed,
                "legal": event.legal,
                "table": self.tokens(event.state),
                "kind": event.turn_kind,
                "state": event.state,
            })
            previous = event.state
        return records


def tile_changes(
    before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]
) -> tuple[list[str], list[str]]:
    """(added, removed) tokens between two tables, each sorted by colour (k, b, r, o), number, jokers last."""
    old = Counter(t for s in before for t in s)
    new = Counter(t for s in after for t in s)
    return [str(t) for t in sorted((new - old).elements())], [str(t) for t in sorted((old - new).elements())]


def full_deck(rules: Rules = STANDARD) -> dict[int, Tile]:
    """Every tile of the edition by id: `rules.copies` of each face, then the jokers."""
    faces = [Tile(c, n) for _ in range(rules.copies) for c in COLORS for n in NUMBERS]
    return dict(enumerate(faces + [JOKER] * rules.jokers))


# ---------------------------------------------------------------------------------------------- layout


def _free_intervals(slots: Sequence[Slot], row: int, geometry: TableGeometry) -> list[tuple[float, float]]:
    """Stretches of a row where a set's tiles may lie, keeping `gap` from the sets already there."""
    taken = sorted((s.x0 - geometry.gap, s.x1 + geometry.gap) for s in slots if s.row == row)
    free, start = [], 0.0
    for lo, hi in taken:
        if lo > start:
            free.append((start, lo))
        start = max(start, hi)
    if start < geometry.row_width:
        free.append((start, geometry.row_width))
    return free


def _new_slot(slots: Sequence[Slot], length: float, geometry: TableGeometry) -> Slot:
    """The first free stretch (middle row first, then outwards, as players fill the middle of the table)
    with room for `length` and two more tiles, else just `length`.

    Raises:
        TableFullError: no row has room.
    """
    middle = (geometry.rows - 1) / 2
    for room in (length + 2 * geometry.step, length):
        for row in sorted(range(geometry.rows), key=lambda r: (abs(r - middle), r)):
            for lo, hi in _free_intervals(slots, row, geometry):
                if hi - lo >= room - 1e-9:
                    return Slot(row, lo, lo + length)
    raise TableFullError(f"no room for a set {length:.2f} long")


def _refit(
    old: Slot, others: Sequence[Slot], length: float, anchor: float | None, geometry: TableGeometry
) -> Slot | None:
    """The set laid again in (or around) its old slot: the free stretch holding the old slot, the set
    placed where `anchor` (its wanted start) says, else at the old start; None when it does not fit."""
    for lo, hi in _free_intervals(others, old.row, geometry):
        if lo - 1e-9 <= old.x0 and old.x1 <= hi + 1e-9:
            if hi - lo < length - 1e-9:
                return None
            start = old.x0 if anchor is None else anchor
            start = min(max(start, lo), hi - length)
            return Slot(old.row, start, start + length)
    return None


def lay_out(
    previous: TableState, sets: Sequence[Sequence[int]], geometry: TableGeometry, rng: np.random.Generator
) -> TableState:
    """The table with `sets` (tile ids, physical order) laid out from `previous`: unchanged sets stay, a
    changed set is laid again in its slot (tiles it shares with its old set keep their places where the
    old ones still line up), a new set (or one that outgrew its room) goes to a free slot.

    Raises:
        TableFullError: a set finds no room.
    """
    old_index = {tuple(s): k for k, s in enumerate(previous.sets)}
    state = TableState()
    placed: list[tuple[list[int], Slot]] = []
    pending: list[list[int]] = []
    used_old: set[int] = set()
    for s in sets:
        k = old_index.get(tuple(s))
        if k is not None and k not in used_old:
            used_old.add(k)
            placed.append((list(s), previous.slots[k]))
        else:
            pending.append(list(s))
    owner = {i: k for k, s in enumerate(previous.sets) for i in s}
    # Changed sets claim the slot of the old set they share most tiles with (most shared first).
    claims: list[tuple[int, int, list[int], Counter[int]]] = []
    for n, s in enumerate(pending):
        shared = Counter(owner[i] for i in s if i in owner and owner[i] not in used_old)
        if shared:
            claims.append((max(shared.values()), n, s, shared))
    claims.sort(key=lambda c: (-c[0], c[1]))
    claimed: dict[int, tuple[int, list[int]]] = {}
    for _count, n, s, shared in claims:
        for k, _c in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0])):
            if k not in claimed:
                claimed[k] = (n, s)
                break
    claimed_sets = {n for n, _ in claimed.values()}
    homeless = [s for n, s in enumerate(pending) if n not in claimed_sets]
    reserved = {k: previous.slots[k] for k in claimed}
    for k, (_n, s) in sorted(claimed.items(), key=lambda kv: kv[1][0]):
        old_slot = reserved.pop(k)
        others = [slot for _, slot in placed] + list(reserved.values())
        length = len(s) * geometry.step
        anchor = None
        for pos, i in enumerate(s):
            if i in previous.grid and previous.grid[i][0] == old_slot.row:
                anchor = previous.grid[i][1] - (pos + 0.5) * geometry.step
                break
        slot = _refit(old_slot, others, length, anchor, geometry)
        if slot is None:
            homeless.append(s)
        else:
            placed.append((s, slot))
    for s in homeless:
        placed.append((s, _new_slot([slot for _, slot in placed], len(s) * geometry.step, geometry)))
    for s, slot in placed:
        state.sets.append(s)
        state.slots.append(slot)
        for pos, i in enumerate(s):
            x = slot.x0 + (pos + 0.5) * geometry.step
            state.grid[i] = (slot.row, x)
            old = previous.grid.get(i)
            if old is not None and old[0] == slot.row and abs(old[1] - x) < 1e-6:
                state.places[i] = previous.places[i]
            else:
                state.places[i] = (
                    x + float(rng.normal(0, 0.006)),
                    geometry.row_y(slot.row) + float(rng.normal(0, 0.015)),
                    float(rng.normal(0, 1.2)),
                )
    return state


def nudged(state: TableState, tile: int, rng: np.random.Generator) -> TableState:
    """The same table with one tile pushed 2-4 mm up or down the table and turned a degree or three."""
    x, y, up = state.places[tile]
    places = dict(state.places)
    dy = float(rng.uniform(0.06, 0.11)) * (1 if rng.random() < 0.5 else -1)
    turn = float(rng.uniform(1.0, 3.0)) * (1 if rng.random() < 0.5 else -1)
    places[tile] = (x, y + dy, up + turn)
    return dataclasses.replace(state, places=places)


# ---------------------------------------------------------------------------------------------- playing


@dataclass
class _Seat:
    rack: list[int]
    opened: bool = False


class _Game:
    """The simulation's running state: pool, racks, table states and events."""

    def __init__(self, seed: int, players: int, rules: Rules, geometry: TableGeometry, rack_size: int,
                 solver_seconds: float | None) -> None:
        self.rng = np.random.default_rng(seed)
        self.rules = rules
        self.geometry = geometry
        self.solver_seconds = solver_seconds
        self.tiles = full_deck(rules)
        ids = [int(i) for i in self.rng.permutation(len(self.tiles))]
        self.seats = {
            s: _Seat(sorted(ids[(s - 1) * rack_size: s * rack_size])) for s in range(1, players + 1)
        }
        self.pool = ids[players * rack_size:]
        self.dealt = {s: list(seat.rack) for s, seat in self.seats.items()}
        self.states = [TableState()]
        self.events: list[ScriptEvent] = []

    @property
    def table(self) -> TableState:
        return self.states[-1]

    def faces(self, ids: Sequence[int]) -> list[Tile]:
        return [self.tiles[i] for i in ids]

    def table_faces(self) -> list[list[Tile]]:
        return [self.faces(s) for s in self.table.sets]

    def draw(self, seat: int) -> bool:
        if not self.pool:
            return False
        self.seats[seat].rack.append(self.pool.pop())
        return True

    def find_play(self, seat: int) -> Play | None:
        """A play from part of the rack (players seldom lay all they can), else from all of it; the seat
        draws tiles (unseen) until it has one. None when the pool runs dry first."""
        while True:
            rack = self.seats[seat].rack
            opened = self.seats[seat].opened
            tries = [rack]
            if len(rack) > 6:
                size = int(self.rng.integers(5, len(rack)))
                tries.insert(0, [rack[int(k)] for k in self.rng.choice(len(rack), size, replace=False)])
            for part in tries:
                play = solve(self.table_faces(), self.faces(part), self.rules, opened,
                             time_limit=self.solver_seconds)
                if play.placed:
                    return play
            if not self.draw(seat):
                return None

    def ids_for(self, sets: Sequence[Sequence[Tile]], rack: Sequence[int]) -> list[list[int]]:
        """Tile ids for a new table: each set takes the ids of its faces from the old set it shares most
        with, then from any table set, then from the rack (so tiles that stay keep their identity)."""
        old_sets = [list(s) for s in self.table.sets]
        free_table = Counter(i for s in old_sets for i in s)
        free_rack = list(rack)
        result: list[list[int] | None] = [None] * len(sets)
        exact = {tuple(self.faces(s)): k for k, s in enumerate(old_sets)}
        for n, s in enumerate(sets):
            k = exact.get(tuple(s))
            if k is not None and all(free_table[i] for i in old_sets[k]):
                result[n] = list(old_sets[k])
                for i in old_sets[k]:
                    free_table[i] -= 1
        for n, s in enumerate(sets):
            if result[n] is not None:
                continue
            overlap = [sum((Counter(self.faces([i for i in o if free_table[i]])) & Counter(s)).values())
                       for o in old_sets]
            order = sorted(range(len(old_sets)), key=lambda k: -overlap[k])
            chosen = []
            for face in s:
                pick = None
                for k in order:
                    pick = next((i for i in old_sets[k] if free_table[i] and self.tiles[i] == face), None)
                    if pick is not None:
                        break
                if pick is not None:
                    free_table[pick] -= 1
                else:
                    pick = next(i for i in free_rack if self.tiles[i] == face)
                    free_rack.remove(pick)
                chosen.append(pick)
            result[n] = chosen
        return [r for r in result if r is not None]

    def add_state(self, sets: Sequence[Sequence[int]]) -> int:
        self.states.append(lay_out(self.table, sets, self.geometry, self.rng))
        return len(self.states) - 1

    def focus(self, before: TableState, after: TableState) -> tuple[float, float]:
        """Where the hand works: the middle of the tiles that appear, go or move."""
        moved = [after.places[i] for i in after.places if before.places.get(i) != after.places[i]]
        moved += [before.places[i] for i in before.places if i not in after.places]
        if not moved:
            return self.somewhere()
        return float(np.mean([p[0] for p in moved])), float(np.mean([p[1] for p in moved]))

    def somewhere(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.geometry.bounds
        return float(self.rng.uniform(x0, x1)), float(self.rng.uniform(y0, y1))

    def turn_event(self, seat: int, state: int, kind: str, action: str, legal: bool, rack: list[int],
                   opened: bool) -> None:
        before = self.states[self.events[-1].state if self.events else 0]
        self.events.append(ScriptEvent(
            kind="turn", state=state, focus=self.focus(before, self.states[state]), from_seat=seat, seat=seat,
            turn_kind=kind, action=action, legal=legal, rack_before=list(rack), opened_before=opened,
        ))


def _opening_set_under(game: _Game, seat: int) -> list[int] | None:
    """Rack tiles forming one valid set worth less than the opening threshold, or None."""
    rack = game.seats[seat].rack
    play = solve([], game.faces(rack), game.rules, False, time_limit=game.solver_seconds, threshold=0)
    cheap = [s for s in play.new_sets if _set_value(s) < game.rules.opening_threshold]
    if not cheap:
        return None
    chosen = cheap[int(game.rng.integers(0, len(cheap)))]
    left = list(rack)
    ids = []
    for face in chosen:
        pick = next(i for i in left if game.tiles[i] == face)
        left.remove(pick)
        ids.append(pick)
    return ids


def _set_value(tiles: Sequence[Tile]) -> int:
    return check_set(tiles).value or 0


def _invalid_set(game: _Game, seat: int) -> list[int] | None:
    """Rack tiles laid as a set that is not one: two tiles, or a run with a tile of the wrong colour; None
    when the rack holds fewer than two tiles."""
    rack = game.seats[seat].rack
    rng = game.rng
    if len(rack) < 2:
        return None
    wrong_colour = []
    numbered = [i for i in rack if not game.tiles[i].is_joker]
    for a in numbered:
        for b in numbered:
            for c in numbered:
                ta, tb, tc = game.tiles[a], game.tiles[b], game.tiles[c]
                if ta.number + 1 == tb.number and tb.number + 1 == tc.number and len(
                    {ta.color, tb.color, tc.color}
                ) == 2:
                    wrong_colour.append([a, b, c])
    if wrong_colour and rng.random() < 0.5:
        return wrong_colour[int(rng.integers(0, len(wrong_colour)))]
    pairs = [[a, b] for a in numbered for b in numbered if a != b and (
        (game.tiles[a].color == game.tiles[b].color and game.tiles[a].number + 1 == game.tiles[b].number)
        or (game.tiles[a].number == game.tiles[b].number and game.tiles[a].color != game.tiles[b].color)
    )]
    if pairs:
        return pairs[int(rng.integers(0, len(pairs)))]
    picked = rng.choice(len(rack), 2, replace=False)
    return [rack[int(k)] for k in picked]


def _partial(game: _Game, seat: int, final: list[list[int]]) -> tuple[list[list[int]], str] | None:
    """An illegal table on the way to the legal `final` one, and why it is illegal: an opening with a set
    left out (worth less than the threshold), or a set missing one of its rack tiles (invalid)."""
    rng = game.rng
    before = Counter(game.table.ids())
    changed = [n for n, s in enumerate(final) if s not in game.table.sets]
    options: list[tuple[list[list[int]], str]] = []
    if not game.seats[seat].opened and len(changed) >= 2:
        for n in changed:
            rest = [s for m, s in enumerate(final) if m != n]
            value = sum(_set_value(game.faces(s)) for m, s in enumerate(final) if m != n and m in changed)
            if value < game.rules.opening_threshold:
                options.append((rest, "opening-under-threshold"))
    for n in changed:
        for pos, i in enumerate(final[n]):
            if before[i]:
                continue
            shorter = final[n][:pos] + final[n][pos + 1:]
            if not is_valid_set(game.faces(shorter), game.rules):
                options.append(([s if m != n else shorter for m, s in enumerate(final)], "invalid-set"))
    if not options:
        return None
    return options[int(rng.integers(0, len(options)))]


def simulate_game(
    seed: int,
    players: int = 2,
    turns: int = 8,
    rules: Rules = STANDARD,
    *,
    geometry: TableGeometry | None = None,
    opening_under: float = 0.2,
    invalid_set: float = 0.08,
    tile_taken: float = 0.08,
    mended: float = 0.1,
    no_change: float = 0.15,
    nudge: float = 0.15,
    rack_size: int = 14,
    start_rounds: int = 0,
    solver_seconds: float | None = None,
) -> GameScript:
    """A game of `turns` seat turns, seats in order from 1, deterministic per seed. The table starts empty,
    or after `start_rounds` rounds of legal plays made before the camera starts (a game joined midway).

    Each seat turn is a visible play found by the solver (a seat that has none draws, unseen, until it has
    one). With the given chances a turn is instead an illegal one put back by the same seat (an opening
    under the threshold, only before the seat has opened; an invalid set; a table tile taken back, only
    after), or an illegal table the seat then mends into its legal play. Before a turn a hand may pass
    and change nothing, or nudge a tile. The game ends early when a rack empties, the pool runs dry or the
    table has no room (`GameScript.ended`). `solver_seconds` limits each search; the default, no limit, keeps
    every play the proved optimum, so the game depends on the seed alone, not on the machine's speed (the
    longest search seen in 24 games of up to 60 turns took 0.45 s).

    Raises:
        ValueError: fewer players than the rules allow or more, a negative number of turns or rounds.
    """
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"players must be {rules.min_players}-{rules.max_players}, got {players}")
    if turns < 0 or start_rounds < 0:
        raise ValueError(f"turns and start rounds must be at least 0, got {turns} and {start_rounds}")
    if geometry is None:
        aspect = float(np.random.default_rng([seed, 1]).uniform(0.70, 0.78))
        geometry = TableGeometry(aspect=aspect)
    game = _Game(seed, players, rules, geometry, rack_size, solver_seconds)
    ended = "turns"
    try:
        _play_unseen(game, start_rounds)
        for turn in range(turns):
            seat = turn % players + 1
            _extra_hands(game, no_change, nudge)
            ended = _seat_turn(game, seat, opening_under, invalid_set, tile_taken, mended)
            if ended != "turns":
                break
    except TableFullError:
        ended = "table full"
        _truncate_unfinished(game)
    return GameScript(
        seed=seed, players=players, rules=rules, geometry=geometry, tiles=game.tiles, states=game.states,
        events=game.events, racks=game.dealt, ended=ended,
    )


def _play_unseen(game: _Game, rounds: int) -> None:
    """Rounds of legal plays before the video starts; their last table becomes the start (`states[0]`).
    Stops early should a seat go out (its rack then refills from the pool as it draws)."""
    if not rounds:
        return
    for _ in range(rounds):
        if any(_seat_turn(game, seat, 0.0, 0.0, 0.0, 0.0) != "turns" for seat in game.seats):
            break
    game.states = [game.table]
    game.events = []


def _truncate_unfinished(game: _Game) -> None:
    """After a failed turn: drop a trailing illegal turn whose put back or mend never came, and states no
    event points to."""
    if game.events and game.events[-1].kind == "turn" and game.events[-1].turn_kind in ILLEGAL_KINDS:
        game.events.pop()
    last = max((e.state for e in game.events), default=0)
    del game.states[last + 1:]


def _extra_hands(game: _Game, no_change: float, nudge: float) -> None:
    rng = game.rng
    players = len(game.seats)
    if rng.random() < no_change:
        game.events.append(ScriptEvent(
            kind="no-change", state=len(game.states) - 1, focus=game.somewhere(),
            from_seat=int(rng.integers(1, players + 1)),
        ))
    if game.table.sets and rng.random() < nudge:
        ids = game.table.ids()
        tile = ids[int(rng.integers(0, len(ids)))]
        game.states.append(nudged(game.table, tile, rng))
        x, y, _ = game.table.places[tile]
        game.events.append(ScriptEvent(
            kind="nudge", state=len(game.states) - 1, focus=(x, y),
            from_seat=int(rng.integers(1, players + 1)), tile=tile,
        ))


def _seat_turn(game: _Game, seat: int, opening_under: float, invalid_set: float, tile_taken: float,
               mended: float) -> str:
    """One seat's turn (events and states added); returns why the game ends, or "turns" to go on."""
    rng = game.rng
    player = game.seats[seat]
    rack, opened = list(player.rack), player.opened
    start = len(game.states) - 1
    roll = rng.random()
    illegal: tuple[list[list[int]], str] | None = None
    if roll < opening_under:
        cheap = None if opened else _opening_set_under(game, seat)
        if cheap is not None:
            illegal = ([*game.table.sets, cheap], "opening-under-threshold")
    elif roll < opening_under + invalid_set:
        wrong = _invalid_set(game, seat)
        if wrong is not None:
            illegal = ([*game.table.sets, wrong], "invalid-set")
    elif roll < opening_under + invalid_set + tile_taken:
        if opened and game.table.sets:
            illegal = (_one_tile_taken(game), "tile-taken")
    if illegal is not None:
        sets, kind = illegal
        game.turn_event(seat, game.add_state(sets), kind, "play", False, rack, opened)
        game.states.append(game.states[start])
        game.turn_event(seat, len(game.states) - 1, "put-back", "put back", True, rack, opened)
        return "turns"

    play = game.find_play(seat)
    if play is None:
        return "pool"
    rack = list(player.rack)  # with the tiles drawn unseen
    final = game.ids_for(play.table, rack)
    partial = _partial(game, seat, final) if rng.random() < mended else None
    if partial is not None:
        sets, kind = partial
        game.turn_event(seat, game.add_state(sets), kind, "play", False, rack, opened)
        game.turn_event(seat, game.add_state(final), "mended", "play", True, rack, opened)
    else:
        game.turn_event(seat, game.add_state(final), "legal", "play", True, rack, opened)
    on_table = set(game.table.ids())
    player.rack = [i for i in player.rack if i not in on_table]
    player.opened = True
    return "out" if not player.rack else "turns"


def _one_tile_taken(game: _Game) -> list[list[int]]:
    """The table with one tile taken back: the end of a set of four or more (it stays valid), else any."""
    rng = game.rng
    sets = [list(s) for s in game.table.sets]
    long_sets = [n for n, s in enumerate(sets) if len(s) >= 4]
    if long_sets:
        n = long_sets[int(rng.integers(0, len(long_sets)))]
        sets[n] = sets[n][1:] if rng.random() < 0.5 else sets[n][:-1]
    else:
        n = int(rng.integers(0, len(sets)))
        del sets[n][int(rng.integers(0, len(sets[n])))]
    return [s for s in sets if s]


def table_bounds(script: GameScript) -> tuple[float, float, float, float]:
    """(x_min, y_min, x_max, y_max) of the table area, with a tile's margin around the rows."""
    x0, y0, x1, y1 = script.geometry.bounds
    return x0 - 0.6, y0 - 0.6, x1 + 0.6, y1 + 0.6


def reach(script: GameScript) -> float:
    """The table area's diagonal (world units)."""
    x0, y0, x1, y1 = table_bounds(script)
    return math.hypot(x1 - x0, y1 - y0)
