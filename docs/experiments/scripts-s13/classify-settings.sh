#!/usr/bin/env bash
# Thirteenth session (issue 37): the classify stage read with other settings (classify_settings.py), measured
# as detector-sizes.sh measures a detector (real-dev and real-racks: TUNING sets; the 200 hold-out renders of
# seed 9100: never tuned on), with the shipped detector. Figures in /work/runs/size-exp/fig/NAME-*.json.
#   bash docs/experiments/scripts-s13/classify-settings.sh NAME [--consult S] [--recheck S] [--turns N]
#   .venv/bin/python docs/experiments/scripts-s12/summarize.py shipped NAME ...
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=/work/runs/size-exp
PY=.venv/bin/python
name=$1; shift
run=("$PY" docs/experiments/scripts-s13/classify_settings.py "$@")
nice -n 5 "${run[@]}" vision.evaluation.reading --images /work/shared/real-dev/images \
  --labels /work/shared/real-dev/labels --fix-known-errors --json $S/fig/$name-dev.json > $S/fig/$name-dev.txt
nice -n 5 "${run[@]}" vision.evaluation.real_racks /work/shared/real-racks --errors \
  --json $S/fig/$name-racks.json > $S/fig/$name-racks.txt
nice -n 5 "${run[@]}" vision.evaluation.real_racks /work/shared/real-racks --only rummy4-90 rummy4-91 rummy4-92 \
  rummy4-93 --json $S/fig/$name-racks90.json > $S/fig/$name-racks90.txt
nice -n 5 "${run[@]}" vision.evaluation.scenes $S/holdout --json $S/fig/$name-holdout.json > $S/fig/$name-holdout.txt
