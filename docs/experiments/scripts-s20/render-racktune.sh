#!/usr/bin/env bash
set -euo pipefail
# tuning rack renders of the nineteenth session: seeds 9301-9305, 40 each of rack, rack_front, rack_above, rack_angle, game
cd /work/main
i=1
for kind in rack rack_front rack_above rack_angle game; do
  out=/work/runs/s20/racktune/$kind
  [ -f $out/scenes/000039.json ] || nice -n 10 .venv/bin/python -m datasets.render --out $out --count 40 --seed 930$i --kind $kind --size 1024 --workers 1 --sheet 0 --quiet
  i=$((i+1))
done
