"""Benchmark: games recorded per second by 8 writers (one per table) on one tournament, SQLite and PostgreSQL.

Each writer is its own process with its own connection, like a table's device; they start together (after
their imports and the first connection) and each records `--games` games with `record_table_game`, one
transaction per game. The clock runs from the start signal to the last writer done. Afterwards the games
are counted: a run that lost or doubled one fails.

    nice .venv/bin/python benchmarks/bench_hall.py                      # SQLite, and a throwaway PostgreSQL
    nice .venv/bin/python benchmarks/bench_hall.py --db postgresql+psycopg://user@host/db --games 200

Without `--db`, SQLite is a temporary file and PostgreSQL a cluster started by scripts/pg_cluster.sh
(needs Debian's postgresql installed; fsync on, as a real hall's server would run).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.hall import open_hall, record_table_game, standings, start_tournament  # noqa: E402

WRITERS = 8
PLAYERS = [f"player{n:02d}" for n in range(1, 4 * WRITERS + 1)]


def _writer(url: str, writer: int, games: int, ready: mp.Barrier, results: mp.Queue) -> None:  # type: ignore[type-arg]
    hall = open_hall(url, timeout_s=60)
    seated = hall.load("Bench").tables[writer]
    latencies = []
    ready.wait()
    for index in range(games):
        racks = {
            p: "" if seat == index % 4 else f"{'kbro'[seat]}{(index + seat) % 13 + 1}"
            for seat, p in enumerate(seated)
        }
        started = time.perf_counter()
        record_table_game(hall, "Bench", writer + 1, racks, request_key=f"w{writer}-g{index}")
        latencies.append(time.perf_counter() - started)
    results.put(latencies)


def bench(url: str, games: int) -> dict[str, object]:
    hall = open_hall(url)
    start_tournament(hall, "Bench", PLAYERS, seed="bench")
    context = mp.get_context("spawn")
    ready = context.Barrier(WRITERS + 1)
    results = context.Queue()
    writers = [context.Process(target=_writer, args=(url, w, games, ready, results)) for w in range(WRITERS)]
    for process in writers:
        process.start()
    ready.wait()
    started = time.perf_counter()
    latencies = [x for _ in writers for x in results.get(timeout=600)]
    elapsed = time.perf_counter() - started
    for process in writers:
        process.join()
    recorded, _ = standings(hall, "Bench")
    if recorded != WRITERS * games or any(p.exitcode for p in writers):
        raise SystemExit(f"{url}: {recorded} games stored, {WRITERS * games} sent")
    latencies.sort()
    return {
        "database": hall.db.url.get_backend_name(),
        "writers": WRITERS,
        "games": recorded,
        "seconds": round(elapsed, 3),
        "games_per_s": round(recorded / elapsed, 1),
        "latency_ms_p50": round(1000 * statistics.median(latencies), 2),
        "latency_ms_p95": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", metavar="URL", help="database URL (repeatable)")
    parser.add_argument("--games", type=int, default=100, help="games per writer (default 100)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rummi-bench-") as folder:
        urls = args.db
        cluster = None
        if not urls:
            # Its own folder in the temporary root: the server's user must be able to reach it.
            cluster = Path(tempfile.mkdtemp(prefix="rummi-pg-"))
            started = subprocess.run(
                ["bash", str(ROOT / "scripts" / "pg_cluster.sh"), "start", str(cluster)],
                capture_output=True,
                text=True,
            )
            if started.returncode != 0:
                raise SystemExit(f"could not start PostgreSQL: {started.stderr.strip()}")
            pg_url = started.stdout.strip()
            urls = [str(Path(folder) / "bench.sqlite3"), pg_url]
        try:
            for url in urls:
                print(json.dumps(bench(url, args.games)), flush=True)
        finally:
            if cluster is not None:
                subprocess.run(
                    ["bash", str(ROOT / "scripts" / "pg_cluster.sh"), "stop", str(cluster)], check=False
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
