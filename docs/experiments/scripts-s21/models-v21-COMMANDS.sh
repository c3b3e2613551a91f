#!/usr/bin/env bash
# models-v21 (twenty-first session, issue 37): models-v20 ran on after the twentieth session ended, to its
# 1.8 hours (31 epochs), and its late epochs beat the shipped detector on the real photos (real-racks rack
# tiles in their rack 61 -> 81 %, false racks on real-dev-measure 4 -> 3 photos at epoch 28). The run was cut
# by its clock while real-racks still rose, so v21 carries on from v20's last.pt on the same data (v20's
# renders, real-dev-train 3 copies, real-racks 86-89 4 copies; real-dev-measure and real-racks 90-93 as
# validation) at a lower learning rate (2e-5), every epoch kept and scored (../scripts-s19/epoch_scores.sh,
# RUN=/work/runs/models-v21 TAG=v21). Ships only if it beats the shipped file on the hold-out, real-dev and
# real-racks together. Resume after a stop: run again (from last.pt while it is there).
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=${RUN:-/work/runs/models-v21}
FROM=${FROM:-/work/runs/models-v20}
PY=.venv/bin/python
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/yolo/Ultralytics
[ -f $R/yolo/Ultralytics/Arial.ttf ] || cp /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf $R/yolo/Ultralytics/Arial.ttf
# v20's renders (../scripts-s20/models-v20-COMMANDS.sh makes them again on a new machine)
[ -d $FROM/render/mix ] || RUN=$FROM bash docs/experiments/scripts-s20/models-v20-COMMANDS.sh
[ -d /work/runs/real-dev-train ] || bash docs/experiments/scripts-s14/split-real-dev.sh
if [ -f $R/detector/train/weights/last.pt ]; then
  nice -n 15 $PY -m vision.training.detector --out $R/detector --resume --config-dir $R/yolo \
    --export $R/tile_detector.onnx >> $R/train.log 2>&1
else
  nice -n 15 $PY -m vision.training.detector --out $R/detector --model $FROM/detector/train/weights/last.pt \
    --scenes $FROM/render/* \
    --real-train /work/runs/real-dev-train:3 /work/shared/real-racks:4@rummy4-86,rummy4-87,rummy4-88,rummy4-89 \
    --real-val /work/runs/real-dev-measure /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
    --imgsz 320 --epochs 30 --hours 2.5 --batch 16 --workers 1 --threads 2 --seed 7 --optimizer AdamW --lr0 0.00002 \
    --save-period 1 --config-dir $R/yolo --export $R/tile_detector.onnx >> $R/train.log 2>&1
fi
