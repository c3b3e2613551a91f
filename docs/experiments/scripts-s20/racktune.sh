#!/usr/bin/env bash
# A detector's rack threshold swept on TUNING rack renders only (render-racktune.sh: 200 scenes, seeds
# 9301-9305, the default variants), never on the hold-out: NAME DET [THRESHOLDS...]. One JSON per threshold in
# /work/runs/s20/racktune-fig/NAME-rC.json and a line each in /work/runs/s20/racktune-fig/summary.txt.
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 det=$2; shift 2
F=/work/runs/s20/racktune-fig T=/work/runs/s20/racktune
mkdir -p $F
for c in ${@:-0.15 0.25 0.35 0.45}; do
  nice -n 5 .venv/bin/python -m vision.evaluation.scenes $T/rack $T/rack_front $T/rack_above $T/rack_angle $T/game \
    --detector "$det" --rack-conf $c --json $F/$name-r$c.json > $F/$name-r$c.txt
  .venv/bin/python - "$F/$name-r$c.json" "$name" "$c" >> $F/summary.txt <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["all"]
print(f"{sys.argv[2]} rack-conf {sys.argv[3]}: e2e {100 * a['end_to_end']:.2f} recall {100 * a['recall']:.2f} "
      f"rack tiles in racks {100 * a['rack_tiles_in_racks']:.2f} table tiles on racks {100 * a['table_tiles_put_on_racks']:.2f}")
PY
done
