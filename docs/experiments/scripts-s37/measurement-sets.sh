#!/usr/bin/env bash
# Thirty-seventh session: a new machine (every /work/runs folder lost). The measurement sets rebuilt from their
# seeds, with fonts-liberation installed first (Debian's chromium brings it; the renderer draws numerals from
# the fonts a machine has, so without it the same seed renders other pixels). Skips what exists.
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY=.venv/bin/python
[ -f /usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf ] || { echo "install fonts-liberation first"; exit 1; }
render() {  # OUT COUNT SEED [flags]
  local out=$1 count=$2 seed=$3; shift 3
  [ -f "$out/images/$(printf %06d $((count - 1))).png" ] || [ -f "$out/images/$(printf %06d $((count - 1))).jpg" ] || \
    nice -n 5 $PY -m datasets.render --out $out --count $count --seed $seed "$@" --workers 1 --sheet 0 --quiet
}
[ -d /work/runs/real-dev-measure ] || bash docs/experiments/scripts-s14/split-real-dev.sh
render /work/runs/size-exp/holdout 200 9100 --variants holdout --size 1024
render /work/runs/s36/render8900 200 8900 --variants holdout --size 1024
for kind in rack_front rack_above rack_angle rack_wood tile_box; do
  render /work/runs/eval/tune8800-$kind 40 8800 --kind $kind
done
render /work/runs/s31/holdout9700 200 9700 --variants holdout --size 1024
render /work/runs/s36/render9900 200 9900 --variants holdout --size 1024
render /work/runs/eval/holdout9400-tile_box 40 9400 --kind tile_box --variants holdout
echo "measurement sets ready"
