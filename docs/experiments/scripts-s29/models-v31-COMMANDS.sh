#!/usr/bin/env bash
# models-v31 (twenty-ninth session, issue 37): models-v30 trained on. models-v30 (../scripts-s27/
# models-v30-COMMANDS.sh: models-v25's recipe at 320 from the shipped detector recovered from its ONNX file,
# the batch norms' statistics kept) ended by ultralytics' time budget after 23 epochs with its real
# validation still climbing (mAP50 0.67 -> 0.93, the last five epochs 0.88 -> 0.93). This run starts from its
# last epoch (epoch22.pt) with the same data, the same learning rate and the statistics still kept.
#
#   nohup bash docs/experiments/scripts-s29/models-v31-COMMANDS.sh >> /work/runs/models-v31.log 2>&1 &
#
# Resume after a stop: run the same line again (it carries on from last.pt). On a new machine rebuild
# models-v30 first (the twenty-seventh and twenty-eighth sessions' notes) or start from the shipped file.
set -euo pipefail
R=${RUN:-/work/runs/models-v31}
FROM=${FROM:-/work/runs/first-epoch-keepnorm/detector/train/weights/epoch22.pt}
mkdir -p $R
[ -e $R/recovered.pt ] || ln -s $FROM $R/recovered.pt  # the script's starting weights
RUN=$R IMGSZ=320 SHARE_FROM=/work/runs/models-v29 LEAVE_OUT=rack_wood_more HOURS=${HOURS:-2} \
  TRAIN_FLAGS=--keep-norm-statistics RESUME_FLAGS=--keep-norm-statistics \
  exec bash "$(dirname "$0")/../scripts-s26/models-v26-COMMANDS.sh"
