"""Move solver: the play that places the most rack tiles, and "could this rack have opened?".

An exact integer programme after den Hertog & Hulshof (2006), "Solving Rummikub problems by integer linear
programming", The Computer Journal 49(6): the programme chooses how often each valid set is laid out and
which rack tiles are placed, so that every table tile is used again (opened player), or only rack tiles
form new sets worth the opening threshold (player not yet opened, 000_*.txt section 3). The LP relaxation
(HiGHS) settles most positions; a small branch and bound over it, and past a node budget HiGHS's own
branch and cut, the rest (`_Programme.solve`). The optimum is proved, or the play says the time limit
came first.

Sets are written as templates of real faces (runs of three to five tiles, groups of three or four); a joker
stands in for one face of one laid-out copy, worth that face. Longer runs are not needed: any run of six or
more splits into runs of three to five that keep every joker at its place and value. With two jokers no
piece can be all jokers; with four (160-tile edition, 002_*.txt) a piece of three or four jokers is itself a
set that `assistant.sets` accepts, worth at least as much alone, so it is one more column.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import os
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

import numpy as np

from assistant.errors import InputError
from assistant.supply import SupplyError, check_supply
from assistant.tiles import COLORS, JOKER, NUMBERS, Tile

Objective = Literal["tiles", "value"]
OBJECTIVES: tuple[Objective, ...] = ("tiles", "value")

JOKER_TYPE = 52
TILE_TYPES = 53
_RUN_LENGTHS = (3, 4, 5)
# Sets of jokers only (160-tile edition): `assistant.sets` accepts them, worth their best reading.
_ALL_JOKER_SIZES = (3, 4)


class Edition(Protocol):
    """What the solver reads from `assistant.rules.Rules`."""

    @property
    def copies(self) -> int: ...

    @property
    def jokers(self) -> int: ...

    @property
    def opening_threshold(self) -> int: ...


class SolverInputError(InputError):
    """A position the solver cannot work on: more copies than the edition has, an unusable table."""


def type_index(tile: Tile) -> int:
    """0-51 for the faces (colour-major, as `assistant.tiles.ALL_FACES`), 52 for the joker."""
    if tile.color is None:
        return JOKER_TYPE
    return COLORS.index(tile.color) * 13 + (tile.number or 0) - 1


def tile_of_type(index: int) -> Tile:
    if index == JOKER_TYPE:
        return JOKER
    return Tile(COLORS[index // 13], index % 13 + 1)


@dataclass(frozen=True)
class Template:
    """A valid set written with real faces only: a run of three to five tiles, or a group.

    The programme lays a template out as it is or with jokers in some of its places; a joker in a
    template stands for the face it replaces, so the laid-out set is worth `value` either way.
    """

    kind: Literal["run", "group"]
    faces: tuple[Tile, ...]
    types: tuple[int, ...]

    @functools.cached_property
    def value(self) -> int:
        return sum(t.points for t in self.faces)

    def layout(self, joker_places: Iterable[int]) -> tuple[Tile, ...]:
        places = set(joker_places)
        return tuple(JOKER if i in places else f for i, f in enumerate(self.faces))


@functools.lru_cache(maxsize=1)
def templates() -> tuple[Template, ...]:
    """Runs of three to five tiles and groups of three or four (see the module docstring)."""
    found: list[Template] = []
    for color in COLORS:
        for length in _RUN_LENGTHS:
            for start in range(1, 15 - length):
                faces = tuple(Tile(color, n) for n in range(start, start + length))
                found.append(Template("run", faces, tuple(type_index(f) for f in faces)))
    for number in NUMBERS:
        for size in (3, 4):
            for colors in itertools.combinations(COLORS, size):
                faces = tuple(Tile(c, number) for c in colors)
                found.append(Template("group", faces, tuple(type_index(f) for f in faces)))
    return tuple(found)


@dataclass(frozen=True)
class Reading:
    """A set laid out in physical order, with the face each of its tiles stands for."""

    kind: Literal["run", "group"]
    layout: tuple[Tile, ...]
    stands_for: tuple[Tile, ...]

    @property
    def value(self) -> int:
        return sum(t.points for t in self.stands_for)

    @property
    def joker_values(self) -> tuple[int, ...]:
        """Values of the joker places, highest first."""
        slots = (s.points for t, s in zip(self.layout, self.stands_for, strict=True) if t.is_joker)
        return tuple(sorted(slots, reverse=True))


def best_reading(tiles: Sequence[Tile]) -> Reading | None:
    """The physical order of these tiles worth most (a run wins a tie, as in `assistant.sets`).

    Only the order of jokers matters: with one real tile, `r5 J J` (red 5-6-7) is worth more than
    `J J r5` or a group of 5s. None when the tiles form no valid set.
    """
    options = _readings(tiles)
    if not options:
        return None
    return max(options, key=lambda r: (r.value, r.kind == "run", r.joker_values))


def is_valid_layout(tiles: Sequence[Tile]) -> bool:
    """Are these tiles, in this physical order, a valid set? (a group in any order, a run in order)

    The same answer as "some reading of these tiles is a group, or a run laid out in this order"
    (`_readings`), without building the readings: it runs for every table set of every solve.
    """
    size = len(tiles)
    if size < 3:
        return False
    real = [(place, tile) for place, tile in enumerate(tiles) if not tile.is_joker]
    if not real:
        return size in _ALL_JOKER_SIZES
    colors = {tile.color for _, tile in real}
    numbers = {tile.number for _, tile in real}
    if len(numbers) == 1 and len(colors) == len(real) and size <= len(COLORS):
        return True  # a group, in any order
    if len(colors) != 1 or len(numbers) != len(real):
        return False
    # A run in this order: every real tile sits where its number says, the first place at 1 or above
    # and the last at 13 or below.
    starts = {(tile.number or 0) - place for place, tile in real}
    return len(starts) == 1 and 1 <= starts.pop() <= 14 - size


def _readings(tiles: Sequence[Tile]) -> list[Reading]:
    """Every way to read these tiles as a set, each with its layout (real tiles sorted for a group)."""
    real = sorted(t for t in tiles if not t.is_joker)
    jokers = len(tiles) - len(real)
    size = len(tiles)
    if size < 3:
        return []
    if not real:
        return [_all_joker_reading(size)] if size in _ALL_JOKER_SIZES else []
    options: list[Reading] = []
    numbers = {t.number for t in real}
    colors = [t.color for t in real]
    if len(numbers) == 1 and len(set(colors)) == len(colors) and size <= len(COLORS):
        number = real[0].number or 0
        spare = [c for c in COLORS if c not in colors][:jokers]
        layout = tuple(real) + (JOKER,) * jokers
        options.append(Reading("group", layout, tuple(real) + tuple(Tile(c, number) for c in spare)))
    if len(set(colors)) == 1 and len(numbers) == len(real):
        color = real[0].color
        low, high = min(numbers), max(numbers)
        for start in range(max(1, high - size + 1), min(low, 14 - size) + 1):
            faces = tuple(Tile(color, n) for n in range(start, start + size))
            layout = tuple(f if f.number in numbers else JOKER for f in faces)
            options.append(Reading("run", layout, faces))
    return options


def _all_joker_reading(size: int) -> Reading:
    """Jokers alone read best as a group of 13s (`assistant.sets` values them so)."""
    return Reading("group", (JOKER,) * size, tuple(Tile(c, 13) for c in COLORS[:size]))


@dataclass(frozen=True)
class Play:
    """What the solver found.

    `table` is the whole table after the play, in physical order; `placed` the rack tiles laid out;
    `value` their value, each joker counted as the tile it stands for (when the table already held
    jokers, the rack's jokers are taken to be the ones in the slots worth most). `optimal` is False
    when the time limit came before the optimum was proved; `message` then says so. `new_sets` are
    the opening meld's sets (not opened only; the table's own sets come first in `table`).
    """

    placed: tuple[Tile, ...]
    table: tuple[tuple[Tile, ...], ...]
    value: int
    opened: bool
    optimal: bool = True
    message: str = ""
    seconds: float = 0.0
    new_sets: tuple[tuple[Tile, ...], ...] = field(default=())

    @property
    def tiles(self) -> int:
        return len(self.placed)

    @property
    def is_draw(self) -> bool:
        return not self.placed


def _counts(tiles: Iterable[Tile]) -> list[int]:
    counts = [0] * TILE_TYPES
    for tile in tiles:
        counts[type_index(tile)] += 1
    return counts


def _check_supply(table_counts: Sequence[int], rack_counts: Sequence[int], rules: Edition) -> None:
    """The one supply check (`assistant.supply`), raised as the solver's input error."""
    held = [tile_of_type(t) for t in range(TILE_TYPES) for _ in range(table_counts[t] + rack_counts[t])]
    try:
        check_supply(held, rules)  # type: ignore[arg-type]  # a `Rules` in practice
    except SupplyError as error:
        raise SolverInputError(str(error)) from None


