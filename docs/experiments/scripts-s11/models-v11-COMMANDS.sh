#!/usr/bin/env bash
# models-v11 (eleventh session, issue 30): fine-tune the shipped detector (recovered checkpoint) on renders
# weighted to the misses plus real-racks photos 86-89 (x15), validating on real photos only
# (real-dev 93 photos, tiles only; real-racks 90-93, rack boxes derived from racks.json), every epoch kept.
# Resume after a stop:  bash /work/runs/models-v11/COMMANDS.sh   (it skips what is done; training resumes from last.pt)
set -euo pipefail
cd /work/main
R=/work/runs/models-v11
PY=.venv/bin/python
export OMP_NUM_THREADS=1 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/render
render() {  # name count seed [kind]
  if [ ! -f "$R/render/$1/scenes/$(printf '%06d' $(($2 - 1))).json" ]; then
    nice -n 15 $PY -m datasets.render --out $R/render/$1 --count $2 --seed $3 ${4:+--kind $4} --size 640 --workers 2 --sheet 0 --quiet
  fi
}
render mix 600 101
render rack_front 400 102 rack_front
render rack_above 300 103 rack_above
render rack_angle 300 104 rack_angle
render packed 250 105 packed
render closeup 150 106 closeup
render texture 150 107 texture
render inks 100 108 inks
render game 150 109 game
if [ ! -f $R/recovered.pt ]; then
  nice -n 15 $PY -m vision.training.recover_checkpoint models/tile_detector.onnx $R/recovered.pt \
    --images $R/render/rack_front/images --config-dir $R/yolo >> $R/recover.log 2>&1
fi
if [ -f $R/detector/train/weights/last.pt ]; then
  nice -n 15 $PY -m vision.training.detector --out $R/detector --resume --config-dir $R/yolo \
    --export $R/tile_detector.onnx >> $R/train.log 2>&1
else
  nice -n 15 $PY -m vision.training.detector --out $R/detector --model $R/recovered.pt \
    --scenes $R/render/* --real-train /work/shared/real-racks:15@rummy4-86,rummy4-87,rummy4-88,rummy4-89 \
    --real-val /work/shared/real-dev /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
    --imgsz 320 --epochs 30 --batch 16 --workers 1 --threads 1 --seed 0 --optimizer AdamW --lr0 0.0005 \
    --save-period 1 --config-dir $R/yolo --export $R/tile_detector.onnx >> $R/train.log 2>&1
fi
