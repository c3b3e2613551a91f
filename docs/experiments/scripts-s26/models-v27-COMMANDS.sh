#!/usr/bin/env bash
# models-v27 (twenty-sixth session, issue 37): models-v26's data (models-v25's recipe and 240 more wooden racks)
# with the shipped detector trained on at 320, its own training size: at 448 (models-v26) the rack class
# scored 0.1-0.16 lower and did not come back. The renders, real-tile scenes and recovered checkpoint are
# models-v26's (linked, not made again). 0.7 hours. Resume after a stop: run again.
#
#   nohup bash docs/experiments/scripts-s26/models-v27-COMMANDS.sh > /work/runs/models-v27.log 2>&1 &
RUN=${RUN:-/work/runs/models-v27} IMGSZ=320 HOURS=${HOURS:-0.7} SHARE_FROM=/work/runs/models-v26 \
  exec bash "$(dirname "$0")/models-v26-COMMANDS.sh"
