#!/usr/bin/env bash
# What each extra look of the detector buys with the shipped models (models-v31 epochs 9-13, the rack check at
# 0.6): every look on, then each look off alone (`../scripts-s31/looks_off.py`), on the 200 hold-out renders
# (seed 9100, never tuned on), real-dev-measure and real-racks (tuning photos). For the model card's table of
# the looks (issue 37: "every extra look either deleted ... or kept with its measured figure").
#
#   bash docs/experiments/scripts-s32/looks-figures.sh > /work/runs/s32/looks.log 2>&1
# Figures in /work/runs/s32/looks/LOOK-{holdout,devmeasure,racks}.{txt,json} (LOOK "all-on": none off).
set -euo pipefail
cd "$(dirname "$0")/../../.."
O=/work/runs/s32/looks PY=".venv/bin/python docs/experiments/scripts-s31/looks_off.py"
mkdir -p $O
for look in all-on rack_look sloped_rack_look faint_look small_tiles_look; do
  off=$look; [ $look != all-on ] || off=
  [ -f $O/$look-holdout.json ] || LOOKS_OFF=$off nice -n 5 $PY vision.evaluation.scenes /work/runs/size-exp/holdout \
    --json $O/$look-holdout.json > $O/$look-holdout.txt
  [ -f $O/$look-devmeasure.json ] || LOOKS_OFF=$off nice -n 5 $PY vision.evaluation.reading \
    --images /work/runs/real-dev-measure/images --labels /work/runs/real-dev-measure/labels --fix-known-errors \
    --json $O/$look-devmeasure.json > $O/$look-devmeasure.txt
  [ -f $O/$look-racks.json ] || LOOKS_OFF=$off nice -n 5 $PY vision.evaluation.real_racks /work/shared/real-racks \
    --json $O/$look-racks.json > $O/$look-racks.txt
  echo "$look done"
done
