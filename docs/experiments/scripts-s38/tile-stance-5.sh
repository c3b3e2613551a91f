#!/usr/bin/env bash
# The tile stance network again (ts5, thirty-eighth session, issue 37 "a run on the table is never a rack").
# The machine that trained ts4 is gone with its crops, so its training renders are drawn again from their seeds
# (models-v35's: seeds shifted by 2000, 800 px, --harsh-light 0.1; the thirty-sixth session's rack, row and box
# renders, seed 3611 at 1024; the box renders, seed 2176), plus renders of what ts4 still lets onto racks on
# tuning 8900 (`set_grouping.py --show`: table sets beside a rack, rows lying upside down at the frame's edge):
# 300 rack scenes, 150 ink scenes, 150 racks at an angle (seeds 3811-3813). Real photos as ts4: real-dev-train
# in six lights (lying), real-racks 86-89 (standing); the same validation crops (tuning).
#
#   nohup bash docs/experiments/scripts-s38/tile-stance-5.sh > /work/runs/s38/tile-stance-5.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=/work/runs/s38/stance PY=.venv/bin/python E=/work/runs/eval
mkdir -p $S
render() {  # OUT COUNT SEED SIZE [flags]
  local out=$1 count=$2 seed=$3 size=$4; shift 4
  [ -f "$out/scenes/$(printf %06d $((count - 1))).json" ] || nice -n 15 $PY -m datasets.render --out $out \
    --count "$count" --seed "$seed" --size "$size" --workers 1 --sheet 0 --quiet "$@"
}
for k in stacked_rows:250:171 rack:120:172 rack_above:80:173 rack_angle:80:174 mix:400:160 game:120:143 \
    rack_front:150:147 rack_wood:60:161; do
  IFS=: read -r kind n seed <<< "$k"
  flags=(--harsh-light 0.1); [ "$kind" = mix ] || flags+=(--kind "$kind")
  render $S/v35/$kind "$n" $((seed + 2000)) 800 "${flags[@]}"
done
for k in rack_angle:300 rack_above:200 rack_front:150 rack_wood:100 tile_box:100 stacked_rows:100; do
  render $S/s36/${k%%:*} "${k#*:}" 3611 1024 --kind "${k%%:*}" --harsh-light 0.1
done
render $S/box2176 300 2176 800 --kind tile_box --harsh-light 0.1
render $S/new/rack 300 3811 1024 --kind rack --harsh-light 0.1
render $S/new/inks 150 3812 1024 --kind inks --harsh-light 0.1
render $S/new/rack_angle 150 3813 1024 --kind rack_angle --harsh-light 0.1
for scale in "" 55; do
  [ -d /work/runs/s34/rdt-photo$scale/dim ] || $PY docs/experiments/scripts-s34/photometric.py \
    /work/runs/real-dev-train/images /work/runs/real-dev-train/labels /work/runs/s34/rdt-photo$scale \
    $([ -n "$scale" ] && echo 0.$scale)
done
[ -f $S/train5.npz ] || nice -n 5 $PY -m vision.training.tile_stance collect $S/train5.npz \
  --scenes $S/v35/* $S/s36/* $S/box2176 $S/new/* \
  --table-photos /work/runs/real-dev-train /work/runs/s34/rdt-photo/* \
  --rack-photos /work/shared/real-racks@rummy4-86,rummy4-87,rummy4-88,rummy4-89
[ -f $S/val.npz ] || nice -n 5 $PY -m vision.training.tile_stance collect $S/val.npz \
  --scenes $E/tune8800-rack_front $E/tune8800-rack_above $E/tune8800-rack_angle $E/tune8800-rack_wood $E/tune8800-tile_box \
  --table-photos /work/runs/real-dev-measure --rack-photos /work/shared/real-racks@rummy4-90,rummy4-91,rummy4-92,rummy4-93 \
  --seed 1
[ -f $S/ts5.onnx ] || nice -n 5 $PY -m vision.training.tile_stance train $S/train5.npz --val $S/val.npz \
  --out $S/ts5.onnx --epochs 10 --keep-standing 0.995
[ -f $S/ts5-t0.005.onnx ] || $PY docs/experiments/scripts-s36/stamp_threshold.py $S/ts5.onnx $S/ts5-t0.005.onnx \
  tile_stance 0.005
echo "ts5 done"