def _new_highs(time_limit: float | None):  # noqa: ANN202 - a HiGHS handle; highspy ships no stubs for it
    """A new silent HiGHS instance set up to prove optimality of whole-number objectives.

    New for every programme: HiGHS's clock runs from the instance's creation, and its time limit is
    checked against that clock (across runs), so one kept between solves would time out for good.
    """
    import highspy

    highs = _make_highs(highspy)
    if time_limit is not None:
        highs.setOptionValue("time_limit", float(time_limit))
    return highs, highspy


def _make_highs(highspy):  # noqa: ANN001, ANN202 - the module and a HiGHS handle
    try:
        # The bare pybind class: `highspy.Highs()` prints a banner on stdout, which would break `--json`.
        from highspy._core import _Highs as highs_class
    except ImportError:  # a later highspy: fall back to the public class, silenced at the descriptor
        highs_class = None
    if highs_class is not None:
        highs = highs_class()
    else:
        sys.stdout.flush()
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as devnull:
                os.dup2(devnull.fileno(), 1)
                highs = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("threads", 1)
    # Optimal objectives are whole numbers: a gap below 1 proves optimality; the default relative gap
    # would not. A little more heuristic effort than the default finds the optimum sooner here.
    highs.setOptionValue("mip_rel_gap", 0.0)
    highs.setOptionValue("mip_abs_gap", 0.99)
    highs.setOptionValue("mip_heuristic_effort", 0.2)
    # Without presolve and the feasibility-jump heuristic HiGHS proves these small programmes at the
    # root two to three times sooner (measured on the benchmark positions).
    highs.setOptionValue("presolve", "off")
    highs.setOptionValue("mip_heuristic_run_feasibility_jump", False)
    return highs


