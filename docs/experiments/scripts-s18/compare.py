"""One line per detector measured by ../scripts-s16/measure-real.sh and measure-holdout.sh (their JSON
files in /work/runs/size-exp/fig): real-dev halves, real-racks and the rendered hold-out side by side.

    python docs/experiments/scripts-s18/compare.py shipped v18-e30 ...
"""

import json
import sys
from pathlib import Path

FIG = Path("/work/runs/size-exp/fig")
HOLDOUT = ("recall", "precision", "end_to_end", "rack_tiles_in_racks", "table_tiles_put_on_racks")


def load(name: str, part: str) -> dict:
    path = FIG / f"{name}-{part}.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def real_dev(d: dict) -> str:
    if not d:
        return "-"
    return f"{100 * d['end_to_end_accuracy']:.2f} / {d['photos_with_a_rack']}, {d['tiles_put_on_racks']}"


print("| detector | real-dev-measure e2e % / false racks (photos, tiles) | real-dev-train e2e % / false "
      "racks | real-racks rack tiles in rack % / racks found | hold-out recall / precision / e2e / rack "
      "tiles in racks / table tiles on racks % |")
print("|---|---|---|---|---|")
for name in sys.argv[1:]:
    cells = [name] + [real_dev(load(name, half).get("all", {})) for half in ("devmeasure", "devtrain")]
    r = load(name, "racks")
    cells.append(f"{100 * r['rack_tiles_in_their_rack']:.2f} / {r['racks_found']} of {r['racks']}"
                 if r else "-")
    h = load(name, "holdout").get("all", {})
    cells.append(" / ".join(f"{100 * h[k]:.2f}" for k in HOLDOUT) if h else "-")
    print("| " + " | ".join(cells) + " |")
