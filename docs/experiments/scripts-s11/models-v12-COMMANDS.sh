#!/usr/bin/env bash
# models-v12 (eleventh session, issue 30): as models-v11 (its renders and recovered checkpoint), with more
# renders of loose tiles on tables without racks (v11 took real-dev's rows of tiles for racks more with each
# epoch), the backbone frozen and a lower learning rate, so that the rack head learns the real racks while the
# features stay. Validates on real photos only (real-dev; real-racks 90-93); every epoch kept.
# Resume after a stop:  bash /work/runs/models-v12/COMMANDS.sh
set -euo pipefail
cd /work/main
R=/work/runs/models-v12
V11=/work/runs/models-v11
PY=.venv/bin/python
export OMP_NUM_THREADS=1 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/render
render() {  # name count seed kind
  if [ ! -f "$R/render/$1/scenes/$(printf '%06d' $(($2 - 1))).json" ]; then
    nice -n 15 $PY -m datasets.render --out $R/render/$1 --count $2 --seed $3 --kind $4 --size 640 --workers 2 --sheet 0 --quiet
  fi
}
render packed 300 110 packed
render game 200 111 game
render scatter 200 113 scatter
render fill 100 112 fill
if [ -f $R/detector/train/weights/last.pt ]; then
  nice -n 15 $PY -m vision.training.detector --out $R/detector --resume --config-dir $R/yolo \
    --export $R/tile_detector.onnx >> $R/train.log 2>&1
else
  nice -n 15 $PY -m vision.training.detector --out $R/detector --model $V11/recovered.pt \
    --scenes $V11/render/* $R/render/* \
    --real-train /work/shared/real-racks:15@rummy4-86,rummy4-87,rummy4-88,rummy4-89 \
    --real-val /work/shared/real-dev /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
    --imgsz 320 --epochs 8 --batch 16 --workers 1 --threads 1 --seed 0 --optimizer AdamW --lr0 0.0001 \
    --freeze 10 --save-period 1 --config-dir $R/yolo --export $R/tile_detector.onnx >> $R/train.log 2>&1
fi
