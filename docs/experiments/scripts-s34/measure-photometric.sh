#!/usr/bin/env bash
# real-dev-measure under other light (./photometric.py: warm, cool, dim, blur, haze, noise), as it is and at
# 0.55 of its size, read with a detector and a rack check ("shipped": models/rack_check.onnx as it is).
# Tuning figures (real-dev-measure has been looked at). One line a variant in /work/runs/size-exp/fig/NAME-photo.txt.
#
#   bash docs/experiments/scripts-s34/measure-photometric.sh NAME DETECTOR.onnx RACK_CHECK.onnx|shipped
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 det=$2 check=$3 F=/work/runs/size-exp/fig P=/work/runs/s34/photo PY=.venv/bin/python
[ -d $P/dim ] || $PY docs/experiments/scripts-s34/photometric.py /work/runs/real-dev-measure/images \
  /work/runs/real-dev-measure/labels $P
if [ "$check" != shipped ] && ! cmp -s "$check" models/rack_check.onnx; then
  kept=$(mktemp -d)
  cp models/rack_check.onnx $kept/
  trap 'cp $kept/rack_check.onnx models/' EXIT
  cp "$check" models/rack_check.onnx
fi
mkdir -p $F/$name-photo
: > $F/$name-photo.txt
for scale in 1 0.55; do
  for t in warm cool dim blur haze noise; do
    out=$F/$name-photo/$t-$scale
    nice -n 5 $PY -m vision.evaluation.reading --images $P/$t/images --labels $P/$t/labels --fix-known-errors \
      --scale $scale --detector "$det" --errors --json $out.json > $out.txt
    echo "$t $scale $(grep -E '^(detection_recall|false_tiles|end_to_end_accuracy|perfect_photos_share|tiles_put_on_racks|photos_with_a_rack) ' \
      $out.txt | awk '{print $1"="$2}' | tr '\n' ' ')" | tee -a $F/$name-photo.txt
  done
done
