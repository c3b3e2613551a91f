#!/usr/bin/env bash
# Thirty-seventh session (issue 37): the reader with other crop classifiers (the classifier files and
# classifiers.json of MODELS_DIR, the detector the shipped one), on real-dev-measure (47 photos never trained
# on; tuning), real-dev-train (a training figure), real-racks (tuning), tuning renders seed 8900, and, read only
# for what ships, hold-outs 9100 and 9900 and the navy edition's hold-out 9300 (`--variants dark_blue`).
# Figures in /work/runs/s37/fig/NAME-*.
#   bash docs/experiments/scripts-s37/measure-cls.sh NAME [MODELS_DIR]     (no MODELS_DIR: models/)
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1; models=${2:-models}
F=/work/runs/s37/fig PY=.venv/bin/python
mkdir -p $F
[ -f /work/runs/s28/navy-holdout/images/000099.jpg ] || nice -n 5 $PY -m datasets.render --out /work/runs/s28/navy-holdout \
  --count 100 --seed 9300 --variants dark_blue --size 1024 --workers 1 --sheet 0 --quiet
run=("$PY" docs/experiments/scripts-s13/classify_settings.py --models "$models")
for half in measure train; do
  "${run[@]}" vision.evaluation.reading --images /work/runs/real-dev-$half/images \
    --labels /work/runs/real-dev-$half/labels --fix-known-errors --json $F/$name-dev$half.json > $F/$name-dev$half.txt
done
"${run[@]}" vision.evaluation.real_racks /work/shared/real-racks --errors --json $F/$name-racks.json > $F/$name-racks.txt
for part in tune8900:/work/runs/s36/render8900 h9100:/work/runs/size-exp/holdout h9900:/work/runs/s36/render9900 \
    navy9300:/work/runs/s28/navy-holdout; do
  "${run[@]}" vision.evaluation.scenes ${part#*:} --json $F/$name-${part%%:*}.json > $F/$name-${part%%:*}.txt
done
for part in devmeasure devtrain racks tune8900 h9100 h9900 navy9300; do
  echo "$part: $(grep -E '^(recall|precision|end_to_end|false_tiles_per_scene|rack_tiles_in_racks|end_to_end_accuracy|photos_wholly_right|tiles_right|colour_errors|number_errors) ' \
    $F/$name-$part.txt | awk '{print $1"="$NF}' | tr '\n' ' ')"
done