@dataclass(frozen=True)
class _Search:
    """What one branch and bound found: the best whole solution (None: none), whether it finished."""

    best: list[float] | None
    finished: bool
    nodes: int


@dataclass
class _Programme:
    """A maximising integer programme, built column by column, with a lexicographic objective.

    Each column adds to three whole-number levels (tiles, points, table sets kept); `order` says which
    level comes first, second and third, and `weights` make the single objective strictly lexicographic.
    """

    weights: tuple[float, float, float]
    order: tuple[int, int, int]
    n_rows: int = 0
    costs: list[float] = field(default_factory=list)
    levels: list[tuple[float, float, float]] = field(default_factory=list)
    upper: list[float] = field(default_factory=list)
    integer: list[bool] = field(default_factory=list)
    columns: list[list[tuple[int, float]]] = field(default_factory=list)
    row_lower: list[float] = field(default_factory=list)
    row_upper: list[float] = field(default_factory=list)

    def add_row(self, lower: float, upper: float) -> int:
        self.row_lower.append(lower)
        self.row_upper.append(upper)
        self.n_rows += 1
        return self.n_rows - 1

    def add_column(
        self,
        worth: tuple[float, float, float],
        upper: float,
        entries: Iterable[tuple[int, float]],
        integer: bool,
    ) -> int:
        """A column worth (tiles, points, sets kept) per unit, at most `upper`."""
        first, second, third = self.order
        levels = (worth[first], worth[second], worth[third])
        self.levels.append(levels)
        weights = self.weights
        self.costs.append(weights[0] * levels[0] + weights[1] * levels[1] + weights[2] * levels[2])
        self.upper.append(upper)
        self.integer.append(integer)
        self.columns.append(list(entries))
        return len(self.costs) - 1

    def add_entry(self, col: int, row: int, coef: float) -> None:
        self.columns[col].append((row, coef))

    def solve(self, time_limit: float | None) -> tuple[list[float] | None, bool]:
        """Return (column values, or None when no solution is known; whether that is proved).

        The LP relaxation first: when its optimum is whole, that is the optimum (most positions). Else
        the first level is held at the whole part of its LP value, which no whole solution exceeds, and
        a small depth-first branch and bound over the warm-started LP finds and proves the best whole
        solution there; when it proves there is none, one more search with the level at most one lower
        settles it. HiGHS's own branch and cut, whose root work alone costs more than all that, runs
        only past a node budget.
        """
        started = time.perf_counter()
        highs, core = _new_highs(time_limit)
        statuses = core.HighsModelStatus
        n_cols = len(self.costs)
        starts = list(itertools.accumulate(map(len, self.columns), initial=0))
        rows = [row for entries in self.columns for row, _ in entries]
        coefs = [coef for entries in self.columns for _, coef in entries]
        lp = core.HighsLp()
        lp.num_col_ = n_cols
        lp.num_row_ = self.n_rows
        lp.col_cost_ = self.costs
        lp.col_lower_ = [0.0] * n_cols
        lp.col_upper_ = self.upper
        lp.row_lower_ = self.row_lower
        lp.row_upper_ = self.row_upper
        lp.a_matrix_.format_ = core.MatrixFormat.kColwise
        lp.a_matrix_.start_ = starts
        lp.a_matrix_.index_ = rows
        lp.a_matrix_.value_ = coefs
        lp.sense_ = core.ObjSense.kMaximize
        highs.passModel(lp)
        highs.run()
        status = highs.getModelStatus()
        if status == statuses.kInfeasible:
            return None, True  # no fractional solution, so no whole one
        incumbent: list[float] | None = None
        bound = _INF
        level_row = -1
        held = True  # the level row holds the first level at `bound` (else: at most `bound`)
        if status == statuses.kOptimal:
            values = list(highs.getSolution().col_value)
            whole = self._whole(values)
            if whole is not None:
                return whole, True
            indices = [j for j, worth in enumerate(self.levels) if worth[0]]
            # Rounded generously: a bound a little high only costs a search, one too low loses plays.
            reached = sum(values[j] * self.levels[j][0] for j in indices)
            bound = float(math.floor(reached + _LEVEL_TOLERANCE))
            highs.addRow(
                bound,
                bound,
                len(indices),
                np.array(indices, dtype=np.int32),
                np.array([self.levels[j][0] for j in indices], dtype=np.float64),
            )
            level_row = highs.getNumRow() - 1
            deadline = _INF if time_limit is None else started + time_limit
            search = self._branch_and_bound(highs, statuses, _NODE_BUDGET, deadline)
            if search.finished and search.best is not None:
                return search.best, True
            if search.finished:
                # No whole solution reaches the bound: every one is at least one lower (levels are
                # whole and never negative). One search with the level at most that settles the rest.
                if bound < 1:
                    return None, True
                bound -= 1.0
                highs.changeRowBounds(level_row, -_INF, bound)
                held = False
                search = self._branch_and_bound(highs, statuses, _NODE_BUDGET - search.nodes, deadline)
                if search.finished:
                    return search.best, True
            incumbent = search.best
        return self._branch_and_cut(highs, core, level_row, bound, incumbent, held)

    def _branch_and_bound(
        self,
        highs,  # noqa: ANN001 - HiGHS
        statuses,  # noqa: ANN001 - highspy
        node_budget: int,
        deadline: float,
    ) -> _Search:
        """Depth first over the LP: the best whole solution, if any; whether the search finished.

        The objective is whole on whole solutions, so a node whose LP optimum rounds down to the
        incumbent's value or below holds nothing better. Branches on the fractional column that weighs
        most in the objective, the side its value is nearer first.
        """
        best: list[float] | None = None
        best_value = -_INF
        stack: list[dict[int, tuple[float, float]]] = [{}]
        applied: dict[int, tuple[float, float]] = {}
        nodes = 0
        finished = True
        while stack:
            if nodes >= node_budget or time.perf_counter() > deadline:
                finished = False
                break
            node = stack.pop()
            for j in applied:
                if j not in node:
                    highs.changeColBounds(j, 0.0, self.upper[j])
            for j, col_bounds in node.items():
                if applied.get(j) != col_bounds:
                    highs.changeColBounds(j, *col_bounds)
            applied = node
            highs.run()
            nodes += 1
            status = highs.getModelStatus()
            if status == statuses.kInfeasible:
                continue
            if status != statuses.kOptimal:  # the time limit: the search is cut short, nothing proved
                finished = False
                break
            bound_here = highs.getInfo().objective_function_value
            # Objectives reach 10^5 and more, so the LP's own error is relative: cut only what is
            # clearly below the next whole value.
            if math.floor(bound_here + _TOLERANCE * max(1.0, abs(bound_here))) <= best_value:
                continue
            values = list(highs.getSolution().col_value)
            branch = self._branch_column(values)
            if branch < 0:
                best = self._whole(values)
                best_value = round(sum(c * v for c, v in zip(self.costs, best, strict=True)))  # type: ignore[arg-type]
                continue
            value = values[branch]
            low, high = node.get(branch, (0.0, self.upper[branch]))
            down = {**node, branch: (low, float(math.floor(value)))}
            up = {**node, branch: (float(math.ceil(value)), high)}
            stack.extend((down, up) if value - math.floor(value) >= 0.5 else (up, down))
        for j in applied:
            highs.changeColBounds(j, 0.0, self.upper[j])
        return _Search(best, finished, nodes)

    def _branch_column(self, values: list[float]) -> int:
        """The fractional column to branch on, -1 when there is none.

        Columns worth tiles or points come before the table sets kept and the set counts, the most
        fractional first: measured on the benchmark positions, the searches stay under 160 nodes
        where branching on the heaviest column alone took up to 1400.
        """
        branch = -1
        best_key = (False, 0.0, 0.0)
        for j, integer in enumerate(self.integer):
            if not integer:
                continue
            fraction = abs(values[j] - round(values[j]))
            if fraction <= _TOLERANCE:
                continue
            weight = abs(self.costs[j])
            key = (weight > 1.0, fraction, weight)
            if branch < 0 or key > best_key:
                branch, best_key = j, key
        return branch

    def _branch_and_cut(
        self,
        highs,  # noqa: ANN001 - HiGHS
        core,  # noqa: ANN001 - highspy
        level_row: int,
        bound: float,
        incumbent: list[float] | None,
        held: bool,
    ) -> tuple[list[float] | None, bool]:
        """HiGHS's branch and cut, the first level at most `bound` (held there when `held` and the
        incumbent proves it reachable)."""
        statuses = core.HighsModelStatus
        n_cols = len(self.upper)
        if level_row >= 0:
            highs.changeRowBounds(level_row, bound if held and incumbent is not None else -_INF, bound)
        kinds = core.HighsVarType
        everything = np.arange(n_cols, dtype=np.int32)
        highs.changeColsIntegrality(
            n_cols,
            everything,
            np.array([int(kinds.kInteger if i else kinds.kContinuous) for i in self.integer], dtype=np.uint8),
        )
        if incumbent is not None:
            start = core.HighsSolution()  # (the sparse overload is missing from older highspy)
            start.col_value = incumbent
            highs.setSolution(start)
        highs.run()  # HiGHS's clock started with the instance, so its time limit covers all before too
        status = highs.getModelStatus()
        if status == statuses.kOptimal:
            return list(highs.getSolution().col_value), True
        if status == statuses.kInfeasible:
            return None, True
        if status == statuses.kTimeLimit:
            if highs.getInfo().primal_solution_status == _FEASIBLE_POINT:
                return list(highs.getSolution().col_value), False
            return incumbent, False
        raise RuntimeError(f"HiGHS stopped with status {highs.modelStatusToString(status)}")

    def _whole(self, values: list[float]) -> list[float] | None:
        """The solution with its integer columns rounded, when they are all whole already."""
        rounded = list(values)
        for j, integer in enumerate(self.integer):
            if integer:
                near = round(values[j])
                if abs(values[j] - near) > _TOLERANCE:
                    return None
                rounded[j] = float(near)
        return rounded


