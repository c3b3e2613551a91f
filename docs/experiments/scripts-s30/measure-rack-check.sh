#!/usr/bin/env bash
# A detector with a rack check (`vision.rack_check`; "none": without) measured as a candidate is
# (../scripts-s22/measure-candidate.sh: real-dev halves, real-racks, hold-out renders, real-dev zoomed) and on
# the 160 tuning rack renders of seed 8800. The rack check is put where the reader finds it
# (models/rack_check.onnx) for the measurement and the file there before is put back after.
# Figures in /work/runs/size-exp/fig/NAME-*; ../scripts-s22/compare.py BEFORE NAME prints them side by side.
#
#   bash docs/experiments/scripts-s30/measure-rack-check.sh NAME DETECTOR.onnx RACK_CHECK.onnx|none
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 det=$2 check=$3 F=/work/runs/size-exp/fig PY=.venv/bin/python
if [ "$check" = none ] || ! cmp -s "$check" models/rack_check.onnx; then  # else the shipped file, left as it is
  kept=$(mktemp -d)
  [ ! -f models/rack_check.onnx ] || cp models/rack_check.onnx $kept/
  trap 'rm -f models/rack_check.onnx; [ ! -f $kept/rack_check.onnx ] || cp $kept/rack_check.onnx models/' EXIT
  rm -f models/rack_check.onnx
  [ "$check" = none ] || cp "$check" models/rack_check.onnx
fi
nice -n 5 $PY -m vision.evaluation.scenes /work/runs/eval/tune8800-rack_{front,above,angle,wood} \
  --detector "$det" --json $F/$name-tune8800.json > $F/$name-tune8800.txt
bash docs/experiments/scripts-s22/measure-candidate.sh "$name" "$det"
