#!/usr/bin/env bash
# Tuning renders for this session (seed 8800; not the hold-out's 9100): 40 scenes each kind.
cd /work/main
for KIND in rack_front rack_above rack_angle packed game texture inks empty closeup; do
  nice -n 5 .venv/bin/python -m datasets.render --out /work/runs/eval/tune8800-$KIND --count 40 --seed 8800 --kind $KIND --workers 2 --sheet 0 --quiet
done
