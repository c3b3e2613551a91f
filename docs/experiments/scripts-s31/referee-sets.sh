#!/usr/bin/env bash
# The referee's sets with the shipped files (after the tier change), then with the candidate files put in
# models/ (models-v31 epochs 9-13 at 0.35, the rack check at 0.6), put back at the end. Thirty-first session.
#
#   bash docs/experiments/scripts-s31/referee-sets.sh > LOG 2>&1
cd /work/main
D=/work/runs/referee-videos P=/work/runs/referee-photos
sets() {
  tag=$1
  for set in holdout2 navy-holdout lights holdout; do
    echo "$tag $set $(.venv/bin/python benchmarks/measure_referee_set.py $set-$tag $D/results/$set-$tag.json $D/$set/seed* 2>&1 | grep ' all')"
  done
  for set in zoom-holdout zoom18 zoom2; do
    echo "$tag $set $(.venv/bin/python benchmarks/measure_referee_set.py $set-$tag $P/results/$set-$tag.json $P/$set/seed* 2>&1 | grep ' all')"
  done
}
sets s31base
mkdir -p /work/runs/s31/ref/kept && cp models/tile_detector.onnx models/rack_check.onnx /work/runs/s31/ref/kept/
trap 'cp /work/runs/s31/ref/kept/tile_detector.onnx /work/runs/s31/ref/kept/rack_check.onnx models/' EXIT
cp /work/runs/s31/det/v31-avg9-13-r35.onnx models/tile_detector.onnx
cp /work/runs/s31/rc1-t0.6.onnx models/rack_check.onnx
sets s31v31c
echo DONE
