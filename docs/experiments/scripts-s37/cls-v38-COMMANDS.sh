#!/usr/bin/env bash
# cls-v38 (thirty-seventh session, issue 37): the shipped lead (cls-v37bs, number and colour heads) trained on
# for 12 epochs at half its learning rate (5e-4), its crops (cls-v37b's cache) plus 500 renders of the scene
# kinds where hold-out numbers are misread most (`scripts-s37/misreads_by_edition.py`: game tables, packed rows,
# textured cloths, racks from the front; seeds 3720-3723). Resume after a stop: run again. A run longer than
# a session: the checkpoint stays in /work/runs/cls-v38 (a new machine loses it: start again from models/).
#
#   nohup bash docs/experiments/scripts-s37/cls-v38-COMMANDS.sh >> /work/runs/cls-v38/run.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=/work/runs/cls-v38
mkdir -p $R/render
# On a new machine cls-v37b's crop cache is made again by its own script (which trains its two runs too).
[ -f /work/runs/cls-v37b/cls_crops.npz ] || RUN=/work/runs/cls-v37b NAVY=0 SHARE=/work/runs/cls-v37 \
  bash docs/experiments/scripts-s37/cls-v37-COMMANDS.sh
render() {  # NAME COUNT SEED [flags]
  local name=$1 count=$2 seed=$3; shift 3
  [ -f "$R/render/$name/scenes/$(printf %06d $((count - 1))).json" ] || \
    nice -n 10 .venv/bin/python -m datasets.render --out $R/render/$name --count $count --seed $seed "$@" \
      --size 800 --workers 1 --sheet 0 --quiet
}
render game 150 3720 --kind game
render packed 150 3721 --kind packed
render texture 100 3722 --kind texture
render rack_front 100 3723 --kind rack_front
# cls-v37bs, as shipped at 678ff1d (models/ has moved on since)
[ -f $R/start.onnx ] || git show 678ff1d:models/tile_classifier.onnx > $R/start.onnx
resume=(); [ -f $R/checkpoint.pt ] && resume=(--resume)
OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m vision.training.classifier \
  --crops /work/runs/cls-v37b/cls_crops.npz --add-render $R/render/game --add-render $R/render/packed \
  --add-render $R/render/texture --add-render $R/render/rack_front --copies 2 --background-patches 6 \
  --hard-negatives models/tile_detector.onnx \
  --real /work/runs/real-dev-train --real-copies 8 --real-val /work/runs/real-dev-measure \
  --checkpoint $R/checkpoint.pt --out $R/cls-v38.onnx --heads split \
  --epochs 12 --batch-size 64 --lr 5e-4 --seed 1 --threads 1 --distil 0 \
  --init-onnx $R/start.onnx "${resume[@]}" >> $R/train.log 2>&1
echo "cls-v38 done"
