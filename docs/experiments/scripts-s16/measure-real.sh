#!/usr/bin/env bash
# The real photos of ../scripts-s15/measure-det.sh: real-dev-measure, real-dev-train, real-racks. NAME DET
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=/work/runs/size-exp; PY=.venv/bin/python; name=$1 det=$2
mkdir -p $S/fig
for half in measure train; do
  nice -n 5 $PY -m vision.evaluation.reading --images /work/runs/real-dev-$half/images \
    --labels /work/runs/real-dev-$half/labels --fix-known-errors --detector "$det" \
    --json $S/fig/$name-dev$half.json > $S/fig/$name-dev$half.txt
done
nice -n 5 $PY -m vision.evaluation.real_racks /work/shared/real-racks --detector "$det" --errors \
  --json $S/fig/$name-racks.json > $S/fig/$name-racks.txt
