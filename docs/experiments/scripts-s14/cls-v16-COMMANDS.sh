#!/usr/bin/env bash
# cls-v16 (fourteenth session, issue 37): as cls-v15 (the lead crop classifier trained on from the shipped one,
# on the cls-v14 crop cache plus 8 jittered crops of each tile of the 46 real-dev-train photos; real-dev-measure
# reported each epoch, never trained on), but learning from the labels only, not distilled from the shipped
# ensemble: cls-v14 and cls-v15, both distilled, each found more false tiles on the hold-out. Resume: run again.
set -euo pipefail
cd /work/main
R=/work/runs/cls-v16
mkdir -p $R
resume=(); [ -f $R/cls_checkpoint.pt ] && resume=(--resume)
OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m vision.training.classifier \
  --crops /work/runs/cls-v14/cls_crops.npz --real /work/runs/real-dev-train --real-copies 8 \
  --real-val /work/runs/real-dev-measure --checkpoint $R/cls_checkpoint.pt --out $R/tile_classifier.onnx \
  --epochs 8 --batch-size 64 --lr 1e-3 --seed 0 --threads 1 --distil 0 \
  --init-onnx models/tile_classifier.onnx "${resume[@]}" >> $R/train.log 2>&1
