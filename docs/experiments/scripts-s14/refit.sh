#!/usr/bin/env bash
# Fourteenth session (issue 37): a crop classifier's confidence map refitted for it (`vision.evaluation.scenes
# --fit-confidence`, isotonic, as the shipped map was fitted for the shipped ensemble on tuning renders of seed
# 8000) on 200 tuning renders (seed 8200, train variants: /work/runs/s14/tune-renders), then measured as
# measure-cls.sh measures. NAME: shipped (models/) or a cls-* run with a models/ folder (cls-v16 ...).
#   bash docs/experiments/scripts-s14/refit.sh NAME [classify_settings options: --consult S ...]
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1; shift
src=/work/runs/cls-$name/models; [ "$name" = shipped ] && src=models
out=/work/runs/s14/models-$name-refit
mkdir -p $out && cp $src/*.onnx $src/*.json $out/
nice -n 5 .venv/bin/python docs/experiments/scripts-s13/classify_settings.py --models $src "$@" vision.evaluation.scenes \
  /work/runs/s14/tune-renders --fit-confidence $out/confidence.json > /work/runs/s14/fit-$name.txt
tag=$(echo "$*" | tr -d ' -'); bash docs/experiments/scripts-s14/measure-cls.sh s14-$name-refit$tag --models $out "$@"
