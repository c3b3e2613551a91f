#!/usr/bin/env bash
# Thirty-seventh session (issue 37, "number and colour read apart"): renders for the crop classifiers
# cls-v37j (one head of 54 classes, the control) and cls-v37s (a number head and a colour head), drawn afresh
# on a new machine (the cls-v14 crop cache was lost with it). Every kind, the `inks` editions (thin and large
# numerals, other inks), textured cloths, and editions printing their blue in navy (`--variants dark_blue`).
# Seeds 3710-3717, never used before. Skips what exists. The navy renders broke a rule of the generator
# (`datasets.tile_face.MEASURE_ONLY_INKS`: navy is for measuring only) and read a real black 2 blue on
# real-racks: the second round (cls-v37b, NAVY=0) leaves them out.
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=${RUN:-/work/runs/cls-v37}
mkdir -p $R/render
render() {  # NAME COUNT SEED [flags]
  local name=$1 count=$2 seed=$3; shift 3
  [ -f "$R/render/$name/scenes/$(printf %06d $((count - 1))).json" ] && [ -d "$R/render/$name/images" ] && \
    [ "$(ls $R/render/$name/images | wc -l)" -ge $count ] || \
    nice -n 10 .venv/bin/python -m datasets.render --out $R/render/$name --count $count --seed $seed "$@" \
      --size 800 --workers 1 --sheet 0 --quiet
}
render mix 700 3710
render rack 100 3711 --kind rack
render rack_front 100 3712 --kind rack_front
render rack_above 60 3713 --kind rack_above
render game 100 3714 --kind game
render inks 400 3715 --kind inks
render texture 200 3716 --kind texture
[ "${NAVY:-1}" = 0 ] || render navy 100 3717 --variants dark_blue  # the first runs only (NAVY=0: cls-v37b)
echo "cls renders ready"
