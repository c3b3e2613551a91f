#!/usr/bin/env bash
# A training checkpoint exported as the shipped detector is (any input shape, read at 448) and measured on
# the hold-out renders and real-racks: the two figures the rack class's fall shows in.
#
#   bash docs/experiments/scripts-s27/measure-epoch.sh NAME WEIGHTS.pt
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 weights=$2 F=/work/runs/size-exp/fig
mkdir -p $F /work/runs/s27/yolo/Ultralytics
cp -n /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf /work/runs/s27/yolo/Ultralytics/Arial.ttf
export YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=/work/runs/s27/yolo
onnx=${weights%.pt}-448.onnx
[ -f "$onnx" ] || .venv/bin/python -m vision.training.detector --export-only "$weights" --imgsz 448 --dynamic \
  --config-dir /work/runs/s27/yolo --export "$onnx" > /dev/null
.venv/bin/python -m vision.evaluation.real_racks /work/shared/real-racks --detector "$onnx" \
  --json $F/$name-racks.json > $F/$name-racks.txt
.venv/bin/python -m vision.evaluation.scenes /work/runs/size-exp/holdout --detector "$onnx" \
  --json $F/$name-holdout.json > $F/$name-holdout.txt
grep -h "rack_tiles_in_their_rack\|racks_found" $F/$name-racks.txt
grep -h "recall\|end_to_end\|rack_tiles_in_racks\|table_tiles_put" $F/$name-holdout.txt
