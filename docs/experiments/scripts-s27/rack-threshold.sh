#!/usr/bin/env bash
# A detector's rack threshold measured where it costs and where it pays: false racks on real-dev's two halves
# (tables with no rack), real-racks, and the tuning rack renders (seed 8800, front / above / angle / wood).
# Tuning figures all; the hold-out renders are measured once, at the threshold chosen.
#
#   bash docs/experiments/scripts-s27/rack-threshold.sh NAME DETECTOR.onnx 0.35 0.45 ...
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 det=$2; shift 2
PY=".venv/bin/python"
for t in "$@"; do
  line="$name rack-conf $t:"
  for half in measure train; do
    false=$($PY -m vision.evaluation.reading --images /work/runs/real-dev-$half/images \
      --labels /work/runs/real-dev-$half/labels --fix-known-errors --detector "$det" --rack-conf $t \
      | awk '/^photos_with_a_rack|^tiles_put_on_racks/ {print $2}' | tr '\n' '/')
    line="$line dev$half false racks (tiles/photos) $false"
  done
  racks=$($PY -m vision.evaluation.real_racks /work/shared/real-racks --detector "$det" --rack-conf $t \
    | awk '/rack_tiles_in_their_rack|racks_found/ {print $2}' | tr '\n' '/')
  line="$line real-racks $racks"
  renders=$($PY -m vision.evaluation.scenes /work/runs/eval/tune8800-rack_front /work/runs/eval/tune8800-rack_above \
    /work/runs/eval/tune8800-rack_angle /work/runs/eval/tune8800-rack_wood --detector "$det" --rack-conf $t \
    | awk '/^rack_tiles_in_racks|^table_tiles_put_on_racks/ {print $NF}' | tr '\n' '/')
  echo "$line tuning renders in racks/table on racks $renders"
done
