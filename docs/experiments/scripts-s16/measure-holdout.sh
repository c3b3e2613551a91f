#!/usr/bin/env bash
# The 200 hold-out renders (seed 9100) of ../scripts-s15/measure-det.sh. NAME DET
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=/work/runs/size-exp
mkdir -p $S/fig
nice -n 5 .venv/bin/python -m vision.evaluation.scenes $S/holdout --detector "$2" --json $S/fig/$1-holdout.json > $S/fig/$1-holdout.txt
