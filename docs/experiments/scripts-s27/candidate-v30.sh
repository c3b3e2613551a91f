#!/usr/bin/env bash
# The twenty-seventh session's best detector (measured, not shipped: lab notes): models-v30's epochs 4-13
# averaged (./average_epochs.py; every epoch shares the batch norms' statistics kept from the recovered
# checkpoint), exported as the shipped file is (any input size, a photo read at 448) with its own rack
# threshold, 0.40: the lowest at which real-dev's 93 rack-free photos get no more racks than with the earlier file at its 0.35 (7 against 8 photos;
# ./rack_scores.py, tuning photos). Then measured: ../scripts-s22/measure-candidate.sh v30-avg4-13-r40 FILE,
# ../scripts-s22/referee-sets.sh v30-avg4-13-r40 FILE zoom18 zoom2 zoom-holdout (and the hands sets with
# REFEREE_PHOTOS=/work/runs/referee-videos). To ship it: --export models/tile_detector.onnx.
set -euo pipefail
cd "$(dirname "$0")/../../.."
W=/work/runs/first-epoch-keepnorm/detector/train/weights
.venv/bin/python docs/experiments/scripts-s27/average_epochs.py /work/runs/s27/v30-avg4-13.pt \
  $(for epoch in 4 5 6 7 8 9 10 11 12 13; do echo $W/epoch$epoch.pt; done)
YOLO_OFFLINE=1 .venv/bin/python -m vision.training.detector --export-only /work/runs/s27/v30-avg4-13.pt \
  --imgsz 448 --dynamic --rack-confidence 0.40 --config-dir /work/runs/s27/yolo \
  --export /work/runs/s27/v30-avg4-13-r40-script.onnx
