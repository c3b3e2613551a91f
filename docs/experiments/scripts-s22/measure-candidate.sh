#!/usr/bin/env bash
# A detector (ONNX) measured as the shipped one is: real-dev halves and real-racks (../scripts-s16/
# measure-real.sh), the 200 hold-out renders (measure-holdout.sh), and real-dev-measure zoomed out 1.6, 1.8 and
# 2 times (./zoomed_photos.py; never trained on): the whole reader, and the detector's one look alone
# (`--one-look --detection-only`: how many tiles the network finds without the extra looks).
# Figures in /work/runs/size-exp/fig/NAME-*; ./compare.py NAME ... prints them side by side.
#
#   bash docs/experiments/scripts-s22/measure-candidate.sh NAME DETECTOR.onnx
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 det=$2 F=/work/runs/size-exp/fig Z=/work/runs/zoomed PY=.venv/bin/python
mkdir -p $F
for z in 1.6 1.8 2.0; do
  [ -f $Z/measure-z$z/data.yaml ] || $PY docs/experiments/scripts-s22/zoomed_photos.py /work/runs/real-dev-measure \
    $Z/measure-z$z --zoom $z
  nice -n 5 $PY -m vision.evaluation.reading --images $Z/measure-z$z/images --labels $Z/measure-z$z/labels \
    --detector "$det" --errors --json $F/$name-z$z.json > $F/$name-z$z.txt
  nice -n 5 $PY -m vision.evaluation.reading --images $Z/measure-z$z/images --labels $Z/measure-z$z/labels \
    --detector "$det" --one-look --detection-only --json $F/$name-z$z-onelook.json > $F/$name-z$z-onelook.txt
done
bash docs/experiments/scripts-s16/measure-real.sh "$name" "$det"
bash docs/experiments/scripts-s16/measure-holdout.sh "$name" "$det"
