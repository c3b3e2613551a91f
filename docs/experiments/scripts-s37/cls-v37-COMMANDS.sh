#!/usr/bin/env bash
# Thirty-seventh session (issue 37, "number and colour read apart, as the anchor"): two crop classifiers from
# the same crops, the same start and the same schedule, differing only in their heads:
#   cls-v37s  --heads split: a number head (1-13, joker, not a tile) and a colour head (four inks)
#   cls-v37j  --heads joint: one head of 54 classes (the control: what the same training gives without the split)
# Both start from the shipped lead (cls-v18, --init-onnx; the split heads from its class head split by
# least squares, vision.training.classifier.split_heads_from_joint) and train 8 epochs on the crops of
# ./cls-data.sh's 1,760 renders (2 jittered crops a tile, not-a-tile patches and the shipped detector's boxes
# where no tile lies) and 8 jittered crops of each tile of real-dev-train (46 photos); real-dev-measure is
# reported each epoch, never trained on. As cls-v18 (../scripts-s14/cls-v18-COMMANDS.sh): lr 1e-3, labels
# only. Resume after a stop: run again (each run from its checkpoint).
#
#   nohup bash docs/experiments/scripts-s37/cls-v37-COMMANDS.sh >> /work/runs/cls-v37/run.log 2>&1 &
#
# Second round, cls-v37b (the same without the navy renders, which read a real black 2 on real-racks blue and
# made the navy hold-out a trained-on edition; the renders themselves shared by links):
#   RUN=/work/runs/cls-v37b NAVY=0 SHARE=/work/runs/cls-v37 nohup bash docs/experiments/scripts-s37/cls-v37-COMMANDS.sh \
#     >> /work/runs/cls-v37b/run.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=${RUN:-/work/runs/cls-v37}
mkdir -p $R/render
if [ -n "${SHARE:-}" ]; then
  for d in $SHARE/render/*; do
    [ "$(basename $d)" = navy ] && [ "${NAVY:-1}" = 0 ] && continue
    [ -e $R/render/$(basename $d) ] || ln -s $d $R/render/$(basename $d)
  done
fi
RUN=$R bash docs/experiments/scripts-s37/cls-data.sh
[ -d /work/runs/real-dev-train ] || bash docs/experiments/scripts-s14/split-real-dev.sh
renders=()
for d in $R/render/*; do renders+=(--render "$d"); done
train() {  # HEADS NAME
  local heads=$1 name=$2 resume=()
  [ ! -f $R/$name.onnx ] || return 0
  [ -f $R/$name-checkpoint.pt ] && resume=(--resume)
  OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m vision.training.classifier "${renders[@]}" \
    --crops $R/cls_crops.npz --copies 2 --background-patches 6 --hard-negatives models/tile_detector.onnx \
    --real /work/runs/real-dev-train --real-copies 8 --real-val /work/runs/real-dev-measure \
    --checkpoint $R/$name-checkpoint.pt --out $R/$name.onnx --heads $heads \
    --epochs 8 --batch-size 64 --lr 1e-3 --seed 0 --threads 1 --distil 0 \
    --init-onnx models/tile_classifier.onnx "${resume[@]}" >> $R/$name.log 2>&1
}
split=$(basename $R)s joint=$(basename $R)j
if [ ! -f $R/cls_crops.npz ]; then  # cut the crops once (the split run), then both runs side by side
  train split $split &
  until [ -f $R/cls_crops.npz ] && grep -q "crops into" $R/$split.log; do sleep 20; done
  train joint $joint
  wait
else
  train split $split & train joint $joint; wait
fi
echo "$(basename $R) done"
