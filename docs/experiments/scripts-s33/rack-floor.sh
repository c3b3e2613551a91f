#!/usr/bin/env bash
# The detector's rack floor (the rack score from which a box is a rack, before the rack check) swept with the
# shipped files (thirty-third session): tuning rack renders (seed 8800), real-racks, real-dev-measure; then
# (after the choice) the hold-outs 9100 and 9700.
#
#   bash docs/experiments/scripts-s33/rack-floor.sh tune|holdout FLOOR...
cd "$(dirname "$0")/../../.."
F=${FLOOR_OUT:-/work/runs/s33/floor} PY=.venv/bin/python
mkdir -p $F
which=$1; shift
for floor in "$@"; do
  if [ "$which" = tune ]; then
    nice -n 5 $PY -m vision.evaluation.scenes /work/runs/eval/tune8800-rack_{front,above,angle,wood} \
      --rack-conf $floor --json $F/tune-$floor.json > $F/tune-$floor.txt
    nice -n 5 $PY -m vision.evaluation.real_racks /work/shared/real-racks --rack-conf $floor \
      --json $F/racks-$floor.json > $F/racks-$floor.txt
    nice -n 5 $PY -m vision.evaluation.reading --images /work/runs/real-dev-measure/images \
      --labels /work/runs/real-dev-measure/labels --fix-known-errors --rack-conf $floor \
      --json $F/devmeasure-$floor.json > $F/devmeasure-$floor.txt
  else
    nice -n 5 $PY -m vision.evaluation.scenes /work/runs/size-exp/holdout --rack-conf $floor \
      --json $F/h9100-$floor.json > $F/h9100-$floor.txt
    nice -n 5 $PY -m vision.evaluation.scenes /work/runs/s31/holdout9700 --rack-conf $floor \
      --json $F/h9700-$floor.json > $F/h9700-$floor.txt
  fi
  echo "$which $floor done"
done
