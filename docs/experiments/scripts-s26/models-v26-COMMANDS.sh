#!/usr/bin/env bash
# models-v26 (twenty-sixth session, issue 37), on a new machine (every /work/runs folder lost). Photos are read at
# 448 since session 25 (vision/detector.py reads at the model's own size, in the photo's own shape), but the
# shipped weights (models-v25 epoch 11) were trained at 320: racks from the front and small tiles were only ever
# learned at that scale. This run is models-v25's recipe unchanged (its renders, real-dev-train, 800 real-tile
# scenes, real-racks) with the shipped detector recovered from its ONNX file and trained on at --imgsz 448, and
# 240 more wooden racks (on 40 tuning renders of them, seed 8800, the shipped file found no rack on 14 and put
# 77.7 % of their tiles in their rack).
# Every epoch kept (--save-period 1) and measured in full (../scripts-s22/measure-candidate.sh) before it can
# ship. Resume after a stop: run again (from last.pt while it is there).
#
#   nohup bash docs/experiments/scripts-s26/models-v26-COMMANDS.sh > /work/runs/models-v26.log 2>&1 &
#
# The later runs of the session (./models-v27-COMMANDS.sh, ./models-v28-COMMANDS.sh) are this script with
# RUN, IMGSZ, HOURS, SHARE_FROM (a run folder whose renders, real-tile scenes and recovered checkpoint are
# linked, not made again), LEAVE_OUT (a render folder neither made nor trained on), STAGE=data (stop
# before training), TRAIN_FLAGS (added to the training command, later flags win), RESUME_FLAGS and
# SEED_SHIFT (added to every render seed: new scenes of the same kinds; default 0, the runs above) and
# RENDER_FLAGS (added to every render command; thirty-fourth session: --harsh-light 0.1) and TILE_BOX=1
# (thirty-fifth session: 300 renders of tiles lying in the game's box, a kind no rack is labelled in).
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=${RUN:-/work/runs/models-v26}
PY=.venv/bin/python
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/yolo/Ultralytics
if [ -n "${SHARE_FROM:-}" ]; then
  for part in render real-tiles recovered.pt; do
    [ -e $R/$part ] || [ ! -e $SHARE_FROM/$part ] || ln -s $SHARE_FROM/$part $R/$part
  done
fi
mkdir -p $R/render
font=/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf
[ -f $font ] || font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf  # a machine without fonts-liberation
[ -f $R/yolo/Ultralytics/Arial.ttf ] || cp $font $R/yolo/Ultralytics/Arial.ttf
render() {  # NAME COUNT SEED [--kind K]
  local name=$1 count=$2 seed=$(($3 + ${SEED_SHIFT:-0})); shift 3
  [ "$name" != "${LEAVE_OUT:-}" ] || return 0
  [ -f "$R/render/$name/scenes/$(printf %06d $((count - 1))).json" ] || \
    nice -n 15 $PY -m datasets.render --out $R/render/$name --count $count --seed $seed "$@" --size 800 \
      --workers 2 --sheet 0 --quiet ${RENDER_FLAGS:-}
}
render stacked_rows 250 171 --kind stacked_rows
render rack 120 172 --kind rack
render rack_above 80 173 --kind rack_above
render rack_angle 80 174 --kind rack_angle
render mix 400 160
render game 120 143 --kind game
render rack_front 150 147 --kind rack_front
render rack_wood 60 161 --kind rack_wood
render rack_wood_more 240 175 --kind rack_wood  # new: wooden racks were not found (tuning renders seed 8800: 14 of 40)
[ "${TILE_BOX:-0}" = 0 ] || render tile_box 300 176 --kind tile_box  # thirty-fifth session: tiles in the box
[ -d /work/runs/real-dev-train ] || bash docs/experiments/scripts-s14/split-real-dev.sh
[ -f $R/real-tiles/labels/000799.txt ] || nice -n 15 $PY -m datasets.real_tiles $R/real-tiles \
  --photos /work/runs/real-dev-train --count 800 --seed 2501
[ "${STAGE:-}" != data ] || exit 0  # STAGE=data: make the renders and real-tile scenes, train nothing
scenes=()
for folder in $R/render/*; do [ "$(basename $folder)" = "${LEAVE_OUT:-}" ] || scenes+=("$folder"); done
if [ -f $R/detector/train/weights/last.pt ]; then
  nice -n 15 $PY -m vision.training.detector --out $R/detector --resume --config-dir $R/yolo \
    --export $R/tile_detector.onnx ${RESUME_FLAGS:-} >> $R/train.log 2>&1
else
  [ -f $R/recovered.pt ] || nice -n 15 $PY -m vision.training.recover_checkpoint models/tile_detector.onnx \
    $R/recovered.pt --images $R/render/game/images >> $R/train.log 2>&1
  nice -n 15 $PY -m vision.training.detector --out $R/detector --model $R/recovered.pt \
    --scenes "${scenes[@]}" \
    --real-train /work/runs/real-dev-train:3 /work/shared/real-racks:4@rummy4-86,rummy4-87,rummy4-88,rummy4-89 \
      $R/real-tiles \
    --real-val /work/runs/real-dev-measure /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
    --imgsz ${IMGSZ:-448} --epochs 40 --hours ${HOURS:-1.8} --batch 16 --workers 1 --threads 2 --seed 8 --optimizer AdamW \
    --lr0 0.00003 --save-period 1 --config-dir $R/yolo --export $R/tile_detector.onnx ${TRAIN_FLAGS:-} \
    >> $R/train.log 2>&1
fi
