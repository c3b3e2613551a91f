#!/usr/bin/env bash
# The close look (twenty-third session, issue 37; NOT kept: the code is ./close-look.patch, `git apply` it
# first): a detector exported for any input size (`vision.training.detector --export-only W --dynamic`)
# looks at a frame whose tiles are small once more, at the part of the frame around the tiles the first
# look found, its scale that of `CLOSE_LOOK_SIZE` for the whole frame (padded to whole strides), in place of
# the four windows of a square model. Figures: docs/experiments/lab-notes.md, twenty-third session.
# Measured as ../scripts-s22/measure-candidate.sh measures the zoomed photos (the whole reader on
# real-dev-measure zoomed out 1.6, 1.8 and 2 times), at the size given.
#
#   bash docs/experiments/scripts-s23/close_look.sh NAME DETECTOR.onnx SIZE [ZOOMS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
name=$1 det=$2 size=$3 zooms=${4:-"1.6 1.8 2.0"} F=/work/runs/size-exp/fig Z=/work/runs/zoomed PY=.venv/bin/python
for z in $zooms; do
  nice -n 5 $PY docs/experiments/scripts-s22/with_detector.py --close-look-size $size -m vision.evaluation.reading \
    --images $Z/measure-z$z/images --labels $Z/measure-z$z/labels --detector "$det" --errors \
    --json $F/$name-z$z.json > $F/$name-z$z.txt
done
