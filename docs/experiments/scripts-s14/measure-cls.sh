#!/usr/bin/env bash
# Fourteenth session (issue 37): the reader with other crop classifiers or settings, measured on
# real-dev-measure (the 47 real-dev photos never trained on: split-real-dev.sh), real-dev-train (the 46
# cls-v15 trained on: a training figure), real-racks (tuning) and the 200 hold-out renders (seed 9100, never
# tuned on), and the classify stage timed on a 52-tile render. Figures in /work/runs/size-exp/fig/NAME-*.
#   bash docs/experiments/scripts-s14/measure-cls.sh NAME [--models DIR] [--consult S] [--recheck S] [--turns N]
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=/work/runs/size-exp
PY=.venv/bin/python
name=$1; shift
run=("$PY" docs/experiments/scripts-s13/classify_settings.py "$@")
for half in measure train; do
  nice -n 5 "${run[@]}" vision.evaluation.reading --images /work/runs/real-dev-$half/images \
    --labels /work/runs/real-dev-$half/labels --fix-known-errors --json $S/fig/$name-dev$half.json \
    > $S/fig/$name-dev$half.txt
done
nice -n 5 "${run[@]}" vision.evaluation.real_racks /work/shared/real-racks --errors \
  --json $S/fig/$name-racks.json > $S/fig/$name-racks.txt
nice -n 5 "${run[@]}" vision.evaluation.scenes $S/holdout --json $S/fig/$name-holdout.json > $S/fig/$name-holdout.txt
"${run[@]}" --time /work/runs/s14/bench_game_*.jpg --rounds 9 > $S/fig/$name-time.txt 2>&1 || true
tail -3 $S/fig/$name-time.txt
