"""Side-by-side benchmark: `assistant.solver` against the PyPI package `rummikub-solver` (the peer).

The peer runs in its own virtual environment through `benchmarks/peer_driver.py`, one long-lived
process per MILP backend (`--peer-backends`, default GLPK_MI and HIGHS); every solver sees the same
positions in one run, one after the other per position, so the machine load is shared. Times are
in-process and warmed (`--warm-up` positions first, untimed); the ratio is taken against the peer's
fastest backend by median. `--baseline-solver` times an earlier `assistant/solver.py` on the same
positions too, so before and after come from one run.

Positions: a table of 0-80 tiles made of valid sets (runs of 3-8, groups, some jokers) and a rack of
1-30 tiles drawn from what is left, standard (106 tiles) and six-player (160 tiles) editions, 75 %
opened (`--table-tiles`, `--rack-tiles`, `--opened-share` change the mix).

Every play of ours is checked by the turn judge. Where the tile counts differ, the peer's play is judged
by the rules: laid out in physical order and given to `judge_turn` (opened), or, for a player who has not
opened, checked to be new sets from the rack alone worth the threshold (000_*.txt section 3).

    python3 -m venv /tmp/peer-venv
    /tmp/peer-venv/bin/pip install rummikub-solver==1.0.0 cvxopt highspy    # GLPK_MI, HIGHS backends
    git show REV:assistant/solver.py > /tmp/solver_before.py                 # optional
    nice -n 19 .venv/bin/python benchmarks/bench_solver.py --positions 120 --seed 2026 \
        --peer-python /tmp/peer-venv/bin/python --baseline-solver /tmp/solver_before.py
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.rules import Rules, find_preset  # noqa: E402
from assistant.solver import JOKER_TYPE, Play, best_reading, solve, tile_of_type, type_index  # noqa: E402
from assistant.tiles import (  # noqa: E402
    COLORS,
    JOKER,
    Tile,
    format_layout,
    format_tiles,
    parse_layout,
    parse_tiles,
)
from assistant.turn import judge_turn  # noqa: E402

DRIVER = Path(__file__).with_name("peer_driver.py")


@dataclass
class Position:
    preset: str
    table: list[list[Tile]]
    rack: list[Tile]
    opened: bool
    maximize: str


@dataclass(frozen=True)
class Mix:
    """What random positions look like: table and rack sizes, how many players have opened."""

    table: tuple[int, int] = (0, 80)
    rack: tuple[int, int] = (1, 30)
    opened: float = 0.75


def random_position(rng: random.Random, preset: str, mix: Mix = Mix()) -> Position:
    """A table of valid sets (0-80 tiles: runs of 3-8, groups) and a rack (1-30 tiles) from the rest."""
    rules = find_preset(preset)
    supply = [rules.copies] * 52 + [rules.jokers]
    target = rng.randint(*mix.table)
    table: list[list[Tile]] = []
    size = 0
    for _ in range(400):
        if size >= target:
            break
        if rng.random() < 0.6:
            length = rng.choice((3, 3, 3, 4, 4, 5, 6, 7, 8))
            start = rng.randint(1, 14 - length)
            color = rng.choice(COLORS)
            layout = [Tile(color, n) for n in range(start, start + length)]
        else:
            layout = [Tile(c, rng.randint(1, 13)) for c in rng.sample(COLORS, rng.choice((3, 3, 4)))]
            layout = [Tile(c, layout[0].number) for c in (t.color for t in layout)]
        wanted = [type_index(t) for t in layout]
        # Now and then a joker stands in for one of the faces (at most one per set, as at a real table).
        if supply[JOKER_TYPE] and rng.random() < 0.25:
            place = rng.randrange(len(layout))
            wanted[place] = JOKER_TYPE
            layout[place] = JOKER
        need = Counter(wanted)
        if size + len(layout) > mix.table[1] or any(supply[t] < n for t, n in need.items()):
            continue
        for t, n in need.items():
            supply[t] -= n
        table.append(layout)
        size += len(layout)
    pool = [tile_of_type(t) for t in range(53) for _ in range(supply[t])]
    rng.shuffle(pool)
    rack = pool[: rng.randint(*mix.rack)]
    opened = rng.random() < mix.opened
    # The value objective only where both solvers have it: an opened player (the peer's opening mode
    # always counts tiles).
    maximize = "value" if opened and rng.random() < 0.2 else "tiles"
    return Position(preset, table, rack, opened, maximize)


def peer_job(pos: Position, rules: Rules) -> str:
    return json.dumps(
        {
            "table": [str(t) for s in pos.table for t in s],
            "rack": [str(t) for t in pos.rack],
            "opened": pos.opened,
            "copies": rules.copies,
            "jokers": rules.jokers,
            "threshold": rules.opening_threshold,
            "maximize": pos.maximize,
        }
    )


def placed_value(sets: list[tuple[Tile, ...]], placed: list[Tile]) -> int:
    """Our definition of a play's value: placed faces, plus the best joker places for the rack's jokers."""
    slots = sorted(
        (v for s in sets if (r := best_reading(s)) is not None for v in r.joker_values), reverse=True
    )
    return sum(t.points for t in placed) + sum(slots[: placed.count(JOKER)])


def judge_peer(pos: Position, rules: Rules, answer: dict) -> tuple[bool, str]:
    """Is the peer's play legal by the rules? (verdict, why)"""
    placed = [Tile.parse(t) for t in answer["placed"]]
    if not placed:
        return True, "draws"
    if Counter(placed) - Counter(pos.rack):
        return False, "places tiles that are not on the rack"
    if not pos.opened:
        # Before opening only new sets from the rack count (000_*.txt section 3).
        if solve([], placed, rules, opened=False, threshold=0).tiles < len(placed):
            return False, "opening turn adds rack tiles to the table's sets (000_*.txt section 3)"
        if solve([], placed, rules, opened=False).tiles < len(placed):
            return False, f"opening meld worth less than {rules.opening_threshold}"
        return True, "new sets from the rack"
    sets = []
    for s in answer["sets"]:
        reading = best_reading([Tile.parse(t) for t in s])
        if reading is None:
            return False, f"invalid set {s}"
        sets.append(list(reading.layout))
    verdict = judge_turn(pos.table, sets, pos.rack, True, rules)
    if verdict.legal:
        return True, "legal"
    return False, "; ".join(r.text for r in verdict.reasons)


