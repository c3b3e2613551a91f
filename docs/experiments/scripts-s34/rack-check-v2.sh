#!/usr/bin/env bash
# The rack check trained again (thirty-fourth session, issue 37) on crops that include the light a phone leaves
# uncorrected: models-v34's renders (`datasets.effects.harsh_light`), real-dev-train as it is and made warmer,
# cooler, dimmer, hazier, blurred and noisier at full size and at 0.55 (./photometric.py; every box the detectors
# take for a rack there is no rack), and the training's own dim and veiled crops. Validation as the shipped
# file's recipe (models/README.md): tuning rack renders, real-dev-measure, real-racks 90-93. The crops of the
# extra wooden racks (render/rack_wood_more) are left out before training: with them (rack_check.onnx here)
# the check scored a run of five tiles on a wooden table 0.83 (real-dev-measure rummy-30; shipped 0.37,
# without them 0.06: rc3.onnx, the candidate).
#
#   bash docs/experiments/scripts-s34/rack-check-v2.sh     (then ../scripts-s30/measure-rack-check.sh)
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=/work/runs/s34/rackcheck PY=.venv/bin/python
mkdir -p $R
for scale in "" 55; do
  [ -d /work/runs/s34/rdt-photo$scale/dim ] || $PY docs/experiments/scripts-s34/photometric.py \
    /work/runs/real-dev-train/images /work/runs/real-dev-train/labels /work/runs/s34/rdt-photo$scale \
    $([ -n "$scale" ] && echo 0.$scale)
done
detectors="models/tile_detector.onnx /work/runs/s34/det/v32e11-15-r.onnx"
[ -f $R/train.npz ] || nice -n 5 $PY -m vision.training.rack_check collect $R/train.npz \
  --scenes /work/runs/models-v34/render/* \
  --table-photos /work/runs/real-dev-train /work/runs/s34/rdt-photo/* /work/runs/s34/rdt-photo55/* \
  --rack-photos /work/shared/real-racks@rummy4-86,rummy4-87,rummy4-88,rummy4-89 --detectors $detectors
[ -f $R/val.npz ] || nice -n 5 $PY -m vision.training.rack_check collect $R/val.npz \
  --scenes /work/runs/eval/tune8800-rack_* --table-photos /work/runs/real-dev-measure \
  --rack-photos /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 --detectors $detectors --seed 1
[ -f $R/rack_check.onnx ] || nice -n 5 $PY -m vision.training.rack_check train $R/train.npz --val $R/val.npz \
  --out $R/rack_check.onnx --epochs 10
[ -f $R/train-nowoodmore.npz ] || $PY -c "
import numpy as np
crops = np.load('$R/train.npz')
keep = np.array([not source.startswith('rack_wood_more/') for source in crops['sources']])
np.savez_compressed('$R/train-nowoodmore.npz', **{key: crops[key][keep] for key in crops.files})"
nice -n 5 $PY -m vision.training.rack_check train $R/train-nowoodmore.npz --val $R/val.npz --out $R/rc3.onnx \
  --epochs 10
# Shipped: rc3.onnx with the threshold of the file before it, 0.6 (at its own 0.5 it took a score pad on the
# bundled example for a rack): models/rack_check.onnx.
$PY -c "
import onnx
model = onnx.load('$R/rc3.onnx')
for entry in model.metadata_props:
    if entry.key == 'rack_check':
        entry.value = '0.6'
onnx.save(model, '$R/rc3-t0.6.onnx')"
