#!/usr/bin/env bash
# A quick screen of a detector candidate from some epochs of a run (thirty-second session): the epochs averaged
# (../scripts-s27/average_epochs.py), exported at 448 for any size, its rack threshold the lowest that keeps all
# 8 real racks (../scripts-s27/rack_scores.py), then with the shipped rack check: real-racks, real-dev-measure,
# hold-out renders 9100 and 9700. A candidate that passes is measured in full (../scripts-s30/
# measure-rack-check.sh) before it can ship. RACK=0.25 (thirty-fourth session) gives the rack threshold instead,
# as the shipped file has it since the thirty-third session.
#
#   [RACK=0.25] bash docs/experiments/scripts-s32/screen-candidate.sh NAME EPOCH.pt ... (the last an epochN.pt)
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1; shift
D=/work/runs/s32/det F=/work/runs/size-exp/fig PY=.venv/bin/python
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=/work/runs/models-v32/yolo
mkdir -p $D $F
$PY docs/experiments/scripts-s27/average_epochs.py $D/$name.pt "$@" | tail -1
$PY -m vision.training.detector --out /work/runs/s32/export --export-only $D/$name.pt --imgsz 448 --dynamic \
  --export $D/$name.onnx | tail -1
threshold=${RACK:-$($PY docs/experiments/scripts-s27/rack_scores.py $D/$name.onnx | tee $F/$name-rackscores.txt \
  | sed -n 's/.*keeping 8 of 8 real racks (threshold \([0-9.]*\)).*/\1/p')}
echo "rack threshold $threshold"
$PY -m vision.training.detector --out /work/runs/s32/export --export-only $D/$name.pt --imgsz 448 --dynamic \
  --rack-confidence "$threshold" --export $D/$name-r.onnx | tail -1
nice -n 5 $PY -m vision.evaluation.real_racks /work/shared/real-racks --detector $D/$name-r.onnx \
  --json $F/$name-racks.json > $F/$name-racks.txt
nice -n 5 $PY -m vision.evaluation.reading --images /work/runs/real-dev-measure/images \
  --labels /work/runs/real-dev-measure/labels --fix-known-errors --detector $D/$name-r.onnx \
  --json $F/$name-devmeasure.json > $F/$name-devmeasure.txt
nice -n 5 $PY -m vision.evaluation.scenes /work/runs/size-exp/holdout --detector $D/$name-r.onnx \
  --json $F/$name-holdout.json > $F/$name-holdout.txt
nice -n 5 $PY -m vision.evaluation.scenes /work/runs/s31/holdout9700 --detector $D/$name-r.onnx \
  --json $F/$name-h9700.json > $F/$name-h9700.txt
for part in racks devmeasure holdout h9700; do
  echo "$part: $(grep -E '^(recall|end_to_end|false_tiles_per_scene|rack_tiles_in_racks|table_tiles_put_on_racks|racks_in_owner_order|end_to_end_accuracy|false_tiles|photos_with_a_rack|tiles_put_on_racks|rack_tiles_in_their_rack|racks_found|false_racks) ' \
    $F/$name-$part.txt | awk '{print $1"="$NF}' | tr '\n' ' ')"
done