# Small positions that show the peer's defects one at a time: (what, preset, table, rack, opened, maximize).
KNOWN_CASES = [
    ("joker at the end of a run of four", "standard", "", "r6 r7 r8 J", True, "tiles"),
    ("group of four with a joker", "standard", "", "k5 b5 r5 J", True, "tiles"),
    ("opening with a group (peer sums distinct numbers)", "standard", "", "k10 b10 o10 k3", False, "tiles"),
    ("opening turn also extends a table run", "standard", "r4 r5 r6", "r7 r11 r12 r13", False, "tiles"),
    ("value mode: the joker's place", "standard", "", "k1 k2 k12 k13 J b7", True, "value"),
    ("value mode: high tiles or more tiles", "standard", "", "b1 b2 b4 k12 k13 J", True, "value"),
    ("joker left on the rack when opening", "standard", "", "k10 k11 k12 J", False, "tiles"),
]


def show_known_cases(peer: Peer) -> None:
    print(f"known cases (ours | peer with {peer.backend}):")
    for what, preset, table_text, rack_text, opened, maximize in KNOWN_CASES:
        pos = Position(preset, parse_layout(table_text), parse_tiles(rack_text), opened, maximize)
        rules = find_preset(preset)
        answer = peer.ask(pos, rules)
        play = solve(pos.table, pos.rack, rules, opened, maximize)  # type: ignore[arg-type]
        legal, why = judge_peer(pos, rules, answer)
        peer_sets = " | ".join(" ".join(s) for s in answer["sets"])
        print(f"  {what}: table [{table_text}] rack [{rack_text}] {'opened' if opened else 'not opened'}")
        print(f"    ours: {play.tiles} tiles, value {play.value}: {format_layout(list(play.table))}")
        print(f"    peer: {len(answer['placed'])} tiles: {peer_sets} ({'legal' if legal else why})")


