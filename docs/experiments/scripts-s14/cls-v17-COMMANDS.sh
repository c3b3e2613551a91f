#!/usr/bin/env bash
# cls-v17 (fourteenth session, issue 37 and 36): as cls-v16 (labels only, real-dev-train crops), with the crops
# of 400 renders of the `inks` kind added (every edition differs from the usual print: thin and large numerals,
# marks under 6 and 9, other inks): a new tuning game video (seed 1204 game 1, an edition of large numerals
# with a bar under the 9) had its 8s read 13 and its 9s read 10 by both shipped classifiers, on clear crops
# (the outside check: "a large-numeral edition 6 of 14 right"). The cls-v14 cache has no `inks` scenes.
# Resume: run again.
set -euo pipefail
cd /work/main
R=/work/runs/cls-v17
mkdir -p $R
if [ ! -f "$R/render/inks/scenes/000399.json" ]; then
  nice -n 5 .venv/bin/python -m datasets.render --out $R/render/inks --count 400 --seed 144 --kind inks --size 800 --workers 1 --sheet 0 --quiet
fi
resume=(); [ -f $R/cls_checkpoint.pt ] && resume=(--resume)
OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m vision.training.classifier \
  --crops /work/runs/cls-v14/cls_crops.npz --add-render $R/render/inks --copies 2 \
  --real /work/runs/real-dev-train --real-copies 8 \
  --real-val /work/runs/real-dev-measure --checkpoint $R/cls_checkpoint.pt --out $R/tile_classifier.onnx \
  --epochs 8 --batch-size 64 --lr 1e-3 --seed 0 --threads 1 --distil 0 \
  --init-onnx models/tile_classifier.onnx "${resume[@]}" >> $R/train.log 2>&1
