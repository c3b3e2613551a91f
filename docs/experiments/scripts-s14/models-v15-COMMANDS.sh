#!/usr/bin/env bash
# models-v15 (fourteenth session, issue 37, item 6 of 36): the shipped 320 detector (recovered from its ONNX
# file, /work/runs/models-v13/recovered.pt) trained on at a low learning rate, at its own input size 320 (the
# 480 runs v13/v14 read no better and cost 2.3x), with the 46 real-dev photos of real-dev-train as a share of
# training (3 copies: real tiles lying loose on a table, rows of them on no rack) beside real-racks 86-89,
# 150 renders of game tables added to the v14 renders; validation each epoch on the 47 real-dev photos of
# real-dev-measure and real-racks 90-93, never trained on. Resume after a stop: run again.
set -euo pipefail
cd /work/main
R=/work/runs/models-v15
V14=/work/runs/models-v14
PY=.venv/bin/python
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/render $R/yolo/Ultralytics
[ -f $R/yolo/Ultralytics/Arial.ttf ] || cp /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf $R/yolo/Ultralytics/Arial.ttf
if [ ! -f "$R/render/game/scenes/000149.json" ]; then
  nice -n 15 $PY -m datasets.render --out $R/render/game --count 150 --seed 143 --kind game --size 800 --workers 1 --sheet 0 --quiet
fi
for d in $V14/render/*; do [ -e $R/render/$(basename $d) ] || ln -s "$(readlink -f $d)" $R/render/$(basename $d); done
if [ -f $R/detector/train/weights/last.pt ]; then
  nice -n 15 $PY -m vision.training.detector --out $R/detector --resume --config-dir $R/yolo \
    --export $R/tile_detector.onnx >> $R/train.log 2>&1
else
  nice -n 15 $PY -m vision.training.detector --out $R/detector --model /work/runs/models-v13/recovered.pt \
    --scenes $R/render/* \
    --real-train /work/runs/real-dev-train:3 /work/shared/real-racks:10@rummy4-86,rummy4-87,rummy4-88,rummy4-89 \
    --real-val /work/runs/real-dev-measure /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
    --imgsz 320 --epochs 12 --hours 2.0 --batch 16 --workers 1 --threads 2 --seed 2 --optimizer AdamW --lr0 0.0001 \
    --save-period 1 --config-dir $R/yolo --export $R/tile_detector.onnx >> $R/train.log 2>&1
fi
