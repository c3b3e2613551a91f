#!/usr/bin/env bash
# A checkpoint of a training run measured as the shipped detector is: exported to ONNX (at the run's own
# size), then ../scripts-s16/measure-real.sh (real-dev halves, real-racks) and measure-holdout.sh (the 200
# hold-out renders); compare with compare.py. NAME WEIGHTS.pt
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 weights=$2 R=${RUN:-/work/runs/models-v18}
export OMP_NUM_THREADS=1 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/measured
cp "$weights" $R/measured/$name.pt  # a copy: the run writes its checkpoints again every epoch
nice -n 5 .venv/bin/python -m vision.training.detector --out $R/measured/export-$name --export-only \
  $R/measured/$name.pt --export $R/measured/$name.onnx --config-dir $R/yolo > $R/measured/$name-export.log 2>&1
bash docs/experiments/scripts-s16/measure-real.sh $name $R/measured/$name.onnx
bash docs/experiments/scripts-s16/measure-holdout.sh $name $R/measured/$name.onnx
