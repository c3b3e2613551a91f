#!/usr/bin/env bash
# models-v29 (twenty-seventh session, issue 37): models-v27's run (models-v25's recipe with 240 more wooden
# racks, at 320, from the shipped detector recovered from its ONNX file) with the batch norms' statistics kept
# as recovered (--keep-norm-statistics). One epoch at learning rate 0 (./first-epoch-trial.sh lr0) lost the
# rack class as every earlier run from the recovered checkpoint did (hold-out rack tiles in racks 88.60 ->
# 60.40 %, real-racks 0 racks found): the statistics of training batches, not the learning, moved the network
# away from the function it was recovered as. With them kept, one epoch at 3e-5 gained on both (89.23 %,
# real-racks 75.47 %). Resume after a stop: run again.
#
#   nohup bash docs/experiments/scripts-s27/models-v29-COMMANDS.sh > /work/runs/models-v29.log 2>&1 &
RUN=${RUN:-/work/runs/models-v29} IMGSZ=320 HOURS=${HOURS:-2.0} TRAIN_FLAGS=--keep-norm-statistics \
  RESUME_FLAGS=--keep-norm-statistics exec bash "$(dirname "$0")/../scripts-s26/models-v26-COMMANDS.sh"
