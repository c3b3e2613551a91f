#!/usr/bin/env bash
# models-v35 (thirty-fifth session, issue 37), on a new machine (every /work/runs folder lost, models-v34's
# checkpoints with it): models-v34's recipe (renders with the light a phone leaves uncorrected,
# --harsh-light 0.1, render seeds shifted by 2000; the extra wooden racks left out; batch norms kept in
# evaluation mode) started from the shipped detector recovered from its ONNX file (the v26 script recovers
# it when $RUN/recovered.pt is missing), as models-v26..v28 did on their new machines.
#
#   nohup bash docs/experiments/scripts-s35/models-v35-COMMANDS.sh >> /work/runs/models-v35.log 2>&1 &
#
# Resume after a stop: run the same line again (the renders made are kept; training carries on from last.pt).
set -euo pipefail
RUN=${RUN:-/work/runs/models-v35} IMGSZ=320 SEED_SHIFT=2000 LEAVE_OUT=rack_wood_more \
  RENDER_FLAGS="--harsh-light 0.1" HOURS=${HOURS:-2.5} \
  TRAIN_FLAGS=--keep-norm-statistics RESUME_FLAGS=--keep-norm-statistics \
  exec bash "$(dirname "$0")/../scripts-s26/models-v26-COMMANDS.sh"