_TOLERANCE = 1e-6
# How far below a whole number an LP level may fall and still count as reaching it (primal errors of
# about 1e-7 on a few hundred columns).
_LEVEL_TOLERANCE = 1e-4
# LP solves the own branch and bound may spend before HiGHS's branch and cut takes over. On 900
# benchmark positions the searches needed a median of 5 nodes and at most 159.
_NODE_BUDGET = 150
_FEASIBLE_POINT = 2  # HiGHS SolutionStatus kSolutionStatusFeasible


def _timeout_message(time_limit: float | None) -> str:
    return (
        f"time limit of {time_limit:g} s reached before the best play was proved; "
        "this is the best play found so far"
    )


def solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    rules: Edition,
    opened: bool,
    maximize: Objective = "tiles",
    time_limit: float | None = 10.0,
    threshold: int | None = None,
) -> Play:
    """Find the play that places the most rack tiles (ties: most value), or the most value.

    An opened player may rearrange the whole table; a player who has not opened may only lay new sets
    from the rack worth at least the opening threshold (`threshold`, default `rules.opening_threshold`),
    and the table stays as it was (000_*.txt section 3, 004_*.txt).

    Raises:
        SolverInputError: table and rack hold more copies of a tile than the edition has, an opened
            player's table cannot be arranged into valid sets, or `maximize` is unknown.
    """
    if maximize not in OBJECTIVES:
        raise SolverInputError(f"unknown objective {maximize!r} (use 'tiles' or 'value')")
    started = time.perf_counter()
    table_counts = _counts(t for s in table for t in s)
    rack_counts = _counts(rack)
    _check_supply(table_counts, rack_counts, rules)
    if not opened:
        table_counts = [0] * TILE_TYPES
    goal = rules.opening_threshold if threshold is None else threshold
    keep = [tuple(s) for s in table if is_valid_layout(s)] if opened else []
    model = _Model(table_counts, rack_counts, rules, maximize, None if opened else goal, keep)
    values, proved = model.solve(time_limit)
    message = "" if proved else _timeout_message(time_limit)
    unchanged = tuple(tuple(s) for s in table)
    if values is None:
        if opened and proved:
            raise SolverInputError(
                "the table cannot be arranged into valid sets: "
                + " | ".join(" ".join(str(t) for t in s) for s in table)
            )
        if not proved:
            message = f"time limit of {time_limit:g} s reached before any play was found; draw a tile"
        play = Play((), unchanged, 0, opened, proved, message)
    else:
        kept, laid_out, placed = model.read(values)
        sets = [_best_layout(s) for s in laid_out]
        if not opened:
            placed = [t for s in sets for t in s]
        if not placed:
            # Nothing to place: the player draws and the table stays exactly as it was.
            play = Play((), unchanged, 0, opened, proved, message)
        elif opened:
            value = sum(t.points for t in placed) + _top_joker_values(sets, placed.count(JOKER))
            new_table = _keep_table_order(table, kept + sets)
            play = Play(tuple(placed), tuple(new_table), value, True, proved, message)
        else:
            value = sum(_reading(s).value for s in sets)
            new_sets = tuple(sets)
            play = Play(tuple(placed), unchanged + new_sets, value, False, proved, message, new_sets=new_sets)
    return dataclasses.replace(play, seconds=time.perf_counter() - started)


