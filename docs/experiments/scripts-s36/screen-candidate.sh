#!/usr/bin/env bash
# A detector candidate screened on tuning sets only (thirty-sixth session). The screen before this one
# (../scripts-s32/screen-candidate.sh) chose candidates on hold-out renders 9100 and 9700, which made them
# tuning sets; this one chooses on: real-racks, real-dev-measure (tuning photos), renders of seed 8900 (200,
# the hold-out editions and cloths, tuning), the tuning rack renders (seed 8800: front, above, angle, wood) and
# the tuning renders of tiles in the box (seed 8800). Hold-out 9900 is measured only for what ships.
# Epochs averaged (../scripts-s27/average_epochs.py), exported at 448, racks from RACK (default 0.25).
#
#   bash docs/experiments/scripts-s36/screen-candidate.sh NAME EPOCH.pt ...
#   bash docs/experiments/scripts-s36/screen-candidate.sh NAME      (no .pt: the shipped detector, e.g. with
#                                                                   another models/tile_stance.onnx in place)
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1; shift
D=/work/runs/s32/det F=/work/runs/s36/fig PY=.venv/bin/python E=/work/runs/eval
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=/work/runs/models-v32/yolo
mkdir -p $D $F
if [ $# -eq 0 ]; then
  det=models/tile_detector.onnx
else
  $PY docs/experiments/scripts-s27/average_epochs.py $D/$name.pt "$@" | tail -1
  $PY -m vision.training.detector --out /work/runs/s32/export --export-only $D/$name.pt --imgsz 448 --dynamic \
    --rack-confidence "${RACK:-0.25}" --export $D/$name-r.onnx | tail -1
  det=$D/$name-r.onnx
fi
$PY -m vision.evaluation.real_racks /work/shared/real-racks --detector $det --json $F/$name-racks.json > $F/$name-racks.txt
$PY -m vision.evaluation.reading --images /work/runs/real-dev-measure/images \
  --labels /work/runs/real-dev-measure/labels --fix-known-errors --detector $det \
  --json $F/$name-devmeasure.json > $F/$name-devmeasure.txt
$PY -m vision.evaluation.scenes /work/runs/s36/render8900 --detector $det --json $F/$name-tune8900.json > $F/$name-tune8900.txt
$PY -m vision.evaluation.scenes $E/tune8800-rack_front $E/tune8800-rack_above $E/tune8800-rack_angle $E/tune8800-rack_wood \
  --detector $det --json $F/$name-racks8800.json > $F/$name-racks8800.txt
$PY -m vision.evaluation.scenes $E/tune8800-tile_box --detector $det --json $F/$name-box8800.json > $F/$name-box8800.txt
for part in racks devmeasure tune8900 racks8800 box8800; do
  echo "$part: $(grep -E '^(recall|precision|end_to_end|false_tiles_per_scene|rack_tiles_in_racks|table_tiles_put_on_racks|racks_in_owner_order|end_to_end_accuracy|false_tiles|photos_with_a_rack|tiles_put_on_racks|rack_tiles_in_their_rack|racks_found|false_racks|tiles_right) ' \
    $F/$name-$part.txt | awk '{print $1"="$NF}' | tr '\n' ' ')"
done
