"""Drive the PyPI `rummikub-solver` package (the peer) for `bench_solver.py`, in the peer's own venv.

Reads one JSON position per line on stdin and writes one JSON answer per line on stdout:
in  {"table": [TOKEN..], "rack": [TOKEN..], "opened": bool, "copies": int, "jokers": int,
     "threshold": int, "maximize": "tiles"|"value"}
out {"placed": [TOKEN..], "sets": [[TOKEN..]..], "seconds": float, "error": str|null}
Tokens are the contract's (`r5`, `J`). Only the `RuleSet.solve` call is timed; building a
`RuleSet` (its set list and cvxpy problems) and a first solve happen once per edition, outside the
timing, as a long-running peer would. `--backend NAME` picks the peer's MILP backend (`GLPK_MI` needs
`cvxopt`, `HIGHS` needs `highspy`); the first line out is `{"backend": NAME}` once it is set up.
It imports nothing from this project, so it runs with only `rummikub-solver` installed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from rummikub_solver import Colour, Joker, MILPSolver, RuleSet, SolverMode

# Colour letters of the contract mapped onto the peer's colour order (black, blue, orange, red).
COLOURS = {"k": Colour.BLACK, "b": Colour.BLUE, "o": Colour.ORANGE, "r": Colour.RED}
LETTERS = {v: k for k, v in COLOURS.items()}
_rulesets: dict[tuple[int, int, int], RuleSet] = {}
_backend: MILPSolver | None = None


def ruleset(copies: int, jokers: int, threshold: int) -> RuleSet:
    key = (copies, jokers, threshold)
    if key not in _rulesets:
        rs = RuleSet(
            repeats=copies, jokers=jokers, min_initial_value=max(1, threshold), solver_backend=_backend
        )
        rs.solve(rs.new_game())  # builds the solver once, outside the timing
        _rulesets[key] = rs
    return _rulesets[key]


def to_peer(rs: RuleSet, token: str):
    tiles = rs.tiles
    if token == "J":
        return tiles[-1]
    colour = list(Colour).index(COLOURS[token[0]])
    return tiles[colour * 13 + int(token[1:]) - 1]


def from_peer(tile) -> str:
    if isinstance(tile, Joker):
        return "J"
    return f"{LETTERS[tile.colour]}{tile.value}"


def main() -> int:
    global _backend
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", default=None, help="the peer's MILP backend (default: its own choice)")
    args = parser.parse_args()
    # Answers go to the real stdout; the backends' banners (HiGHS prints one on stdout) go to stderr.
    sys.stdout.flush()
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    if args.backend:
        _backend = MILPSolver(args.backend)
        if _backend not in MILPSolver.supported():
            print(json.dumps({"error": f"backend {args.backend} is not installed"}), file=answers)
            return 1
    print(json.dumps({"backend": str(RuleSet(solver_backend=_backend).backend)}), file=answers)
    for line in sys.stdin:
        job = json.loads(line)
        rs = ruleset(job["copies"], job["jokers"], job["threshold"])
        state = rs.new_game()
        state.add_table(*(to_peer(rs, t) for t in job["table"]))
        state.add_rack(*(to_peer(rs, t) for t in job["rack"]))
        state.initial = not job["opened"]
        mode = None
        if job["opened"] and job["maximize"] == "value":
            mode = SolverMode.TOTAL_VALUE
        error = None
        started = time.perf_counter()
        try:
            solution = rs.solve(state, mode)
        except Exception as exc:  # noqa: BLE001 - report the peer's failure instead of stopping
            solution, error = None, f"{type(exc).__name__}: {exc}"
        seconds = time.perf_counter() - started
        placed = [from_peer(t) for t in solution.tiles] if solution else []
        sets = [[from_peer(t) for t in s] for s in solution.sets] if solution else []
        print(json.dumps({"placed": placed, "sets": sets, "seconds": seconds, "error": error}), file=answers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
