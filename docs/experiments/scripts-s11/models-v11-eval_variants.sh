#!/usr/bin/env bash
# For one exported epoch (eval/eE.onnx): it alone and blended half with the shipped detector, each at rack
# thresholds 0.35 and 0.5, on real-racks and real-dev (tuning figures). Usage: eval_variants.sh epoch2
set -uo pipefail
cd /work/main
R=${R:-/work/runs/models-v11}; E=$1
.venv/bin/python docs/experiments/scripts-s11/blend.py models/tile_detector.onnx $R/eval/e$E.onnx 0.5 $R/eval/blend-$E-0.5.onnx >/dev/null
for M in e$E blend-$E-0.5; do for rc in 0.35 0.5; do
  a=$(nice -n 10 .venv/bin/python -m vision.evaluation.real_racks /work/shared/real-racks --detector $R/eval/$M.onnx --rack-conf $rc | awk '{printf "%s=%s ", $1, $2}')
  b=$(nice -n 10 .venv/bin/python -m vision.evaluation.reading --images /work/shared/real-dev/images --labels /work/shared/real-dev/labels --fix-known-errors --detector $R/eval/$M.onnx --rack-conf $rc | grep -E "^(detection_recall|false_tiles |end_to_end_accuracy|tiles_put_on_racks|photos_with_a_rack)" | awk '{printf "%s=%s ", $1, $2}')
  echo "$M rack $rc | racks: $a| dev: $b"
done; done
