#!/usr/bin/env bash
# The referee's hold-out game sets and the photo games measured with the shipped models (thirtieth session:
# with the rack check), one line a set; everything in the results folders as JSON.
#
#   bash docs/experiments/scripts-s30/referee-sets.sh > LOG 2>&1
cd /work/main
D=/work/runs/referee-videos P=/work/runs/referee-photos
for set in holdout2 navy-holdout lights holdout; do
  .venv/bin/python benchmarks/measure_referee_set.py $set-rc $D/results/$set-rc-s30.json $D/$set/seed* 2>&1 | grep " all"
done
for set in zoom-holdout zoom18 zoom2; do
  .venv/bin/python benchmarks/measure_referee_set.py $set-rc $P/results/$set-rc-s30.json $P/$set/seed* 2>&1 | grep " all"
done
echo DONE
