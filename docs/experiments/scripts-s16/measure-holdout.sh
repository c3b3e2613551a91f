#!/usr/bin/env bash
# the hold-out renders part of measure-det.sh: NAME DET
set -euo pipefail
cd /work/main
S=/work/runs/size-exp
nice -n 5 .venv/bin/python -m vision.evaluation.scenes $S/holdout --detector "$2" --json $S/fig/$1-holdout.json > $S/fig/$1-holdout.txt
