#!/usr/bin/env bash
# models-v32 (thirty-second session, issue 37): models-v31 trained on, on new scenes. models-v31 (models-v30's
# last epoch trained on with the same renders) ended after 24 epochs (0-23) with its real validation flat since epoch
# 6 (mAP50 0.94-0.97 on real-dev-measure and four real racks): the same 1,500 renders seen again teach it
# little more. This run starts from models-v31's last epoch (last.pt) on the same kinds of scenes rendered
# afresh (every render seed shifted by 1000), the same real photos, learning rate and kept statistics, the
# extra wooden racks left out as in v28-v31.
#
#   nohup bash docs/experiments/scripts-s32/models-v32-COMMANDS.sh >> /work/runs/models-v32.log 2>&1 &
#
# Resume after a stop: run the same line again (the renders made are kept; training carries on from last.pt).
set -euo pipefail
R=${RUN:-/work/runs/models-v32}
FROM=${FROM:-/work/runs/models-v31/detector/train/weights/last.pt}
mkdir -p $R
[ -e $R/recovered.pt ] || ln -s $FROM $R/recovered.pt  # the script's starting weights
[ -e $R/real-tiles ] || ln -s /work/runs/models-v29/real-tiles $R/real-tiles
RUN=$R IMGSZ=320 SEED_SHIFT=1000 LEAVE_OUT=rack_wood_more HOURS=${HOURS:-2} \
  TRAIN_FLAGS=--keep-norm-statistics RESUME_FLAGS=--keep-norm-statistics \
  exec bash "$(dirname "$0")/../scripts-s26/models-v26-COMMANDS.sh"
