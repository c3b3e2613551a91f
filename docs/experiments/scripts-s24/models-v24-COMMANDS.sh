#!/usr/bin/env bash
# models-v24 (twenty-fourth session, issue 37), on the machine of the twenty-second session (its /work/runs
# kept). Why: the outside photos put a tile ~13 px tall in the detector's 320 input; a little further
# (real-dev-measure zoomed out 2x, 11-12 px) the one look alone misses 16-19 of 881 tiles and puts 25-32
# false ones (models-v23, every epoch), and the reader pays for it with extra looks (a 54-tile read is 3.1
# forward passes at 1.8x, 6.7 at 2x). v23 trained on the zoomed-out real-dev-train copies twice each
# (1.6, 2.0, 2.4x); the renders already hold tiles of that size, so real tiles at that size are scarce. This run starts from
# v23's epoch 20 (its fewest false racks with real-racks as its best: 4 photos / 37 tiles, 93.40 %) and
# trains on the same mix with the zoomed real copies five times each, one more zoom (1.8x) among them.
# The epoch is chosen on the zoomed one look with real-dev-measure's false racks and real-racks' rack tiles
# (tuning figures; ../scripts-s19/epoch_scores.sh with ZOOMED=/work/runs/zoomed/measure-z2.0), then
# measured in full (../scripts-s22/measure-candidate.sh) before it can ship.
# Resume after a stop: run again (from last.pt while it is there).
#
#   nohup bash docs/experiments/scripts-s24/models-v24-COMMANDS.sh > /work/runs/models-v24.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/../../.."
V20=/work/runs/models-v22/v20
V23=/work/runs/models-v23
R=/work/runs/models-v24
Z=/work/runs/zoomed
PY=.venv/bin/python
[ -f $V23/measured/v23-e20.pt ] || { echo "no $V23/measured/v23-e20.pt: run ../scripts-s23/models-v23-COMMANDS.sh first"; exit 1; }
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/yolo/Ultralytics
[ -f $R/yolo/Ultralytics/Arial.ttf ] || cp /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf $R/yolo/Ultralytics/Arial.ttf
[ -d $Z/train-z1.8 ] || $PY docs/experiments/scripts-s22/zoomed_photos.py /work/runs/real-dev-train $Z/train-z1.8 --zoom 1.8
if [ -f $R/detector/train/weights/last.pt ]; then
  nice -n 15 $PY -m vision.training.detector --out $R/detector --resume --config-dir $R/yolo \
    --export $R/tile_detector.onnx >> $R/train.log 2>&1
else
  nice -n 15 $PY -m vision.training.detector --out $R/detector --model $V23/measured/v23-e20.pt \
    --scenes $V20/render/* $V23/render/* \
    --real-train /work/runs/real-dev-train:5 /work/shared/real-racks:4@rummy4-86,rummy4-87,rummy4-88,rummy4-89 \
      $Z/train-z1.6:5 $Z/train-z1.8:5 $Z/train-z2.0:5 $Z/train-z2.4:5 \
    --real-val /work/runs/real-dev-measure /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
    --imgsz 320 --epochs 30 --hours ${HOURS:-1.6} --batch 16 --workers 1 --threads 2 --seed 9 --optimizer AdamW --lr0 0.00002 \
    --save-period 1 --config-dir $R/yolo --export $R/tile_detector.onnx >> $R/train.log 2>&1
fi
