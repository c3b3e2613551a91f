#!/usr/bin/env bash
# Each epoch models-v19 keeps (--save-period 1: weights/epochN.pt), measured as the shipped detector on the
# real photos while the run goes on: exported to ONNX, then real-dev-measure (false racks: photos and tiles
# put on a rack where none is) and real-racks 86-93 (rack tiles in their rack, racks found). One line per
# epoch in $R/epoch-scores.txt; the epochs worth it are then measured in full (../scripts-s18/measure-
# weights.sh: real-dev-train and the rendered hold-out too). Stops when the run's train.log says it ended.
#
#   bash docs/experiments/scripts-s19/epoch_scores.sh   (RUN=/work/runs/models-v19 TAG=v19)
#
# ZOOMED=DIR (twenty-second session): also the detector's one look alone on DIR, a labelled folder of
# real-dev-measure zoomed out (../scripts-s22/zoomed_photos.py): tiles missed and false there.
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=${RUN:-/work/runs/models-v19}
TAG=${TAG:-v19}
S=/work/runs/size-exp/fig
PY=.venv/bin/python
export OMP_NUM_THREADS=1 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$R/yolo
mkdir -p $R/measured $S
line() {  # NAME: epoch, real-dev-measure e2e / false racks, real-racks
  $PY - "$1" <<'PY'
import json, sys
from pathlib import Path
name = sys.argv[1]
fig = "/work/runs/size-exp/fig"
d = json.load(open(f"{fig}/{name}-devmeasure.json"))["all"]
r = json.load(open(f"{fig}/{name}-racks.json"))
print(f"{name}: real-dev-measure e2e {100 * d['end_to_end_accuracy']:.2f} %, false racks on "
      f"{d['photos_with_a_rack']} photos ({d['tiles_put_on_racks']} tiles); real-racks rack tiles in rack "
      f"{100 * r['rack_tiles_in_their_rack']:.2f} %, racks found {r['racks_found']} of {r['racks']}, "
      f"read exactly {r['racks_read_exactly']}, false racks {r['false_racks']}", end="")
zoomed = Path(f"{fig}/{name}-zoomed-onelook.json")
if zoomed.is_file():
    z = json.loads(zoomed.read_text())["all"]
    print(f"; zoomed one look: missed {z['missed_tiles']}, false {z['false_tiles']}", end="")
print()
PY
}
while true; do
  for weights in $(ls $R/detector/train/weights/epoch*.pt 2>/dev/null | sort -V); do
    n=$(basename $weights .pt); n=${n#epoch}; name=$TAG-e$((n + 1))  # ultralytics counts from 0
    [ -f $S/$name-racks.json ] && continue
    sleep 5  # the run may still be writing it
    cp $weights $R/measured/$name.pt
    nice -n 5 $PY -m vision.training.detector --out $R/measured/export-$name --export-only \
      $R/measured/$name.pt --export $R/measured/$name.onnx --config-dir $R/yolo > $R/measured/$name-export.log 2>&1
    nice -n 5 $PY -m vision.evaluation.reading --images /work/runs/real-dev-measure/images \
      --labels /work/runs/real-dev-measure/labels --fix-known-errors --detector $R/measured/$name.onnx \
      --json $S/$name-devmeasure.json > $S/$name-devmeasure.txt
    nice -n 5 $PY -m vision.evaluation.real_racks /work/shared/real-racks --detector $R/measured/$name.onnx \
      --errors --json $S/$name-racks.json > $S/$name-racks.txt
    if [ -n "${ZOOMED:-}" ]; then
      nice -n 5 $PY -m vision.evaluation.reading --images $ZOOMED/images --labels $ZOOMED/labels \
        --detector $R/measured/$name.onnx --one-look --detection-only \
        --json $S/$name-zoomed-onelook.json > $S/$name-zoomed-onelook.txt
    fi
    line $name >> $R/epoch-scores.txt
    rm -rf $R/measured/export-$name
  done
  grep -q "^training took\|epochs completed" $R/train.log 2>/dev/null && [ -z "$(ls $R/detector/train/weights/epoch*.pt | while read w; do n=$(basename $w .pt); n=${n#epoch}; [ -f $S/$TAG-e$((n + 1))-racks.json ] || echo $w; done)" ] && break
  sleep 60
done
