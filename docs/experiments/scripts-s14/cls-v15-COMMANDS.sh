#!/usr/bin/env bash
# cls-v15 (fourteenth session, issue 37): the lead crop classifier trained on from the shipped one, on the
# cls-v14 crop cache (1,100 renders of every kind, models-v13/v14) plus 8 jittered crops of each tile of the
# real-dev photos of /work/runs/real-dev-train (46 of 93: split-real-dev.sh), distilled from the shipped
# ensemble as cls-v14 was; the other 47 photos (real-dev-measure) are reported each epoch and never trained
# on. Aim: a lead that reads real numerals as the faces model does, so that it is sure more often and the
# faces model is consulted less (the classify stage is 1.6x the detector's forward pass). Resume: run again.
set -euo pipefail
cd /work/main
R=/work/runs/cls-v15
mkdir -p $R
resume=(); [ -f $R/cls_checkpoint.pt ] && resume=(--resume)
OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m vision.training.classifier \
  --crops /work/runs/cls-v14/cls_crops.npz --real /work/runs/real-dev-train --real-copies 8 \
  --real-val /work/runs/real-dev-measure --checkpoint $R/cls_checkpoint.pt --out $R/tile_classifier.onnx \
  --epochs 8 --batch-size 64 --lr 1e-3 --seed 0 --threads 1 --teacher models --distil 0.5 \
  --init-onnx models/tile_classifier.onnx "${resume[@]}" >> $R/train.log 2>&1
