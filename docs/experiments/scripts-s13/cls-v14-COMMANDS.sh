#!/usr/bin/env bash
# cls-v14 (thirteenth session, issue 37): the lead crop classifier trained on from the shipped one
# (--init-onnx), distilled from the shipped ensemble (--teacher models: its soft readings, the faces model's
# knowledge of real numerals among them), on crops of the models-v13/v14 renders (1,100 scenes of every kind),
# so that it is surer where the ensemble is sure and the faces model is consulted less (the classify stage is
# 1.4x the detector's forward pass on a 52-tile photo, most of it consulting and re-reading). Resume: run again.
set -euo pipefail
cd /work/main
R=/work/runs/cls-v14
renders=()
for d in /work/runs/models-v14/render/*; do renders+=(--render "$d"); done
resume=(); [ -f $R/cls_checkpoint.pt ] && resume=(--resume)
OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m vision.training.classifier "${renders[@]}" \
  --crops $R/cls_crops.npz --checkpoint $R/cls_checkpoint.pt --out $R/tile_classifier.onnx \
  --epochs 8 --copies 2 --batch-size 64 --lr 1e-3 --seed 0 --threads 1 --background-patches 4 \
  --hard-negatives models/tile_detector.onnx --teacher models --distil 0.5 \
  --init-onnx models/tile_classifier.onnx "${resume[@]}" >> $R/train.log 2>&1
