#!/usr/bin/env bash
# Export one epoch's weights and measure them on real-dev and real-racks (tuning figures).
#   bash /work/runs/models-v11/eval_epoch.sh epoch2   (the third epoch: ultralytics counts from 0)
set -euo pipefail
cd /work/main
R=/work/runs/models-v11
E=$1
W=$R/detector/train/weights/$E.pt  # E: epoch0 (the first epoch), epoch1, ..., best, last
mkdir -p $R/eval
export OMP_NUM_THREADS=1 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
[ -f $R/eval/e$E.onnx ] || nice -n 10 .venv/bin/python -m vision.training.detector --export-only $W --export $R/eval/e$E.onnx --imgsz 320 --config-dir $R/yolo > $R/eval/e$E.export.log 2>&1
nice -n 10 .venv/bin/python -m vision.evaluation.real_racks /work/shared/real-racks --detector $R/eval/e$E.onnx --errors --json $R/eval/e$E.racks.json > $R/eval/e$E.racks.txt
nice -n 10 .venv/bin/python -m vision.evaluation.real_racks /work/shared/real-racks --detector $R/eval/e$E.onnx --only rummy4-90 rummy4-91 rummy4-92 rummy4-93 --json $R/eval/e$E.racks-val.json > $R/eval/e$E.racks-val.txt
nice -n 10 .venv/bin/python -m vision.evaluation.reading --images /work/shared/real-dev/images --labels /work/shared/real-dev/labels --fix-known-errors --detector $R/eval/e$E.onnx --errors --json $R/eval/e$E.realdev.json > $R/eval/e$E.realdev.txt
echo "epoch $E  real-racks (all 8):"; head -14 $R/eval/e$E.racks.txt | paste -sd' ' | tr -s ' '
echo "epoch $E  real-racks 90-93 (not trained on):"; head -14 $R/eval/e$E.racks-val.txt | paste -sd' ' | tr -s ' '
echo "epoch $E  real-dev:"; grep -E "^(detection_recall|detection_precision|false_tiles |end_to_end|perfect|tiles_put_on_racks|photos_with_a_rack)" $R/eval/e$E.realdev.txt | awk '{print $1, $2}' | paste -sd' '
