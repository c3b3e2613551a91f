#!/usr/bin/env bash
# The referee's photo game sets (benchmarks/referee_photos.sh, rendered there) measured with another detector
# file (./with_detector.py), models/ untouched: one line per folder and set, JSON in
# $REFEREE_PHOTOS/results/NAME-SET.json.
#
#   bash docs/experiments/scripts-s22/referee-sets.sh NAME DETECTOR.onnx SET... [-- --no-window-look]
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${REFEREE_PHOTOS:-/work/runs/referee-photos}
name=$1 det=$2; shift 2
sets=() extra=()
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then shift; extra=("$@"); break; fi
  sets+=("$1"); shift
done
mkdir -p "$OUT/results"
for set in "${sets[@]}"; do
  folders=("$OUT/$set"/seed*)
  nice -n 10 .venv/bin/python docs/experiments/scripts-s22/with_detector.py --detector "$det" "${extra[@]}" \
    benchmarks/measure_referee_set.py "$set" "$OUT/results/$name-$set.json" "${folders[@]}"
done
