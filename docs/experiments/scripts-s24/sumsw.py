"""Totals of switch_set.sh outputs (right, missed, invented); the games where the first and last differ.

    python docs/experiments/scripts-s24/sumsw.py OUT_HEAD OUT_NEW
"""

import re
import sys

LINE = re.compile(r"(\d+)/(\d+) right, missed (\d+), invented (\d+)")


def totals(path: str) -> dict[str, tuple[int, ...]]:
    games = {}
    for line in open(path):
        found = LINE.search(line)
        if found:
            games[line.split()[0]] = tuple(int(v) for v in found.groups())
    right, turns, missed, invented = (sum(g[k] for g in games.values()) for k in range(4))
    print(f"{path}: games {len(games)} right {right}/{turns} missed {missed} invented {invented}")
    return games


def main() -> None:
    outputs = [totals(path) for path in sys.argv[1:]]
    if len(outputs) > 1:
        first, last = outputs[0], outputs[-1]
        for game, score in first.items():
            if game in last and last[game] != score:
                print(" differ", game, score, last[game])


if __name__ == "__main__":
    main()
