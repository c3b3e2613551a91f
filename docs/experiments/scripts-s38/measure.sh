#!/usr/bin/env bash
# Thirty-eighth session: scripts-s37/measure-cls.sh's sets (real-dev-measure, real-dev-train, real-racks,
# tuning 8900, hold-outs 9100 and 9900, navy 9300) plus the tuning rack renders 8800 (rack_front, rack_above,
# rack_angle, rack_wood, tile_box), read by the reader with MODELS_DIR's classifier files, classifiers.json
# and tile_stance.onnx (the detector the shipped one). Figures in /work/runs/s38/fig/NAME-*.
#   bash docs/experiments/scripts-s38/measure.sh NAME [MODELS_DIR]     (no MODELS_DIR: models/)
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1; models=${2:-models}
F=/work/runs/s38/fig PY=.venv/bin/python E=/work/runs/eval
mkdir -p $F
run=("$PY" docs/experiments/scripts-s13/classify_settings.py --models "$models")
"${run[@]}" vision.evaluation.scenes $E/tune8800-rack_front $E/tune8800-rack_above $E/tune8800-rack_angle \
  $E/tune8800-rack_wood $E/tune8800-tile_box --json $F/$name-racks8800.json > $F/$name-racks8800.txt
for part in tune8900:/work/runs/s36/render8900 h9100:/work/runs/size-exp/holdout h9900:/work/runs/s36/render9900 \
    navy9300:/work/runs/s28/navy-holdout; do
  "${run[@]}" vision.evaluation.scenes ${part#*:} --json $F/$name-${part%%:*}.json > $F/$name-${part%%:*}.txt
done
for half in measure train; do
  "${run[@]}" vision.evaluation.reading --images /work/runs/real-dev-$half/images \
    --labels /work/runs/real-dev-$half/labels --fix-known-errors --json $F/$name-dev$half.json > $F/$name-dev$half.txt
done
"${run[@]}" vision.evaluation.real_racks /work/shared/real-racks --errors --json $F/$name-racks.json > $F/$name-racks.txt
for part in devmeasure devtrain racks racks8800 tune8900 h9100 h9900 navy9300; do
  echo "$part: $(grep -E '^(recall|precision|end_to_end|false_tiles_per_scene|rack_tiles_in_racks|table_tiles_put_on_racks|table_sets_whole|table_sets_exact|end_to_end_accuracy|photos_wholly_right|tiles_right|found_number_wrong) ' \
    $F/$name-$part.txt | awk '{print $1"="$NF}' | tr '\n' ' ')"
done
