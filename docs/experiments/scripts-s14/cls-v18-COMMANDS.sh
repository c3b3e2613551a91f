#!/usr/bin/env bash
# cls-v18 (fourteenth session, issue 37): as cls-v17, with 200 renders of textured cloths added beside its 400
# `inks` renders, and from both added sets 8 not-a-tile patches of bare table a scene and every box the shipped
# detector finds where no tile lies (`--hard-negatives`): cls-v17 read patterned cloth as black 8s (tuning
# renders, seed 8200: 8 false tiles against the shipped ensemble's 5). Resume: run again.
set -euo pipefail
cd /work/main
R=/work/runs/cls-v18
mkdir -p $R
[ -e $R/render/inks ] || { mkdir -p $R/render; ln -s /work/runs/cls-v17/render/inks $R/render/inks; }
if [ ! -f "$R/render/texture/scenes/000199.json" ]; then
  nice -n 5 .venv/bin/python -m datasets.render --out $R/render/texture --count 200 --seed 145 --kind texture --size 800 --workers 1 --sheet 0 --quiet
fi
resume=(); [ -f $R/cls_checkpoint.pt ] && resume=(--resume)
OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m vision.training.classifier \
  --crops /work/runs/cls-v14/cls_crops.npz --add-render $R/render/inks --add-render $R/render/texture --copies 2 \
  --background-patches 8 --hard-negatives models/tile_detector.onnx \
  --real /work/runs/real-dev-train --real-copies 8 \
  --real-val /work/runs/real-dev-measure --checkpoint $R/cls_checkpoint.pt --out $R/tile_classifier.onnx \
  --epochs 8 --batch-size 64 --lr 1e-3 --seed 0 --threads 1 --distil 0 \
  --init-onnx models/tile_classifier.onnx "${resume[@]}" >> $R/train.log 2>&1
