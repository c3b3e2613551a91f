#!/usr/bin/env bash
# cls-v39 (thirty-eighth session, issue 37): the shipped cls-v38 trained on for 12 epochs at 5e-4 with
# cls-v38's crops plus 600 new renders of the kinds where numbers are misread most (seeds 3730-3734), in two
# runs that differ only in SQUEEZE, the share of crops narrowed across or along their tile (`--squeeze`: a
# tile seen from the side, narrower numerals, a rack's faces seen from low: half of the misread numbers on
# tuning 8900 are on racks at an angle or from the front, `misread_sheet.py`). The hold-outs' reserved
# numeral font is a narrowed one, so the squeeze's figure on those scenes is read apart from the usual
# font's (`scripts-s37/misreads_by_edition.py`).
# Resume after a stop: run again with the same NAME and SQUEEZE.
#
#   NAME=cls-v39s SQUEEZE=0.3 nohup bash docs/experiments/scripts-s38/cls-v39-COMMANDS.sh >> /work/runs/cls-v39/run-s.log 2>&1 &
#   NAME=cls-v39c SQUEEZE=0 nohup bash docs/experiments/scripts-s38/cls-v39-COMMANDS.sh >> /work/runs/cls-v39/run-c.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=/work/runs/cls-v39 NAME=${NAME:?} SQUEEZE=${SQUEEZE:?}
mkdir -p $R/render
[ -f /work/runs/cls-v37b/cls_crops.npz ] || RUN=/work/runs/cls-v37b NAVY=0 SHARE=/work/runs/cls-v37 \
  bash docs/experiments/scripts-s37/cls-v37-COMMANDS.sh
[ -d /work/runs/cls-v38/render/rack_front ] || { echo "cls-v38's renders first (scripts-s37/cls-v38-COMMANDS.sh)"; exit 1; }
render() {  # NAME COUNT SEED [flags]
  local name=$1 count=$2 seed=$3; shift 3
  # One render at a time: the two runs share these folders.
  ( flock 9
    [ -f "$R/render/$name/scenes/$(printf %06d $((count - 1))).json" ] || \
      nice -n 10 .venv/bin/python -m datasets.render --out $R/render/$name --count $count --seed $seed "$@" \
        --size 800 --workers 1 --sheet 0 --quiet
  ) 9> $R/render.lock
}
render game 150 3730 --kind game
render packed 150 3731 --kind packed
render texture 100 3732 --kind texture
render rack_front 100 3733 --kind rack_front
render rack_angle 100 3734 --kind rack_angle
# cls-v38, as shipped at d8531d0 (models/ has moved on since)
[ -f $R/start.onnx ] || git show d8531d0:models/tile_classifier.onnx > $R/start.onnx
resume=(); [ -f $R/$NAME-checkpoint.pt ] && resume=(--resume)
adds=()
for dir in /work/runs/cls-v38/render/* $R/render/*; do adds+=(--add-render "$dir"); done
OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m vision.training.classifier \
  --crops /work/runs/cls-v37b/cls_crops.npz "${adds[@]}" --copies 2 --background-patches 6 \
  --hard-negatives models/tile_detector.onnx \
  --real /work/runs/real-dev-train --real-copies 8 --real-val /work/runs/real-dev-measure \
  --checkpoint $R/$NAME-checkpoint.pt --out $R/$NAME.onnx --heads split --squeeze "$SQUEEZE" \
  --epochs 12 --batch-size 64 --lr 5e-4 --seed 1 --threads 1 --distil 0 \
  --init-onnx $R/start.onnx "${resume[@]}" >> $R/$NAME.log 2>&1
echo "$NAME done"
