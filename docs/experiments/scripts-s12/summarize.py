"""Markdown table of the figures `detector-sizes.sh measure|epoch` wrote to /work/runs/size-exp/fig.

    .venv/bin/python docs/experiments/scripts-s12/summarize.py [NAME ...]   # e.g. shipped det416 shipped-off
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FIG = Path("/work/runs/size-exp/fig")


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f}"


def row(name: str) -> str | None:
    try:
        dev = json.loads((FIG / f"{name}-dev.json").read_text())["all"]
        racks = json.loads((FIG / f"{name}-racks.json").read_text())
        r90 = json.loads((FIG / f"{name}-racks90.json").read_text())
        hold = json.loads((FIG / f"{name}-holdout.json").read_text())["all"]
    except FileNotFoundError:
        return None
    return " | ".join([
        name,
        f"{pct(dev['end_to_end_accuracy'])} / {dev['missed_tiles']} / {dev['false_tiles']} / "
        f"{dev['tiles_put_on_racks']} in {dev['photos_with_a_rack']}",
        f"{pct(racks['tiles_right'])} / {racks['false_tiles']} / {pct(racks['rack_tiles_in_their_rack'])} / "
        f"{racks['racks_found']}-{racks['racks_in_order']}-{racks['racks_read_exactly']} / "
        f"{racks['false_racks']}",
        f"{pct(r90['rack_tiles_in_their_rack'])} / {r90['racks_found']}-{r90['racks_read_exactly']}",
        f"{pct(hold['recall'])} / {pct(hold['precision'])} / {pct(hold['end_to_end'])} / "
        f"{hold['false_tiles_per_scene']} / {pct(hold['rack_tiles_in_racks'])} / "
        f"{pct(hold['table_tiles_put_on_racks'])} / {pct(hold['racks_in_owner_order'])}",
    ])


def main(names: list[str]) -> int:
    if not names:
        names = sorted({p.name.rsplit("-", 1)[0] for p in FIG.glob("*-holdout.json")})
    print("| detector | real-dev (tuning): end to end % / missed / false / tiles put on racks in photos "
          "| real-racks (tuning): tiles right % / false tiles / rack tiles in their rack % / racks found-in "
          "order-read exactly / false racks | real-racks 90-93: rack tiles in rack % / found-exact "
          "| hold-out renders: recall / precision / end to end / false a scene / rack tiles in racks / "
          "table tiles on racks / racks in owner order (%) |")
    print("|---|---|---|---|---|")
    for name in names:
        line = row(name)
        if line:
            print(f"| {line} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
