#!/usr/bin/env bash
# models-v13 (twelfth session, issue 37): "one look that sees" -- the shipped detector fine-tuned at imgsz 480
# (a 1000x750 photo's tile ~20 px tall instead of 13 at 320), from the checkpoint rebuilt from the shipped ONNX,
# on fresh renders of every kind the misses come from, real-racks 86-89 as a small share of training, real-dev
# and real-racks 90-93 as validation every epoch (early stopping on them). Every epoch kept.
# Resume after a stop:  bash /work/runs/models-v13/COMMANDS.sh
set -euo pipefail
cd /work/main
R=/work/runs/models-v13
PY=.venv/bin/python
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/render $R/yolo/Ultralytics
[ -f $R/yolo/Ultralytics/Arial.ttf ] || cp /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf $R/yolo/Ultralytics/Arial.ttf
render() {  # name count seed kind
  if [ ! -f "$R/render/$1/scenes/$(printf '%06d' $(($2 - 1))).json" ]; then
    nice -n 15 $PY -m datasets.render --out $R/render/$1 --count $2 --seed $3 ${4:+--kind $4} --size 800 --workers 2 --sheet 0 --quiet
  fi
}
render mix 360 130
render rack_front 120 131 rack_front
render rack_wood 80 132 rack_wood
render packed 100 133 packed
render scatter 100 134 scatter
render fill 60 135 fill
render empty 40 136 empty
if [ ! -f $R/recovered.pt ]; then
  nice -n 15 $PY -m vision.training.recover_checkpoint models/tile_detector.onnx $R/recovered.pt --images $R/render/mix/images >> $R/train.log 2>&1
fi
if [ -f $R/detector/train/weights/last.pt ]; then
  nice -n 15 $PY -m vision.training.detector --out $R/detector --resume --config-dir $R/yolo \
    --export $R/tile_detector.onnx >> $R/train.log 2>&1
else
  nice -n 15 $PY -m vision.training.detector --out $R/detector --model $R/recovered.pt \
    --scenes $R/render/* \
    --real-train /work/shared/real-racks:10@rummy4-86,rummy4-87,rummy4-88,rummy4-89 \
    --real-val /work/shared/real-dev /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
    --imgsz 480 --epochs 40 --hours 2.3 --batch 16 --workers 1 --threads 2 --seed 0 --optimizer AdamW --lr0 0.0002 \
    --save-period 1 --config-dir $R/yolo --export $R/tile_detector.onnx >> $R/train.log 2>&1
fi
