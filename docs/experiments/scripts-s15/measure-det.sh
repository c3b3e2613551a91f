#!/usr/bin/env bash
# Fifteenth session (issue 37): the reader with another detector (the shipped classifiers and settings), measured
# as scripts-s14/measure-cls.sh measures classifiers: real-dev-measure (47 real-dev photos never trained on),
# real-dev-train (46 photos models-v15 trained on: a training figure), real-racks (86-89 trained on, 90-93 its
# validation: tuning) and the 200 hold-out renders (seed 9100, never tuned on). Figures in
# /work/runs/size-exp/fig/NAME-*; table: python /work/runs/s14/table.py NAME.
#   bash docs/experiments/scripts-s15/measure-det.sh NAME DETECTOR.onnx
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=/work/runs/size-exp
PY=.venv/bin/python
name=$1 det=$2
for half in measure train; do
  nice -n 5 $PY -m vision.evaluation.reading --images /work/runs/real-dev-$half/images \
    --labels /work/runs/real-dev-$half/labels --fix-known-errors --detector "$det" \
    --json $S/fig/$name-dev$half.json > $S/fig/$name-dev$half.txt
done
nice -n 5 $PY -m vision.evaluation.real_racks /work/shared/real-racks --detector "$det" --errors \
  --json $S/fig/$name-racks.json > $S/fig/$name-racks.txt
nice -n 5 $PY -m vision.evaluation.scenes $S/holdout --detector "$det" --json $S/fig/$name-holdout.json \
  > $S/fig/$name-holdout.txt
