#!/usr/bin/env bash
# models-v36 (thirty-fifth session, issue 37): the shipped detector (models-v35 epochs 5-7 averaged) trained on
# with models-v35's renders and, new, 300 renders of tiles lying in the game's box (`--kind tile_box`, seed
# 2176, harsh light as the others: the box is no rack there, and the shipped files put 3-9 % of such tiles on
# racks; the outside check's false racks included tiles in the box). Starts from the averaged checkpoint
# where this machine has it (/work/runs/s32/det/v35e5-7.pt), else from the shipped file recovered from its
# ONNX file (the same weights). Every epoch kept; screen with ../scripts-s32/screen-candidate.sh (RACK=0.25).
#
#   nohup bash docs/experiments/scripts-s35/models-v36-COMMANDS.sh >> /work/runs/models-v36.log 2>&1 &
#
# Resume after a stop: run the same line again.
set -euo pipefail
R=${RUN:-/work/runs/models-v36}
FROM=${FROM:-/work/runs/s32/det/v35e5-7.pt}
mkdir -p $R/render
[ -e $R/recovered.pt ] || [ ! -f $FROM ] || ln -s $FROM $R/recovered.pt
for kind in /work/runs/models-v35/render/*; do  # models-v35's renders where this machine has them
  [ -e $R/render/$(basename $kind) ] || ln -s $kind $R/render/$(basename $kind)
done
[ -e $R/real-tiles ] || [ ! -d /work/runs/models-v35/real-tiles ] || ln -s /work/runs/models-v35/real-tiles $R/real-tiles
RUN=$R IMGSZ=320 SEED_SHIFT=2000 LEAVE_OUT=rack_wood_more RENDER_FLAGS="--harsh-light 0.1" TILE_BOX=1 \
  HOURS=${HOURS:-2.5} TRAIN_FLAGS=--keep-norm-statistics RESUME_FLAGS=--keep-norm-statistics \
  exec bash "$(dirname "$0")/../scripts-s26/models-v26-COMMANDS.sh"
