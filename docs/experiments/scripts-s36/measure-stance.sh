#!/usr/bin/env bash
# The whole reader as the checkout has it (with or without models/tile_stance.onnx) on the hold-out renders
# 9100, 9700 and 9900 (9900 drawn this session and measured only here), the hold-out renders of tiles in the
# box (9400), real-dev-train and real-dev-measure zoomed out 1.6 / 1.8 / 2 (tuning photos).
#
#   bash docs/experiments/scripts-s36/measure-stance.sh NAME
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 F=/work/runs/s36/fig Z=/work/runs/zoomed PY=.venv/bin/python
mkdir -p $F
for set in h9100:/work/runs/size-exp/holdout h9700:/work/runs/s31/holdout9700 h9900:/work/runs/s36/render9900 \
    box9400:/work/runs/eval/holdout9400-tile_box; do
  $PY -m vision.evaluation.scenes "${set#*:}" --json $F/$name-${set%%:*}.json > $F/$name-${set%%:*}.txt
done
for z in 1.6 1.8 2.0; do
  $PY -m vision.evaluation.reading --images $Z/measure-z$z/images --labels $Z/measure-z$z/labels \
    --json $F/$name-z$z.json > $F/$name-z$z.txt
done
$PY -m vision.evaluation.reading --images /work/runs/real-dev-train/images \
  --labels /work/runs/real-dev-train/labels --fix-known-errors --json $F/$name-devtrain.json > $F/$name-devtrain.txt
for part in h9100 h9700 h9900 box9400 z1.6 z1.8 z2.0 devtrain; do
  echo "$part: $(grep -E '^(recall|end_to_end|false_tiles_per_scene|rack_tiles_in_racks|table_tiles_put_on_racks|racks_in_owner_order|end_to_end_accuracy|perfect_photos_share|false_tiles|photos_with_a_rack|tiles_put_on_racks) ' \
    $F/$name-$part.txt | awk '{print $1"="$NF}' | tr '\n' ' ')"
done
