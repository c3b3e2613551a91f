#!/usr/bin/env bash
# Fifteenth session: the reader with the in-row tile score SCORE (row_tiles.py; 1.0: the rule off) and the
# shipped models (or DETECTOR), measured as measure-det.sh measures. Figures in /work/runs/size-exp/fig/NAME-*.
#   bash docs/experiments/scripts-s15/measure-row.sh NAME SCORE [DETECTOR.onnx]
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=/work/runs/size-exp
name=$1 score=$2 det=${3:-models/tile_detector.onnx}
run=(nice -n 5 .venv/bin/python docs/experiments/scripts-s15/row_tiles.py "$score")
for half in measure train; do
  "${run[@]}" vision.evaluation.reading --images /work/runs/real-dev-$half/images \
    --labels /work/runs/real-dev-$half/labels --fix-known-errors --detector "$det" \
    --json $S/fig/$name-dev$half.json > $S/fig/$name-dev$half.txt
done
"${run[@]}" vision.evaluation.real_racks /work/shared/real-racks --detector "$det" --errors \
  --json $S/fig/$name-racks.json > $S/fig/$name-racks.txt
"${run[@]}" vision.evaluation.scenes $S/holdout --detector "$det" --json $S/fig/$name-holdout.json \
  > $S/fig/$name-holdout.txt
cp $S/fig/s14-v18-nat04-time.txt $S/fig/$name-time.txt  # the classify stage: the same classifiers
