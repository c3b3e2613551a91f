#!/usr/bin/env bash
# The lead classifier (cls-v18) alone (`--consult 0`: the faces model never consulted), measured as
# cls-weights.sh measures the number weights (thirty-third session).
#
#   bash docs/experiments/scripts-s33/cls-lead-alone.sh
cd "$(dirname "$0")/../../.."
bash docs/experiments/scripts-s14/measure-cls.sh s33-cls-lead --consult 0
nice -n 5 .venv/bin/python docs/experiments/scripts-s13/classify_settings.py --consult 0 vision.evaluation.scenes \
  /work/runs/s31/holdout9700 --json /work/runs/size-exp/fig/s33-cls-lead-h9700.json > /work/runs/size-exp/fig/s33-cls-lead-h9700.txt
echo "lead done"
