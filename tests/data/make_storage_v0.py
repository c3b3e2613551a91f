"""Writes tests/data/storage_v0.sqlite3 with the storage code of commit 3f06407 (before SQLAlchemy).

It runs only against that version (`git show 3f06407:assistant/storage.py`); kept to show how it was made.
"""

import json
from dataclasses import asdict
from pathlib import Path

from assistant.storage import Storage

out = Path("tests/data/storage_v0.sqlite3")
out.unlink(missing_ok=True)
store = Storage(out)
g1 = store.create_game("Friday", "standard", ["Ann", "Bob", "Cid"], variants=["no-timer"], camera="upload")
g2 = store.create_game("Club night", "tournament", ["Dee", "Eve"], camera="example")


def rec(g, n, scores, racks, blocked=False):
    store.record_round(
        g,
        n,
        blocked=blocked,
        racks=racks,
        rack_values={s: max(0, -v) for s, v in scores.items()},
        scores=scores,
        winners={s for s, v in scores.items() if v > 0},
    )


rec(g1, 1, {0: 30, 1: -10, 2: -20}, {0: "", 1: "r10", 2: "k9 b11"})
rec(g1, 2, {0: -5, 1: 12, 2: -7}, {0: "o5", 1: "", 2: "r7"})
rec(g2, 1, {0: -50, 1: 50}, {0: "J", 1: ""})
store.start_turn(g1, seat=0, before="", rack="r1 r2 r3 k9", started_at=100.0)
store.finish_turn(
    g1,
    100.0,
    after="r1 r2 r3",
    legal=True,
    action="play",
    played="r1 r2 r3",
    reasons=[],
    penalty_tiles=0,
    agreed_layout="r1 r2 r3",
    next_seat=1,
    opened=True,
    ended_at=130.0,
)
store.start_turn(g1, seat=1, before="r1 r2 r3", rack="k1", started_at=140.0)
store.finish_turn(
    g1,
    140.0,
    after="r1 r2 r3 | k1",
    legal=False,
    action="play",
    played="k1",
    reasons=["a set needs at least 3 tiles"],
    penalty_tiles=3,
    agreed_layout="r1 r2 r3",
    next_seat=2,
    opened=False,
    ended_at=150.0,
    table_layout="r1 r2 r3",
)
store.set_table_layout(g1, "r1 r2 r3 | b5 b6", photo="photo-1")
store.start_turn(g1, seat=2, before="r1 r2 r3", rack="b5 b6 b7", started_at=200.0)

expected = {"games": store.list_games(), "by_game": {}}
for gid, _ in store.list_games():
    expected["by_game"][str(gid)] = {
        "game": asdict(store.load_game(gid)),
        "rounds": [asdict(r) for r in store.rounds(gid)],
        "turns": [asdict(t) for t in store.turns(gid)],
        "csv": store.export_csv(gid),
    }
Path("tests/data/storage_v0.json").write_text(json.dumps(expected, indent=1) + "\n")
