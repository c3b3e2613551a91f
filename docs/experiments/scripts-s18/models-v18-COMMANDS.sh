#!/usr/bin/env bash
# models-v18 (eighteenth session, issue 37): models-v17's best epoch trained on with what v17 got wrong:
# real tables' piles of short rows called racks (250 renders of `--kind stacked_rows`: two to four short rows
# under each other, no rack, seed 171) and rack tiles on the hold-out renders put on the table (120 `rack`,
# 80 `rack_above`, 80 `rack_angle` renders, seeds 172-174, the kinds v17 saw least of); real-racks 86-89 at
# 4 copies instead of 10. v17's own renders (models-v17-COMMANDS.sh) stay in the mix. Validation each epoch on
# real-dev-measure and real-racks 90-93, never trained on (a tuning figure: the best epoch is chosen on it).
# Resume after a stop: run again (from last.pt while it is there). On a new machine v17's folder is gone:
# run models-v17-COMMANDS.sh first, or set START to the recovered shipped model (vision.training.recover_checkpoint).
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=${RUN:-/work/runs/models-v18}
V17=${V17:-/work/runs/models-v17}
START=${START:-$V17/detector/train/weights/best.pt}
PY=.venv/bin/python
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/render $R/yolo/Ultralytics
[ -f $R/yolo/Ultralytics/Arial.ttf ] || cp /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf $R/yolo/Ultralytics/Arial.ttf
render() {  # NAME COUNT SEED [--kind K]
  local name=$1 count=$2 seed=$3; shift 3
  [ -f "$R/render/$name/scenes/$(printf %06d $((count - 1))).json" ] || \
    nice -n 15 $PY -m datasets.render --out $R/render/$name --count $count --seed $seed "$@" --size 800 \
      --workers 1 --sheet 0 --quiet
}
render stacked_rows 250 171 --kind stacked_rows
render rack 120 172 --kind rack
render rack_above 80 173 --kind rack_above
render rack_angle 80 174 --kind rack_angle
[ -d /work/runs/real-dev-train ] || bash docs/experiments/scripts-s14/split-real-dev.sh
if [ -f $R/detector/train/weights/last.pt ]; then
  nice -n 15 $PY -m vision.training.detector --out $R/detector --resume --config-dir $R/yolo \
    --export $R/tile_detector.onnx >> $R/train.log 2>&1
else
  cp $START $R/start.pt
  nice -n 15 $PY -m vision.training.detector --out $R/detector --model $R/start.pt \
    --scenes $R/render/* $V17/render/* \
    --real-train /work/runs/real-dev-train:3 /work/shared/real-racks:4@rummy4-86,rummy4-87,rummy4-88,rummy4-89 \
    --real-val /work/runs/real-dev-measure /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
    --imgsz 320 --epochs 30 --hours 1.7 --batch 16 --workers 1 --threads 2 --seed 4 --optimizer AdamW --lr0 0.00003 \
    --save-period 5 --config-dir $R/yolo --export $R/tile_detector.onnx >> $R/train.log 2>&1
fi