def _objective(
    rack_counts: Sequence[int], maximize: Objective, table_sets: int
) -> tuple[tuple[float, float, float], tuple[int, int, int]]:
    """(weights of the first, second and third level; which of tiles, points, sets kept each is).

    The orders are strict: tiles (or points) first, then points (or tiles), then table sets left
    untouched, each worth 1.
    """
    most_points = sum(rack_counts[t] * (t % 13 + 1 if t != JOKER_TYPE else 13) for t in range(TILE_TYPES))
    most_tiles = sum(rack_counts)
    scale = float(table_sets + 1)
    if maximize == "tiles":
        return ((most_points + 1) * scale, scale, 1.0), (0, 1, 2)
    return ((most_tiles + 1) * scale, scale, 1.0), (1, 0, 2)


def _reading(tiles: tuple[Tile, ...]) -> Reading:
    reading = best_reading(tiles)
    if reading is None:  # the programme only lays out valid sets
        raise AssertionError(f"solver produced an invalid set: {tiles}")
    return reading


def _best_layout(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """Lay a set with jokers out in the order worth most, the one `assistant.sets` reads."""
    if not any(t.is_joker for t in tiles):
        return tiles
    return _reading(tiles).layout


def _top_joker_values(sets: Iterable[tuple[Tile, ...]], rack_jokers: int) -> int:
    if not rack_jokers:
        return 0
    slots = sorted((v for s in sets for v in _reading(s).joker_values), reverse=True)
    return sum(slots[:rack_jokers])


class _Model:
    """The integer programme for one position (den Hertog & Hulshof's, with jokers as stand-ins).

    Columns: x[s], how often template s is laid out; w[t], how many laid-out copies of face t are
    jokers standing in for it; a[k], sets made of k jokers only; y[t], rack tiles of type t placed.
    Rows: for each face, copies laid out - jokers standing in = table copies + placed copies; jokers
    laid out = table jokers + rack jokers placed. When both the table and the rack hold jokers,
    r[t] <= w[t] (and r* <= jokers in all-joker sets) mark the places the rack's jokers take, for the
    value. Not opened: no table, laid out <= rack, and the sets laid out must reach the threshold.
    Any w is realisable: w[t] <= copies of t laid out, so each of those jokers replaces t in its own copy.
    """

    def __init__(
        self,
        table_counts: list[int],
        rack_counts: list[int],
        rules: Edition,
        maximize: Objective,
        threshold: int | None,
        keep: Sequence[tuple[Tile, ...]] = (),
    ) -> None:
        weights, order = _objective(rack_counts, maximize, len(keep))
        self.prog = prog = _Programme(weights, order)
        available = [a + b for a, b in zip(table_counts, rack_counts, strict=True)]
        jokers = available[JOKER_TYPE]
        table_jokers = table_counts[JOKER_TYPE]
        rack_jokers = rack_counts[JOKER_TYPE]
        opening = threshold is not None
        self.table_tiles = sum(table_counts)

        usable = []
        for template in templates():
            missing = 0
            for t in template.types:
                if not available[t]:
                    missing += 1
            if missing <= jokers and missing < len(template.types):
                usable.append(template)
        face_rows: dict[int, int] = {}
        for template in usable:
            for t in template.types:
                if t not in face_rows:
                    if opening:  # 0 <= laid out <= rack
                        face_rows[t] = prog.add_row(0.0, rack_counts[t])
                    else:  # laid out - placed == table
                        face_rows[t] = prog.add_row(table_counts[t], table_counts[t])
        joker_row = -1
        if jokers:
            low, high = (0, rack_jokers) if opening else (table_jokers, table_jokers)
            joker_row = prog.add_row(low, high)
        # Opened with the rack's jokers only: every joker laid out is the rack's, worth its face.
        # With jokers on both sides, the rack's are marked separately (rack_joker_row).
        jokers_are_rack = rack_jokers > 0 and table_jokers == 0 and not opening
        rack_joker_row = prog.add_row(0.0, 0.0) if rack_jokers and table_jokers and not opening else -1
        value_row = prog.add_row(float(threshold), _INF) if opening and threshold else -1
        most_copies = rules.copies + rules.jokers // 3

        self.set_columns: list[tuple[int, Template]] = []
        for template in usable:
            worth = (len(template.types), template.value, 0) if opening else (0, 0, 0)
            entries = [(face_rows[t], 1.0) for t in template.types]
            if value_row >= 0:
                entries.append((value_row, float(template.value)))
            self.set_columns.append((prog.add_column(worth, most_copies, entries, integer=True), template))
        self.joker_columns: list[tuple[int, int]] = []
        if jokers:
            for t, row in face_rows.items():
                points = t % 13 + 1
                worth = (0, points if jokers_are_rack else 0, 0)
                w = prog.add_column(worth, jokers, [(row, -1.0), (joker_row, 1.0)], integer=True)
                self.joker_columns.append((w, t))
                if rack_joker_row >= 0:
                    self._rack_joker_column(w, 1.0, points, rack_joker_row, rack_jokers)
        self.all_joker_columns: list[tuple[int, int]] = []
        for size in _ALL_JOKER_SIZES:
            if size <= jokers:
                value = _all_joker_reading(size).value
                worth = (size, value, 0) if opening else (0, value if jokers_are_rack else 0, 0)
                entries = [(joker_row, float(size))]
                if value_row >= 0:
                    entries.append((value_row, float(value)))
                a = prog.add_column(worth, jokers // size, entries, integer=True)
                self.all_joker_columns.append((a, size))
                if rack_joker_row >= 0:
                    self._rack_joker_column(a, float(size), 13, rack_joker_row, rack_jokers)
        # The table's own sets, laid out as they are: worth 1 each, so a play disturbs the table least.
        self.kept_columns: list[tuple[int, tuple[Tile, ...]]] = []
        for old in keep:
            counts = _counts(old)
            entries = [(face_rows.get(t, -1), float(n)) for t, n in enumerate(counts[:JOKER_TYPE]) if n]
            if counts[JOKER_TYPE]:
                entries.append((joker_row, float(counts[JOKER_TYPE])))
            if all(t in face_rows for t, n in enumerate(counts[:JOKER_TYPE]) if n):
                self.kept_columns.append((prog.add_column((0, 0, 1), 1.0, entries, integer=True), old))
        self.placed_columns: list[tuple[int, int]] = []
        if not opening:
            for t, row in face_rows.items():
                if rack_counts[t]:
                    worth = (1, t % 13 + 1, 0)
                    col = prog.add_column(worth, rack_counts[t], [(row, -1.0)], integer=True)
                    self.placed_columns.append((col, t))
            if rack_jokers:
                entries = [(joker_row, -1.0)]
                if rack_joker_row >= 0:
                    entries.append((rack_joker_row, -1.0))
                col = prog.add_column((1, 0, 0), rack_jokers, entries, integer=True)
                self.placed_columns.append((col, JOKER_TYPE))

    def _rack_joker_column(
        self, jokers_col: int, per_unit: float, points: int, total_row: int, most: int
    ) -> None:
        """r <= per_unit * jokers_col: how many of these jokers are the rack's, worth `points` each."""
        link = self.prog.add_row(-_INF, 0.0)
        self.prog.add_entry(jokers_col, link, -per_unit)
        self.prog.add_column((0, points, 0), most, [(link, 1.0), (total_row, 1.0)], integer=False)

    def solve(self, time_limit: float | None) -> tuple[list[float] | None, bool]:
        if not self.set_columns and not self.all_joker_columns and not self.kept_columns:
            # No set can be laid out: fine for an empty table (nothing placed), impossible otherwise.
            return (None if self.table_tiles else [0.0] * len(self.prog.costs)), True
        return self.prog.solve(time_limit)

    def read(self, values: list[float]) -> tuple[list[tuple[Tile, ...]], list[tuple[Tile, ...]], list[Tile]]:
        """(table sets kept as they were, other sets laid out, rack tiles placed) from a solution."""
        kept = [old for col, old in self.kept_columns if round(values[col])]
        copies: list[Template] = []
        for col, template in self.set_columns:
            copies.extend([template] * round(values[col]))
        joker_places: list[set[int]] = [set() for _ in copies]
        for col, t in self.joker_columns:
            if not round(values[col]):
                continue
            holders = [i for i, template in enumerate(copies) if t in template.types]
            # Jokers go to the copies holding fewest jokers so far, so sets keep their real tiles.
            holders.sort(key=lambda i: len(joker_places[i]))
            for i in holders[: round(values[col])]:
                joker_places[i].add(copies[i].types.index(t))
        sets = [template.layout(places) for template, places in zip(copies, joker_places, strict=True)]
        for col, size in self.all_joker_columns:
            sets.extend([(JOKER,) * size] * round(values[col]))

        placed: list[Tile] = []
        for col, t in self.placed_columns:
            placed.extend([tile_of_type(t)] * round(values[col]))
        return kept, sets, placed


_INF = float("inf")


def _keep_table_order(
    table: Sequence[Sequence[Tile]], new_sets: list[tuple[Tile, ...]]
) -> list[tuple[Tile, ...]]:
    """Sets that match an original set (as a multiset) come first, in their original order and layout."""
    by_key: dict[tuple[Tile, ...], list[tuple[Tile, ...]]] = {}
    for s in new_sets:
        by_key.setdefault(tuple(sorted(s)), []).append(s)
    kept: list[tuple[Tile, ...]] = []
    for old in table:
        matching = by_key.get(tuple(sorted(old)))
        if matching:
            matching.pop()
            kept.append(tuple(old))
    return kept + [s for sets in by_key.values() for s in sets]


def best_opening_value(rack: Sequence[Tile], rules: Edition, time_limit: float | None = 10.0) -> int:
    """The most points this rack can lay out as new sets (0 when it holds no set at all)."""
    play = solve([], rack, rules, opened=False, maximize="value", time_limit=time_limit, threshold=0)
    return play.value


def can_open(rack: Sequence[Tile], rules: Edition, threshold: int | None = None) -> bool:
    """Could this rack make the opening meld (new sets from the rack worth at least the threshold)?

    The tournament preset charges 100 points when it could not and 200 when it could (004_*.txt).
    """
    goal = rules.opening_threshold if threshold is None else threshold
    play = solve([], rack, rules, opened=False, maximize="tiles", threshold=goal)
    return bool(play.placed)
