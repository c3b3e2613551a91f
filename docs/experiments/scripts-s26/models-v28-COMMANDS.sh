#!/usr/bin/env bash
# models-v28 (twenty-sixth session, issue 37): models-v27 without the 240 extra wooden racks, i.e. models-v25's
# recipe exactly, at 320, from the shipped detector (models-v25 epoch 11) recovered from its ONNX file. Both
# v26 (448) and v27 (320) lost the rack class in their first epoch (real-racks 0-24 %, hold-out rack tiles in
# racks 70-72 %), which models-v25 did not: is it the wooden racks? 0.35 hours. Resume after a stop: run again.
#
#   nohup bash docs/experiments/scripts-s26/models-v28-COMMANDS.sh > /work/runs/models-v28.log 2>&1 &
RUN=${RUN:-/work/runs/models-v28} IMGSZ=320 HOURS=${HOURS:-0.35} SHARE_FROM=/work/runs/models-v26 \
  LEAVE_OUT=rack_wood_more exec bash "$(dirname "$0")/models-v26-COMMANDS.sh"
