#!/usr/bin/env bash
# cls-v40 (thirty-eighth session, issue 37): cls-v39s trained on for 5 epochs at 2e-4 with the same crops, the
# real-dev-train tiles now teaching their up direction too (`--real-up`: as the shipped classifiers read it,
# where they read the tile right). cls-v39s read an upright real k9 on a rack with its up half turned: real
# crops had taught the number only. real-racks (never trained on by the classifier) is the check.
# Resume after a stop: run again.
#
#   nohup bash docs/experiments/scripts-s38/cls-v40-COMMANDS.sh >> /work/runs/cls-v40/run.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=/work/runs/cls-v40
mkdir -p $R
[ -f /work/runs/cls-v39/cls-v39s.onnx ] || { echo "cls-v39s first (./cls-v39-COMMANDS.sh)"; exit 1; }
[ -f $R/start.onnx ] || cp /work/runs/cls-v39/cls-v39s.onnx $R/start.onnx
resume=(); [ -f $R/checkpoint.pt ] && resume=(--resume)
adds=()
for dir in /work/runs/cls-v38/render/* /work/runs/cls-v39/render/*; do adds+=(--add-render "$dir"); done
OMP_NUM_THREADS=2 nice -n 5 .venv/bin/python -m vision.training.classifier \
  --crops /work/runs/cls-v37b/cls_crops.npz "${adds[@]}" --copies 2 --background-patches 6 \
  --hard-negatives models/tile_detector.onnx \
  --real /work/runs/real-dev-train --real-copies 8 --real-up --real-val /work/runs/real-dev-measure \
  --checkpoint $R/checkpoint.pt --out $R/cls-v40.onnx --heads split --squeeze 0.3 \
  --epochs 5 --batch-size 64 --lr 2e-4 --seed 2 --threads 2 --distil 0 \
  --init-onnx $R/start.onnx "${resume[@]}" >> $R/train.log 2>&1
echo "cls-v40 done"
