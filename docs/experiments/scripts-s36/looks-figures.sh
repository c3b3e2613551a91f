#!/usr/bin/env bash
# What each extra look of the detector buys with the files shipped since the thirty-fifth session (models-v35
# epochs 5-7, the rack check as shipped): every look on, then each look off alone (`../scripts-s31/looks_off.py`),
# on the hold-out renders 9100 and 9700 (never tuned on), the tuning rack renders (seed 8800: front, above,
# angle, wood), real-dev-measure and real-racks (tuning photos). The model card's table of the looks was
# measured with models-v31 (thirty-second session); issue 37: "every extra look either deleted because the
# new models do not need it or kept with its measured figure".
#
#   bash docs/experiments/scripts-s36/looks-figures.sh > /work/runs/s36/looks.log 2>&1
# Figures in /work/runs/s36/looks/LOOK-SET.{txt,json} (LOOK "all-on": none off).
set -euo pipefail
cd "$(dirname "$0")/../../.."
O=/work/runs/s36/looks PY=".venv/bin/python docs/experiments/scripts-s31/looks_off.py"
mkdir -p $O
for look in ${LOOKS:-all-on sloped_rack_look rack_look faint_look small_tiles_look}; do
  off=$look; [ $look != all-on ] || off=
  for set in holdout:/work/runs/size-exp/holdout h9700:/work/runs/s31/holdout9700 \
      racks8800:"/work/runs/eval/tune8800-rack_front /work/runs/eval/tune8800-rack_above /work/runs/eval/tune8800-rack_angle /work/runs/eval/tune8800-rack_wood"; do
    name=${set%%:*} dirs=${set#*:}
    # shellcheck disable=SC2086
    [ -f $O/$look-$name.json ] || LOOKS_OFF=$off $PY vision.evaluation.scenes $dirs \
      --json $O/$look-$name.json > $O/$look-$name.txt
  done
  [ -f $O/$look-devmeasure.json ] || LOOKS_OFF=$off $PY vision.evaluation.reading \
    --images /work/runs/real-dev-measure/images --labels /work/runs/real-dev-measure/labels --fix-known-errors \
    --json $O/$look-devmeasure.json > $O/$look-devmeasure.txt
  [ -f $O/$look-racks.json ] || LOOKS_OFF=$off $PY vision.evaluation.real_racks /work/shared/real-racks \
    --json $O/$look-racks.json > $O/$look-racks.txt
  echo "$look done $(date +%H:%M)"
done
