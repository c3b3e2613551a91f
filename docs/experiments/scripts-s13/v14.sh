#!/usr/bin/env bash
# Thirteenth session (issue 37): the models-v14 epochs (480, trained on from models-v13 with racks from above
# and at an angle added; /work/runs/models-v14/COMMANDS.sh) exported square and of any input size, and measured
# like the twelfth session's (docs/experiments/scripts-s12/detector-sizes.sh measure: real-dev and real-racks
# are TUNING figures, real-racks 86-89 TRAINING photos of v13/v14; the 200 hold-out renders, seed 9100,
# holdout variants, never tuned on). Figures land in /work/runs/size-exp/fig as v14-eN and v14-eN-rect.
#   bash docs/experiments/scripts-s13/v14.sh N [N ...]
#   .venv/bin/python docs/experiments/scripts-s12/summarize.py shipped det480 v14-e0 v14-e0-rect ...
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=/work/runs/models-v14
S=/work/runs/s13/v14
PY="$(pwd)/.venv/bin/python"
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $S
for n in "$@"; do
  weights=$R/detector/train/weights/epoch$n.pt
  while [ $(( $(date +%s) - $(stat -c %Y "$weights") )) -lt 60 ]; do sleep 10; done  # not one being written
  for shape in square rect; do
    name=v14-e$n; [ $shape = rect ] && name=$name-rect
    if [ ! -f $S/$name.onnx ]; then
      mkdir -p $S/$name && cp "$weights" $S/$name/w.pt
      dynamic=False; [ $shape = rect ] && dynamic=True
      (cd $S/$name && nice -n 5 "$PY" -c "
from ultralytics import YOLO
print(YOLO('w.pt').export(format='onnx', imgsz=480, simplify=False, opset=17, dynamic=$dynamic))") > $S/$name.export.log 2>&1
      cp $S/$name/w.onnx $S/$name.onnx
    fi
    bash docs/experiments/scripts-s12/detector-sizes.sh measure $S/$name.onnx $name
  done
done
