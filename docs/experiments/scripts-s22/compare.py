"""Detectors measured by ./measure-candidate.sh side by side, one Markdown table a part (JSON files in
/work/runs/size-exp/fig): the hold-out renders, the real photos, real-dev-measure zoomed out.

    python docs/experiments/scripts-s22/compare.py shipped v22-e5 ...
"""

import json
import sys
from pathlib import Path

FIG = Path("/work/runs/size-exp/fig")


def load(name: str, part: str) -> dict:
    path = FIG / f"{name}-{part}.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def pct(value: float) -> str:
    return f"{100 * value:.2f}"


names = sys.argv[1:]
print(
    "| detector | hold-out recall / precision / e2e / false tiles a scene | rack tiles in racks / "
    "table tiles "
    "on racks / racks in order | real-dev-measure false tiles, false racks (photos, tiles) | real-dev-train "
    "false racks | real-racks in rack, found, exact, false tiles |"
)
print("|---|---|---|---|---|---|")
for name in names:
    h = load(name, "holdout").get("all", {})
    dm, dt, r = (
        load(name, "devmeasure").get("all", {}),
        load(name, "devtrain").get("all", {}),
        load(name, "racks"),
    )
    cells = [name]
    cells.append(
        f"{pct(h['recall'])} / {pct(h['precision'])} / {pct(h['end_to_end'])} / "
        f"{h['false_tiles_per_scene']:.3f}"
        if h
        else "-"
    )
    cells.append(
        f"{pct(h['rack_tiles_in_racks'])} / {pct(h['table_tiles_put_on_racks'])} / "
        f"{pct(h['racks_in_owner_order'])}"
        if h
        else "-"
    )
    cells.append(
        f"{dm['false_tiles']}, {dm['photos_with_a_rack']}, {dm['tiles_put_on_racks']}" if dm else "-"
    )
    cells.append(f"{dt['photos_with_a_rack']}, {dt['tiles_put_on_racks']}" if dt else "-")
    cells.append(
        f"{pct(r['rack_tiles_in_their_rack'])} %, {r['racks_found']}, {r['racks_read_exactly']}, "
        f"{r['false_tiles']}"
        if r
        else "-"
    )
    print("| " + " | ".join(cells) + " |")
print()
print(
    "| detector | zoom | whole reader: recall / precision / e2e / photos wholly right / false racks (photos) "
    "| one look: recall / precision (missed, false) |"
)
print("|---|---|---|---|")
for name in names:
    for zoom in ("1.6", "1.8", "2.0"):
        full, one = load(name, f"z{zoom}").get("all", {}), load(name, f"z{zoom}-onelook").get("all", {})
        whole = (
            f"{pct(full['detection_recall'])} / {pct(full['detection_precision'])} / "
            f"{pct(full['end_to_end_accuracy'])} / {pct(full['perfect_photos_share'])} / "
            f"{full['photos_with_a_rack']}"
            if full
            else "-"
        )
        alone = (
            f"{pct(one['detection_recall'])} / {pct(one['detection_precision'])} ({one['missed_tiles']}, "
            f"{one['false_tiles']})"
            if one
            else "-"
        )
        print(f"| {name} | {zoom} | {whole} | {alone} |")
