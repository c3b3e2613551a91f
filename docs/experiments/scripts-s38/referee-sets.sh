#!/usr/bin/env bash
# Thirty-eighth session (issue 36): the referee on every rendered hands set and both photo-game sets with the
# code as it is (figures in /work/runs/s38/ref-TAG-SET.json), and the photo games zoom2 with cls-v37bs too (the
# classifier whose up directions broke a far run there).
#   TAG=after bash docs/experiments/scripts-s38/referee-sets.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
TAG=${TAG:?} PY=.venv/bin/python
for set in zoom2 zoom-holdout; do
  $PY benchmarks/measure_referee_set.py $set /work/runs/s38/ref-$TAG-$set.json /work/runs/referee-photos/$set/seed* \
    | grep " all:" | sed "s/^/$TAG: /"
done
[ -d /work/runs/cls-v37b/models-s ] && $PY docs/experiments/scripts-s38/referee_with_models.py /work/runs/cls-v37b/models-s \
  zoom2-cls37bs /work/runs/s38/ref-$TAG-zoom2-cls37bs.json /work/runs/referee-photos/zoom2/seed* | grep " all:" | sed "s/^/$TAG: /"
for set in holdout4 holdout3 holdout holdout2 lights-holdout navy-holdout tune; do
  $PY benchmarks/measure_referee_set.py $set /work/runs/s38/ref-$TAG-$set.json /work/runs/referee-videos/$set/seed* \
    | grep " all:" | sed "s/^/$TAG: /"
done
