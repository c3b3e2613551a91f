#!/usr/bin/env bash
# The detector shipped in the twenty-seventh session: models-v30's epochs 4-13 averaged (./average_epochs.py;
# every epoch shares the batch norms' statistics kept from the recovered checkpoint), exported as the shipped
# file is (any input size, a photo read at 448) with its own rack threshold, 0.40: the lowest at which real-dev's
# 93 rack-free photos get no more racks than with the earlier file at its 0.35 (7 against 8 photos;
# ./rack_scores.py, tuning photos). Then measured (../scripts-s22/measure-candidate.sh, the referee's sets).
set -euo pipefail
cd "$(dirname "$0")/../../.."
W=/work/runs/first-epoch-keepnorm/detector/train/weights
.venv/bin/python docs/experiments/scripts-s27/average_epochs.py /work/runs/s27/v30-avg4-13.pt \
  $(for epoch in 4 5 6 7 8 9 10 11 12 13; do echo $W/epoch$epoch.pt; done)
YOLO_OFFLINE=1 .venv/bin/python -m vision.training.detector --export-only /work/runs/s27/v30-avg4-13.pt \
  --imgsz 448 --dynamic --rack-confidence 0.40 --config-dir /work/runs/s27/yolo --export models/tile_detector.onnx
