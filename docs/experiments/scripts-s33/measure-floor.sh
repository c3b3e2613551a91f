#!/usr/bin/env bash
# The shipped detector with its rack floor (metadata `rack_confidence`) set to FLOOR instead of 0.35, measured
# in full as a candidate is: real-dev halves, real-racks, zoomed real-dev, hold-out 9100
# (../scripts-s30/measure-rack-check.sh) and hold-out 9700. Figures /work/runs/size-exp/fig/v31c-rFLOOR*.
#
#   bash docs/experiments/scripts-s33/measure-floor.sh 0.25
set -euo pipefail
cd "$(dirname "$0")/../../.."
floor=$1 name=v31c-r${1#0.} det=/work/runs/s33/det-r${1#0.}.onnx
cp models/tile_detector.onnx $det
.venv/bin/python -c "from pathlib import Path; from vision.training.detector import stamp_rack_confidence
stamp_rack_confidence(Path('$det'), $floor)"
bash docs/experiments/scripts-s30/measure-rack-check.sh $name $det models/rack_check.onnx
nice -n 5 .venv/bin/python -m vision.evaluation.scenes /work/runs/s31/holdout9700 --detector $det \
  --json /work/runs/size-exp/fig/$name-h9700.json > /work/runs/size-exp/fig/$name-h9700.txt
echo DONE
