"""Side-by-side benchmark: `assistant.solver` against the PyPI package `rummikub-solver` (the peer).

The peer runs in its own virtual environment through `benchmarks/peer_driver.py`; both solvers see the
same positions in one run, one after the other per position, so the machine load is shared. Positions:
a table of 0-80 tiles made of valid sets (runs of 3-7, groups, some jokers) and a rack of 1-30 tiles
drawn from what is left, standard (106 tiles) and six-player (160 tiles) editions, opened or not.

Every play of ours is checked by the turn judge. Where the tile counts differ, the peer's play is judged
by the rules: laid out in physical order and given to `judge_turn` (opened), or, for a player who has not
opened, checked to be new sets from the rack alone worth the threshold (000_*.txt section 3).

    python3 -m venv /tmp/peer-venv && /tmp/peer-venv/bin/pip install rummikub-solver
    nice .venv/bin/python benchmarks/bench_solver.py --positions 500 --peer-python /tmp/peer-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
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


def random_position(rng: random.Random, preset: str) -> Position:
    """A table of valid sets (0-80 tiles: runs of 3-8, groups) and a rack (1-30 tiles) from the rest."""
    rules = find_preset(preset)
    supply = [rules.copies] * 52 + [rules.jokers]
    target = rng.randint(0, 80)
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
        if size + len(layout) > 80 or any(supply[t] < n for t, n in need.items()):
            continue
        for t, n in need.items():
            supply[t] -= n
        table.append(layout)
        size += len(layout)
    pool = [tile_of_type(t) for t in range(53) for _ in range(supply[t])]
    rng.shuffle(pool)
    rack = pool[: rng.randint(1, 30)]
    opened = rng.random() < 0.75
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


def show_known_cases(peer: subprocess.Popen[str]) -> None:
    assert peer.stdin is not None and peer.stdout is not None
    print("known cases (ours | peer):")
    for what, preset, table_text, rack_text, opened, maximize in KNOWN_CASES:
        pos = Position(preset, parse_layout(table_text), parse_tiles(rack_text), opened, maximize)
        rules = find_preset(preset)
        peer.stdin.write(peer_job(pos, rules) + "\n")
        peer.stdin.flush()
        answer = json.loads(peer.stdout.readline())
        play = solve(pos.table, pos.rack, rules, opened, maximize)  # type: ignore[arg-type]
        legal, why = judge_peer(pos, rules, answer)
        peer_sets = " | ".join(" ".join(s) for s in answer["sets"])
        print(f"  {what}: table [{table_text}] rack [{rack_text}] {'opened' if opened else 'not opened'}")
        print(f"    ours: {play.tiles} tiles, value {play.value}: {format_layout(list(play.table))}")
        print(f"    peer: {len(answer['placed'])} tiles: {peer_sets} ({'legal' if legal else why})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--presets", default="standard,six-player")
    parser.add_argument("--peer-python", default="/tmp/peer-venv/bin/python")
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--report", type=Path, default=None, help="write every disagreement as JSON here")
    parser.add_argument(
        "--known-cases", action="store_true", help="only show the peer's defects, small cases"
    )
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    presets = args.presets.split(",")
    positions = [random_position(rng, presets[i % len(presets)]) for i in range(args.positions)]
    peer = subprocess.Popen(
        [args.peer_python, str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert peer.stdin is not None and peer.stdout is not None
    if args.known_cases:
        show_known_cases(peer)
        peer.stdin.close()
        peer.wait()
        return 0
    ours_s: list[float] = []
    peer_s: list[float] = []
    illegal_ours = unproved = peer_errors = 0
    tally: Counter[str] = Counter()  # tiles mode: same / more / fewer-legal / fewer-illegal
    values: Counter[str] = Counter()  # value mode: higher / same / lower
    disagreements: list[dict] = []
    peer_illegal: Counter[str] = Counter()
    started = time.perf_counter()
    for index, pos in enumerate(positions):
        rules = find_preset(pos.preset)
        peer.stdin.write(peer_job(pos, rules) + "\n")
        peer.stdin.flush()
        answer = json.loads(peer.stdout.readline())
        play: Play = solve(pos.table, pos.rack, rules, pos.opened, pos.maximize, time_limit=args.time_limit)
        ours_s.append(play.seconds)
        peer_s.append(answer["seconds"])
        unproved += not play.optimal
        verdict = judge_turn(pos.table, [list(s) for s in play.table], pos.rack, pos.opened, rules)
        if not verdict.legal:
            illegal_ours += 1
            print("OUR PLAY ILLEGAL", index, [r.text for r in verdict.reasons], file=sys.stderr)
        peer_errors += bool(answer["error"])
        peer_tiles = len(answer["placed"])
        peer_legal, why = judge_peer(pos, rules, answer)
        peer_value = None
        if pos.maximize == "value":
            peer_sets = [tuple(Tile.parse(t) for t in s) for s in answer["sets"]]
            peer_value = placed_value(peer_sets, [Tile.parse(t) for t in answer["placed"]])
            if not peer_legal:
                values["peer illegal"] += 1
            else:
                values[
                    "higher" if play.value > peer_value else "lower" if play.value < peer_value else "same"
                ] += 1
        elif peer_tiles == play.tiles:
            tally["same"] += 1
        elif play.tiles > peer_tiles:
            tally["more"] += 1
        else:
            tally["fewer, peer legal" if peer_legal else "fewer, peer breaks the rules"] += 1
        if not peer_legal:
            peer_illegal[why.split(":")[0][:80]] += 1
        if (
            peer_tiles != play.tiles
            or not peer_legal
            or (peer_value is not None and peer_value != play.value)
        ):
            disagreements.append(
                {
                    "index": index,
                    "preset": pos.preset,
                    "opened": pos.opened,
                    "maximize": pos.maximize,
                    "table": format_layout(pos.table),
                    "rack": format_tiles(pos.rack),
                    "ours": {
                        "placed": play.tiles,
                        "value": play.value,
                        "table": format_layout(list(play.table)),
                    },
                    "peer": {
                        "placed": peer_tiles,
                        "value": peer_value,
                        "sets": [" ".join(s) for s in answer["sets"]],
                        "legal": peer_legal,
                        "why": why,
                    },
                }
            )
    peer.stdin.close()
    peer.wait()
    elapsed = time.perf_counter() - started

    def p95(xs: list[float]) -> float:
        return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)]

    ours_med, peer_med = statistics.median(ours_s), statistics.median(peer_s)
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
    print("tiles mode, tiles placed vs peer: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    print("value mode, value vs peer: " + ", ".join(f"{k} {v}" for k, v in sorted(values.items())))
    print(f"peer plays that break the rules: {sum(peer_illegal.values())}")
    for why, count in peer_illegal.most_common():
        print(f"  {count:4d}  {why}")
    print(f"peer errors: {peer_errors}")
    print(
        f"median solve time: ours {ours_med * 1000:.1f} ms, peer {peer_med * 1000:.1f} ms, "
        f"ratio ours/peer {ours_med / peer_med:.2f}"
    )
    print(
        f"p95 solve time:    ours {p95(ours_s) * 1000:.1f} ms, peer {p95(peer_s) * 1000:.1f} ms, "
        f"ratio ours/peer {p95(ours_s) / p95(peer_s):.2f}"
    )
    print(f"max solve time:    ours {max(ours_s) * 1000:.1f} ms, peer {max(peer_s) * 1000:.1f} ms")
    print(f"wall time {elapsed:.0f} s")
    if args.report:
        args.report.write_text(json.dumps(disagreements, indent=1))
    failed = illegal_ours or tally["fewer, peer legal"] or values["lower"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
