"""One device of a tournament hall, as its own process: records its share of the load test's games.

    python hall_writer.py URL TOURNAMENT WRITER GAMES [--sends N]

Prints one JSON line per game once the database confirmed it (flushed at once, so a parent that kills
this process knows exactly what was confirmed). `plan` is the games every writer records, shared with the
test that checks them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from assistant.hall import open_hall, record_table_game  # noqa: E402

TABLES = 8
PAIRS = 4  # writers w and w + PAIRS send the same games at the same time: each must be recorded once


def plan(
    writer: int, games: int, tables: tuple[tuple[str, ...], ...]
) -> list[tuple[str, int, dict[str, str]]]:
    """(request key, table, racks) for each game of `writer`."""
    pair = writer % PAIRS
    result = []
    for index in range(games):
        table = 2 * pair + 1 + index % 2
        racks = {}
        for seat, player in enumerate(tables[table - 1]):
            racks[player] = (
                "" if seat == index % len(tables[table - 1]) else f"{'kbro'[seat]}{(index + seat) % 13 + 1}"
            )
        result.append((f"pair{pair}-game{index}", table, racks))
    return result


def main(argv: list[str]) -> int:
    url, name, writer, games = argv[0], argv[1], int(argv[2]), int(argv[3])
    sends = int(argv[5]) if len(argv) > 5 and argv[4] == "--sends" else 1
    hall = open_hall(url, timeout_s=60)
    tables = hall.load(name).tables
    for key, table, racks in plan(writer, games, tables):
        for _ in range(sends):
            game = record_table_game(hall, name, table, racks, request_key=key)
            print(json.dumps({"key": key, "number": game.number, "replayed": game.replayed}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
