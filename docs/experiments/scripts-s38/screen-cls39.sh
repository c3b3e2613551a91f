#!/usr/bin/env bash
# Thirty-eighth session: the two cls-v39 runs against the shipped files, with the session's layout
# (./measure.sh's sets; the numbers misread by edition on tuning 8900, `scripts-s37/misreads_by_edition.py`;
# up directions on tuning 8900, `scripts-s37/angle_errors.py`). "layout" is the shipped files' run
# (./measure.sh layout, its summary kept as layout.summary).
#   bash docs/experiments/scripts-s38/screen-cls39.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=/work/runs/cls-v39 F=/work/runs/s38/fig PY=.venv/bin/python
for name in s c; do
  [ -f $R/models-$name/tile_classifier_int8.onnx ] || bash docs/experiments/scripts-s37/models-dir.sh $R/models-$name $R/cls-v39$name.onnx
  [ -f $F/cls39$name-h9900.txt ] || bash docs/experiments/scripts-s38/measure.sh cls39$name $R/models-$name > $F/cls39$name.summary
done
for name in layout:models cls39s:$R/models-s cls39c:$R/models-c; do
  [ -f $F/${name%%:*}-misreads8900.txt ] || $PY docs/experiments/scripts-s37/misreads_by_edition.py ${name#*:} \
    /work/runs/s36/render8900 > $F/${name%%:*}-misreads8900.txt
  [ -f $F/${name%%:*}-angles8900.txt ] || $PY docs/experiments/scripts-s37/angle_errors.py ${name#*:} \
    /work/runs/s36/render8900 > $F/${name%%:*}-angles8900.txt
done
for name in layout cls39s cls39c; do
  echo "== $name"; cat $F/$name.summary
  head -3 $F/$name-misreads8900.txt; tail -2 $F/$name-angles8900.txt
done
