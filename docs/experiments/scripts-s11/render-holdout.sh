#!/usr/bin/env bash
# Rendered hold-out, seed 9100 (same seed and command as the ninth/tenth sessions), 40 scenes per kind.
cd /work/main
H=/work/runs/eval
for KIND in texture rack_front rack_above rack_angle empty packed fill inks game; do
  nice -n 5 .venv/bin/python -m datasets.render --out $H/holdout-$KIND --count 40 --seed 9100 --kind $KIND --workers 2 --sheet 0 --quiet
done
nice -n 5 .venv/bin/python -m datasets.render --out $H/holdout-inks-unseen --count 40 --seed 9100 --kind inks --variants holdout --workers 2 --sheet 0 --quiet
