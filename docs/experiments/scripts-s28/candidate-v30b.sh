#!/usr/bin/env bash
# models-v30 trained on to its end (the twenty-eighth session resumed it from epoch 14; ultralytics' time
# budget ended it at epoch 21): epochs FIRST-LAST averaged (../scripts-s27/average_epochs.py), exported as
# the shipped file is (any input size, a photo read at 448) with rack threshold T, chosen as the
# twenty-seventh session did (../scripts-s27/rack_scores.py: the lowest threshold at which real-dev's 93
# rack-free photos get no more racks than with the shipped file; tuning photos). Then
# ../scripts-s22/measure-candidate.sh NAME FILE and ../scripts-s22/compare.py e11-blue NAME.
#
#   bash docs/experiments/scripts-s28/candidate-v30b.sh FIRST LAST T
set -euo pipefail
cd "$(dirname "$0")/../../.."
first=$1 last=$2 threshold=$3
W=/work/runs/first-epoch-keepnorm/detector/train/weights
name=v30-avg$first-$last
mkdir -p /work/runs/s28
.venv/bin/python docs/experiments/scripts-s27/average_epochs.py /work/runs/s28/$name.pt \
  $(for epoch in $(seq $first $last); do echo $W/epoch$epoch.pt; done)
YOLO_OFFLINE=1 .venv/bin/python -m vision.training.detector --export-only /work/runs/s28/$name.pt \
  --imgsz 448 --dynamic --rack-confidence $threshold --config-dir /work/runs/s27/yolo \
  --export /work/runs/s28/$name-r${threshold#0.}.onnx