def _load_solver(path: Path):  # noqa: ANN202 - a module
    """An earlier `assistant/solver.py`, loaded from a file beside the current package."""
    spec = importlib.util.spec_from_file_location("solver_before", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load a solver from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _span(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


class Peer:
    """One long-lived peer process (`peer_driver.py`) with one MILP backend."""

    def __init__(self, python: str, backend: str) -> None:
        self.python = python
        self.crashes = 0
        self.backend = self._start(backend)

    def _start(self, backend: str) -> str:
        self.process = subprocess.Popen(
            [self.python, str(DRIVER), "--backend", backend],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("the peer process stopped (is rummikub-solver installed in --peer-python?)")
        hello = json.loads(line)
        if "error" in hello:
            raise SystemExit(f"peer: {hello['error']}")
        return hello["backend"]

    def ask(self, pos: Position, rules: Rules) -> dict:
        """The peer's answer; `seconds` is None when its process died on this position (then restarted)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(peer_job(pos, rules) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if line:
            return json.loads(line)
        # GLPK aborts the whole process on some positions ("glp_add_cols: ncs = 0").
        self.crashes += 1
        self.process.wait()
        self._start(self.backend)
        return {"placed": [], "sets": [], "seconds": None, "error": "the peer's process died"}

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0-100)."""
    ordered = sorted(xs)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


@dataclass
class Side:
    """One solver's answers over the run: times, and (peers) how its plays compare with ours."""

    name: str
    seconds: list[float | None] = field(default_factory=list)
    tally: Counter[str] = field(default_factory=Counter)  # tiles mode: same / more / fewer-legal / ...
    values: Counter[str] = field(default_factory=Counter)  # value mode: higher / same / lower
    illegal: Counter[str] = field(default_factory=Counter)
    errors: int = 0


def compare(pos: Position, rules: Rules, play: Play, side: Side, answer: dict) -> dict | None:
    """Tally the peer's answer against our play; the disagreement, if any, as JSON."""
    side.seconds.append(answer["seconds"])
    side.errors += bool(answer["error"])
    if answer["seconds"] is None:
        return None  # its process died: no play to compare
    peer_tiles = len(answer["placed"])
    peer_legal, why = judge_peer(pos, rules, answer)
    peer_value = None
    if pos.maximize == "value":
        peer_sets = [tuple(Tile.parse(t) for t in s) for s in answer["sets"]]
        peer_value = placed_value(peer_sets, [Tile.parse(t) for t in answer["placed"]])
        if not peer_legal:
            side.values["peer illegal"] += 1
        else:
            side.values[
                "higher" if play.value > peer_value else "lower" if play.value < peer_value else "same"
            ] += 1
    elif peer_tiles == play.tiles:
        side.tally["same"] += 1
    elif play.tiles > peer_tiles:
        side.tally["more"] += 1
    else:
        side.tally["fewer, peer legal" if peer_legal else "fewer, peer breaks the rules"] += 1
    if not peer_legal:
        side.illegal[why.split(":")[0][:80]] += 1
    if peer_tiles == play.tiles and peer_legal and (peer_value is None or peer_value == play.value):
        return None
    return {
        "preset": pos.preset,
        "opened": pos.opened,
        "maximize": pos.maximize,
        "table": format_layout(pos.table),
        "rack": format_tiles(pos.rack),
        "ours": {"placed": play.tiles, "value": play.value, "table": format_layout(list(play.table))},
        "peer": {
            "backend": side.name,
            "placed": peer_tiles,
            "value": peer_value,
            "sets": [" ".join(s) for s in answer["sets"]],
            "legal": peer_legal,
            "why": why,
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--presets", default="standard,six-player")
    parser.add_argument("--table-tiles", default="0-80", help="table sizes drawn from this range")
    parser.add_argument("--rack-tiles", default="1-30", help="rack sizes drawn from this range")
    parser.add_argument("--opened-share", type=float, default=0.75, help="share of opened players")
    parser.add_argument("--peer-python", default="/tmp/peer-venv/bin/python")
    parser.add_argument(
        "--peer-backends",
        default="GLPK_MI,HIGHS",
        help="the peer's MILP backends, one peer process each (GLPK_MI needs cvxopt, HIGHS highspy)",
    )
    parser.add_argument("--warm-up", type=int, default=10, help="untimed positions solved first by all")
    parser.add_argument(
        "--baseline-solver",
        type=Path,
        default=None,
        help="an earlier assistant/solver.py (git show REV:assistant/solver.py > FILE), timed as 'before'",
    )
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--report", type=Path, default=None, help="write every disagreement as JSON here")
    parser.add_argument(
        "--known-cases", action="store_true", help="only show the peer's defects, small cases"
    )
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    presets = args.presets.split(",")
    mix = Mix(_span(args.table_tiles), _span(args.rack_tiles), args.opened_share)
    positions = [random_position(rng, presets[i % len(presets)], mix) for i in range(args.positions)]
    backends = [b for b in args.peer_backends.split(",") if b]
    if args.known_cases:
        peer = Peer(args.peer_python, backends[0])
        show_known_cases(peer)
        peer.close()
        return 0
    peers = [Peer(args.peer_python, b) for b in backends]
    baseline = _load_solver(args.baseline_solver) if args.baseline_solver else None
    # Warm both sides up (imports, caches, the peer's first cvxpy compile) on other positions.
    warm_rng = random.Random(args.seed + 1)
    for i in range(args.warm_up):
        pos = random_position(warm_rng, presets[i % len(presets)], mix)
        rules = find_preset(pos.preset)
        solve(pos.table, pos.rack, rules, pos.opened, pos.maximize, time_limit=args.time_limit)  # type: ignore[arg-type]
        if baseline is not None:
            baseline.solve(pos.table, pos.rack, rules, pos.opened, pos.maximize, time_limit=args.time_limit)
        for peer in peers:
            peer.ask(pos, rules)

    ours = Side("ours")
    before = Side("before")
    before_differs = 0
    sides = [Side(peer.backend) for peer in peers]
    illegal_ours = unproved = 0
    disagreements: list[dict] = []
    started = time.perf_counter()
    for index, pos in enumerate(positions):
        rules = find_preset(pos.preset)
        answers = [peer.ask(pos, rules) for peer in peers]
        play: Play = solve(pos.table, pos.rack, rules, pos.opened, pos.maximize, time_limit=args.time_limit)  # type: ignore[arg-type]
        ours.seconds.append(play.seconds)
        if baseline is not None:
            old = baseline.solve(
                pos.table, pos.rack, rules, pos.opened, pos.maximize, time_limit=args.time_limit
            )
            before.seconds.append(old.seconds)
            before_differs += (old.tiles, old.value) != (play.tiles, play.value)
        unproved += not play.optimal
        verdict = judge_turn(pos.table, [list(s) for s in play.table], pos.rack, pos.opened, rules)
        if not verdict.legal:
            illegal_ours += 1
            print("OUR PLAY ILLEGAL", index, [r.text for r in verdict.reasons], file=sys.stderr)
        for side, answer in zip(sides, answers, strict=True):
            if (found := compare(pos, rules, play, side, answer)) is not None:
                disagreements.append({"index": index, **found})
    for peer in peers:
        peer.close()
    elapsed = time.perf_counter() - started

    editions = ", ".join(f"{p}: {c}" for p, c in Counter(x.preset for x in positions).items())
    n_value = sum(p.maximize == "value" for p in positions)
    n_opened = sum(p.opened for p in positions)
    print(f"positions: {len(positions)} ({editions}); opened {n_opened}, value mode {n_value}")
    print(
        f"table tiles mean {statistics.mean(sum(map(len, p.table)) for p in positions):.1f}, "
        f"rack tiles mean {statistics.mean(len(p.rack) for p in positions):.1f}"
    )
    print(
        f"our plays judged illegal: {illegal_ours}; not proved optimal in {args.time_limit:g} s: {unproved}"
    )
    if baseline is not None:
        print(f"before ({args.baseline_solver}): tiles or value differ from ours on {before_differs}")
    for side in sides:
        print(f"against the peer with {side.name}:")
        print("  tiles mode, ours vs peer: " + ", ".join(f"{k} {v}" for k, v in sorted(side.tally.items())))
        print("  value mode, ours vs peer: " + ", ".join(f"{k} {v}" for k, v in sorted(side.values.items())))
        print(f"  peer plays that break the rules: {sum(side.illegal.values())}; peer errors: {side.errors}")
        crashed = sum(x is None for x in side.seconds)
        if crashed:
            print(f"  the peer's process died on {crashed} positions (left out of the times)")
        for why, count in side.illegal.most_common():
            print(f"    {count:4d}  {why}")

    # Times compare only where every peer answered (a crashed peer has no time).
    answered = [all(side.seconds[i] is not None for side in sides) for i in range(len(positions))]
    for side in sides:
        side.seconds = [0.0 if x is None else x for x in side.seconds]
    subsets = {
        "all": answered,
        "opened": [p.opened and a for p, a in zip(positions, answered, strict=True)],
        "not opened": [not p.opened and a for p, a in zip(positions, answered, strict=True)],
    }
    fastest = min(sides, key=lambda s: statistics.median(s.seconds))
    print(f"solve times in ms (peer's fastest backend here by median: {fastest.name}):")
    header = f"  {'positions':<18}{'solver':<10}{'median':>8}{'p90':>8}{'p95':>8}{'max':>8}"
    print(header)
    ratios: dict[str, tuple[float, float]] = {}
    for label, mask in subsets.items():
        if not any(mask):
            continue
        for side in (ours, *([before] if baseline is not None else []), *sides):
            xs = [x for x, m in zip(side.seconds, mask, strict=True) if m]
            print(
                f"  {label + f' ({len(xs)})':<18}{side.name:<10}{statistics.median(xs) * 1000:8.1f}"
                f"{percentile(xs, 90) * 1000:8.1f}{percentile(xs, 95) * 1000:8.1f}{max(xs) * 1000:8.1f}"
            )
        theirs = [x for x, m in zip(fastest.seconds, mask, strict=True) if m]
        for side in (ours, *([before] if baseline is not None else [])):
            mine = [x for x, m in zip(side.seconds, mask, strict=True) if m]
            ratios[f"{side.name} / peer {fastest.name}, {label}"] = (
                statistics.median(mine) / statistics.median(theirs),
                percentile(mine, 90) / percentile(theirs, 90),
            )
    for label, (median_ratio, p90_ratio) in ratios.items():
        print(f"ratio {label}: median {median_ratio:.2f}, p90 {p90_ratio:.2f}")
    print(f"wall time {elapsed:.0f} s")
    if args.report:
        args.report.write_text(json.dumps(disagreements, indent=1))
    failed = (
        illegal_ours
        or any(side.tally["fewer, peer legal"] for side in sides)
        or any(side.values["lower"] for side in sides)
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
