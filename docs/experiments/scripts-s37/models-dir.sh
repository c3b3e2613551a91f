#!/usr/bin/env bash
# A copy of models/ with another lead crop classifier (its int8 copy made as the shipped one's was), for
# ./measure-cls.sh NAME DIR.   bash docs/experiments/scripts-s37/models-dir.sh DIR CLASSIFIER.onnx
set -euo pipefail
cd "$(dirname "$0")/../../.."
dir=$1 onnx=$2
mkdir -p $dir
cp models/*.onnx models/*.json $dir/
cp $onnx $dir/tile_classifier.onnx
OMP_NUM_THREADS=1 .venv/bin/python -m vision.training.quantize $dir/tile_classifier.onnx | tail -1
