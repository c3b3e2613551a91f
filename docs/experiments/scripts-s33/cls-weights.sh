#!/usr/bin/env bash
# The crop classifiers' number weights (faces model / lead cls-v18), chosen in the eleventh session for the lead
# before cls-v18 and never chosen again: the shipped 0.7 / 0.3 against 0.5 / 0.5 and 0.3 / 0.7 (thirty-third
# session: the faces model read a large-numeral edition's 9s as 10s and 13s where the lead read them right).
# Each: ../scripts-s14/measure-cls.sh (real-dev halves, real-racks, hold-out 9100) and hold-out 9700.
#
#   bash docs/experiments/scripts-s33/cls-weights.sh 50 30
cd "$(dirname "$0")/../../.."
for w in "$@"; do
  D=/work/runs/s33/cls-w$w
  bash docs/experiments/scripts-s14/measure-cls.sh s33-cls-w$w --models $D
  nice -n 5 .venv/bin/python docs/experiments/scripts-s13/classify_settings.py --models $D vision.evaluation.scenes \
    /work/runs/s31/holdout9700 --json /work/runs/size-exp/fig/s33-cls-w$w-h9700.json > /work/runs/size-exp/fig/s33-cls-w$w-h9700.txt
  echo "w$w done"
done
