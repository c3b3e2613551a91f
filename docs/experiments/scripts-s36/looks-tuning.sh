#!/usr/bin/env bash
# The tuning sets of ./screen-candidate.sh (not real-dev) read with some of the detector's looks off, the
# shipped files and code (thirty-sixth session, after the stance network):
#   LOOKS_OFF=sloped_rack_look bash docs/experiments/scripts-s36/looks-tuning.sh NAME
set -euo pipefail
cd /work/main
name=$1 F=/work/runs/s36/fig E=/work/runs/eval PY=".venv/bin/python docs/experiments/scripts-s31/looks_off.py"
$PY vision.evaluation.real_racks /work/shared/real-racks --json $F/$name-racks.json > $F/$name-racks.txt
$PY vision.evaluation.scenes /work/runs/s36/render8900 --json $F/$name-tune8900.json > $F/$name-tune8900.txt
$PY vision.evaluation.scenes $E/tune8800-rack_front $E/tune8800-rack_above $E/tune8800-rack_angle $E/tune8800-rack_wood --json $F/$name-racks8800.json > $F/$name-racks8800.txt
$PY vision.evaluation.scenes $E/tune8800-tile_box --json $F/$name-box8800.json > $F/$name-box8800.txt
for part in racks tune8900 racks8800 box8800; do
  echo "$part: $(grep -E '^(recall|end_to_end|false_tiles_per_scene|rack_tiles_in_racks|table_tiles_put_on_racks|racks_in_owner_order|rack_tiles_in_their_rack|false_racks|racks_found) ' $F/$name-$part.txt | awk '{print $1"="$NF}' | tr '\n' ' ')"
done
