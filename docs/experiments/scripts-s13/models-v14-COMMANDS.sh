#!/usr/bin/env bash
# models-v14 (thirteenth session, issue 37): models-v13 (480, from the shipped weights) trained on, at a lower
# learning rate, with renders of racks from above and at an angle added (the hold-out's rack tiles in racks fell
# 90.18 -> 87-88 % over v13's epochs, which never saw those kinds on their own). Same real photos as v13:
# real-racks 86-89 a small share of training, real-dev + real-racks 90-93 validation every epoch.
# Resume after a stop:  bash /work/runs/models-v14/COMMANDS.sh
set -euo pipefail
cd /work/main
R=/work/runs/models-v14
V13=/work/runs/models-v13
PY=.venv/bin/python
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/render $R/yolo/Ultralytics
[ -f $R/yolo/Ultralytics/Arial.ttf ] || cp /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf $R/yolo/Ultralytics/Arial.ttf
render() {  # name count seed kind
  if [ ! -f "$R/render/$1/scenes/$(printf '%06d' $(($2 - 1))).json" ]; then
    nice -n 15 $PY -m datasets.render --out $R/render/$1 --count $2 --seed $3 ${4:+--kind $4} --size 800 --workers 2 --sheet 0 --quiet
  fi
}
render rack_above 120 141 rack_above
render rack_angle 120 142 rack_angle
for d in $V13/render/*; do [ -e $R/render/$(basename $d) ] || ln -s $d $R/render/$(basename $d); done
if [ -f $R/detector/train/weights/last.pt ]; then
  nice -n 15 $PY -m vision.training.detector --out $R/detector --resume --config-dir $R/yolo \
    --export $R/tile_detector.onnx >> $R/train.log 2>&1
else
  nice -n 15 $PY -m vision.training.detector --out $R/detector --model $V13/detector/train/weights/last.pt \
    --scenes $R/render/* \
    --real-train /work/shared/real-racks:10@rummy4-86,rummy4-87,rummy4-88,rummy4-89 \
    --real-val /work/shared/real-dev /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
    --imgsz 480 --epochs 30 --hours 2.4 --batch 16 --workers 1 --threads 2 --seed 1 --optimizer AdamW --lr0 0.0001 \
    --save-period 1 --config-dir $R/yolo --export $R/tile_detector.onnx >> $R/train.log 2>&1
fi
