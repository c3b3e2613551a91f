#!/usr/bin/env bash
# A detector measured as ../scripts-s22/measure-candidate.sh measures it (hold-out renders, real-dev halves,
# real-racks, real-dev-measure zoomed 1.6 / 1.8 / 2x), with the reader's looks changed through
# ./with_video_input.py (e.g. --no-faint-look --video-small-tiles 0, and STILL_SMALL_TILES_BELOW 0 with
# --no-window-look): the same files and names as measure-candidate, so ../scripts-s22/compare.py reads them.
#
#   bash docs/experiments/scripts-s26/measure-looks.sh NAME DETECTOR.onnx [WRAPPER FLAGS...]
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 det=$2; shift 2
F=/work/runs/size-exp/fig Z=/work/runs/zoomed
RUN=(nice -n 5 .venv/bin/python docs/experiments/scripts-s26/with_video_input.py "$@")
mkdir -p $F
for z in 1.6 1.8 2.0; do
  [ -f $Z/measure-z$z/data.yaml ] || .venv/bin/python docs/experiments/scripts-s22/zoomed_photos.py \
    /work/runs/real-dev-measure $Z/measure-z$z --zoom $z
  "${RUN[@]}" -m vision.evaluation.reading --images $Z/measure-z$z/images --labels $Z/measure-z$z/labels \
    --detector "$det" --errors --json $F/$name-z$z.json > $F/$name-z$z.txt
done
for half in measure train; do
  "${RUN[@]}" -m vision.evaluation.reading --images /work/runs/real-dev-$half/images \
    --labels /work/runs/real-dev-$half/labels --fix-known-errors --detector "$det" \
    --json $F/$name-dev$half.json > $F/$name-dev$half.txt
done
"${RUN[@]}" -m vision.evaluation.real_racks /work/shared/real-racks --detector "$det" --errors \
  --json $F/$name-racks.json > $F/$name-racks.txt
"${RUN[@]}" -m vision.evaluation.scenes /work/runs/size-exp/holdout --detector "$det" \
  --json $F/$name-holdout.json > $F/$name-holdout.txt
