#!/usr/bin/env bash
# Retrains the shipped models from rendered scenes; every stage resumes where an earlier run stopped.
#   RUNS=/work/runs/models-v3 bash scripts/train-models.sh          (needs: pip install -e ".[train]")
# Stages: render the training scenes; train the detector (tile + rack) and the crop classifier (53 tiles +
# not a tile) side by side, one torch thread each; export both to models/. Logs: $RUNS/*.log.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-/work/runs/models-v3}
SCENES=${SCENES:-2400}
DETECTOR_HOURS=${DETECTOR_HOURS:-1.1}
CLASSIFIER_EPOCHS=${CLASSIFIER_EPOCHS:-10}
PY=.venv/bin/python
mkdir -p "$RUNS"
export OMP_NUM_THREADS=1

if [ ! -f "$RUNS/render/scenes/$(printf '%06d' $((SCENES - 1))).json" ]; then
  $PY -m datasets.render --out "$RUNS/render" --count "$SCENES" --seed 31 --workers 2 --size 1024 \
    --sheet 16 > "$RUNS/render.log" 2>&1
fi

detector_args=(--out "$RUNS/detector" --export "$RUNS/tile_detector.onnx")
if [ -f "$RUNS/detector/train/weights/last.pt" ]; then
  detector_args+=(--resume)
else
  detector_args+=(--scenes "$RUNS/render" --imgsz 320 --epochs 60 --hours "$DETECTOR_HOURS" --batch 16
                  --workers 1 --threads 1 --seed 0)
fi
classifier_args=(--render "$RUNS/render" --crops "$RUNS/cls_crops.npz" --checkpoint "$RUNS/cls_checkpoint.pt"
                 --out "$RUNS/tile_classifier.onnx" --epochs "$CLASSIFIER_EPOCHS" --copies 2 --batch-size 64
                 --lr 2e-3 --seed 0 --threads 1 --background-patches 4 --hard-negatives models/tile_detector.onnx)
if [ -f "$RUNS/cls_checkpoint.pt" ]; then
  classifier_args+=(--resume)
fi

pids=()
if [ ! -f "$RUNS/tile_detector.onnx" ]; then
  $PY -m vision.training.detector "${detector_args[@]}" >> "$RUNS/detector.log" 2>&1 &
  pids+=($!)
fi
if [ ! -f "$RUNS/tile_classifier.onnx" ]; then
  $PY -m vision.training.classifier "${classifier_args[@]}" >> "$RUNS/classifier.log" 2>&1 &
  pids+=($!)
fi
for pid in "${pids[@]}"; do wait "$pid"; done
echo "done: $RUNS/tile_detector.onnx $RUNS/tile_classifier.onnx (copy them into models/ after measuring)"
