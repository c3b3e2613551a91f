#!/usr/bin/env bash
# Each epoch of a training run measured as it appears, on tuning sets only (the hold-out renders are
# measured once, on the candidate chosen from these): rack scores without a threshold (../scripts-s27/
# rack_scores.py), real-dev halves and real-racks (../scripts-s16/measure-real.sh), and the 160 tuning rack
# renders (seed 8800: front, above, at an angle, wooden). Figures in /work/runs/size-exp/fig/NAME-eN-*.
#
#   nohup bash docs/experiments/scripts-s29/watch-epochs.sh NAME RUN_WEIGHTS_FOLDER > LOG 2>&1 &
set -uo pipefail
cd "$(dirname "$0")/../../.."
name=$1 W=$2 F=/work/runs/size-exp/fig PY=.venv/bin/python
export YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=/work/runs/s27/yolo
while true; do
  for pt in $(ls $W/epoch*.pt 2>/dev/null | sort -V); do
    n=$(basename $pt .pt)
    [ -f $F/$name-$n-tune8800.txt ] && continue
    [ $(( $(date +%s) - $(stat -c %Y $pt) )) -gt 20 ] || continue
    echo "== $n $(date +%T)"
    onnx=${pt%.pt}-448.onnx
    [ -f "$onnx" ] || nice -n 5 $PY -m vision.training.detector --export-only "$pt" --imgsz 448 --dynamic \
      --config-dir /work/runs/s27/yolo --export "$onnx" > /dev/null 2>&1
    nice -n 5 $PY docs/experiments/scripts-s27/rack_scores.py "$onnx" 2>&1 | grep "keeping [678]\|  at "
    nice -n 5 bash docs/experiments/scripts-s16/measure-real.sh $name-$n "$onnx"
    grep -h "tiles_put_on_racks\|photos_with_a_rack\|end_to_end" $F/$name-$n-devmeasure.txt
    grep -h "rack_tiles_in_their_rack\|racks_found" $F/$name-$n-racks.txt
    nice -n 5 $PY -m vision.evaluation.scenes /work/runs/eval/tune8800-rack_{front,above,angle,wood} \
      --detector "$onnx" --json $F/$name-$n-tune8800.json > $F/$name-$n-tune8800.tmp && \
      mv $F/$name-$n-tune8800.tmp $F/$name-$n-tune8800.txt
    grep -h "rack_tiles_in_racks\|table_tiles_put" $F/$name-$n-tune8800.txt | tail -2
  done
  sleep 60
done
