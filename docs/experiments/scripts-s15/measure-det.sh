#!/usr/bin/env bash
# Fifteenth session (issue 37): the reader with another detector (the shipped classifiers and settings), measured
# as scripts-s14/measure-cls.sh measures classifiers: real-dev-measure (47 real-dev photos never trained on),
# real-dev-train (46 photos models-v15 trained on: a training figure), real-racks (86-89 trained on, 90-93 its
# validation: tuning) and the 200 hold-out renders (seed 9100, never tuned on). Figures in
# /work/runs/size-exp/fig/NAME-*; table: python /work/runs/s14/table.py NAME.
#   bash docs/experiments/scripts-s15/measure-det.sh NAME DETECTOR.onnx
set -euo pipefail
cd "$(dirname "$0")/../../.."
# the real photos, then the hold-out renders (the two parts, also run alone, in ../scripts-s16)
bash docs/experiments/scripts-s16/measure-real.sh "$1" "$2"
bash docs/experiments/scripts-s16/measure-holdout.sh "$1" "$2"
