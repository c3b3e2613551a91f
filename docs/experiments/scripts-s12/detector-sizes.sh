#!/usr/bin/env bash
# Twelfth session (issue 37, "one look that sees"): the shipped detector's weights at a larger input, and the
# models-v13 epochs (fine-tuned at 480), measured on real-dev and real-racks (TUNING sets: thresholds were
# chosen on them; real-racks 86-89 are also TRAINING photos of models-v13 and real-dev + real-racks 90-93 its
# validation) and on rendered hold-out scenes (seed 9100, holdout variants: never tuned on), with and without
# the extra looks; then one timing run of every detector (benchmarks/bench_detector_sizes.py).
#   bash docs/experiments/scripts-s12/detector-sizes.sh all 0 1 2 3 4 5    # everything, as run on 2026-12-03
#   bash docs/experiments/scripts-s12/detector-sizes.sh snapshot|export|render|measure DET NAME [off]|epoch N|time-all
# Everything is written to /work/runs/size-exp (outside git). Real photos are never copied into git.
# Others edit the working tree while this runs: `snapshot` first copies the last commit (git archive) plus this
# session's files into $S/code, and the measurements are then run from that copy's own script
# (bash /work/runs/size-exp/code/docs/experiments/scripts-s12/detector-sizes.sh ...), so that every figure
# comes from one fixed code (the commit is in $S/code/COMMIT).
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=/work/runs/size-exp
PY=".venv/bin/python"
NICE="nice -n 5"
export OMP_NUM_THREADS=2 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 YOLO_CONFIG_DIR=$S/yolo
mkdir -p $S/ckpt $S/fig
# A copy of the training run's YOLO config folder (settings, font): the running training is left alone.
[ -d $S/yolo ] || cp -r /work/runs/models-v13/yolo $S/yolo

export_at() {  # WEIGHTS SIZE TARGET: weights copied first, so ultralytics writes its .onnx beside the copy
  local copy=$S/ckpt/$(basename "$1")
  while [ $(( $(date +%s) - $(stat -c %Y "$1") )) -lt 60 ]; do sleep 10; done  # not one being written
  [ -f "$copy" ] || cp "$1" "$copy"
  $NICE $PY -m vision.training.detector --export-only "$copy" --export "$3" --imgsz "$2" --config-dir $S/yolo
}

measure() {  # DETECTOR NAME [EXTRA]: EXTRA "off" measures with the extra looks switched off
  local det=$1 name=$2 wrap=()
  if [ "${3:-}" = off ]; then wrap=(docs/experiments/scripts-s12/one_look.py); name=$name-off; fi
  local run=("$PY" -m)
  [ ${#wrap[@]} -gt 0 ] && run=("$PY" "${wrap[@]}")
  $NICE "${run[@]}" vision.evaluation.reading --images /work/shared/real-dev/images \
    --labels /work/shared/real-dev/labels --fix-known-errors --detector "$det" --json $S/fig/$name-dev.json \
    > $S/fig/$name-dev.txt
  $NICE "${run[@]}" vision.evaluation.real_racks /work/shared/real-racks --detector "$det" --errors \
    --json $S/fig/$name-racks.json > $S/fig/$name-racks.txt
  $NICE "${run[@]}" vision.evaluation.real_racks /work/shared/real-racks --only rummy4-90 rummy4-91 rummy4-92 \
    rummy4-93 --detector "$det" --json $S/fig/$name-racks90.json > $S/fig/$name-racks90.txt
  $NICE "${run[@]}" vision.evaluation.scenes $S/holdout --detector "$det" --json $S/fig/$name-holdout.json \
    > $S/fig/$name-holdout.txt
}

case "${1:-}" in
  snapshot)  # run from the working tree, not from the copy
    rm -rf $S/code && mkdir -p $S/code
    git archive HEAD | tar -x -C $S/code
    git rev-parse HEAD > $S/code/COMMIT
    for f in vision/detector.py vision/evaluation/scenes.py benchmarks/bench_detector_sizes.py \
             docs/experiments/scripts-s12; do cp -r "$f" "$S/code/$(dirname "$f")/"; done
    ln -s /work/main/.venv $S/code/.venv ;;
  export)
    for size in 320 416 480 640; do
      [ -f $S/det$size.onnx ] || export_at /work/runs/models-v13/recovered.pt $size $S/det$size.onnx
    done ;;
  render)
    [ -f $S/holdout/scenes/000199.json ] || $NICE $PY -m datasets.render --out $S/holdout --count 200 \
      --seed 9100 --variants holdout --size 1024 --workers 2 --sheet 0 --quiet ;;
  measure) measure "$2" "$3" "${4:-}" ;;
  epoch)  # N: export epochN.pt (a copy) at 480 and measure it
    [ -f $S/epoch$2.onnx ] || export_at /work/runs/models-v13/detector/train/weights/epoch$2.pt 480 $S/epoch$2.onnx
    measure $S/epoch$2.onnx epoch$2 ;;
  time)
    shift
    $NICE $PY benchmarks/bench_detector_sizes.py "$@" ;;
  time-all)  # the two timing runs of the lab notes: CPU time on one thread, then the wall clock
    dets=(shipped=models/tile_detector.onnx shipped@416=$S/det416.onnx shipped@480=$S/det480.onnx
          shipped@640=$S/det640.onnx v13-epoch1@480=$S/epoch1.onnx)
    more=(--add-images /work/shared/real-dev/images/rummy-3_jpeg.rf.2104d8ed41e8d5e3ec606d1bc224a83f.jpg
          /work/shared/real-racks/images/rummy4-90_jpeg.rf.5b077525a07d4a1b19d705a6e08c9915.jpg)
    $NICE $PY benchmarks/bench_detector_sizes.py "${dets[@]}" "${more[@]}" --rounds 20 --cpu --threads 1 \
      --json $S/fig/timing-cpu.json | tee $S/fig/timing-cpu.txt
    $NICE $PY benchmarks/bench_detector_sizes.py "${dets[@]}" "${more[@]}" --rounds 20 \
      --json $S/fig/timing-wall.json | tee $S/fig/timing-wall.txt ;;
  all)  # what this session ran (2026-12-03), in this order; EPOCHS: the epochs to measure (0 1 2 3 4 5 here)
    shift
    bash "$0" export && bash "$0" render && bash "$0" snapshot
    C=$S/code/docs/experiments/scripts-s12/detector-sizes.sh
    for looks in "" off; do
      bash $C measure models/tile_detector.onnx shipped $looks
      for size in 416 480 640; do bash $C measure $S/det$size.onnx det$size $looks; done
    done
    for n in "$@"; do bash $C epoch $n && bash $C measure $S/epoch$n.onnx epoch$n off; done
    bash $C time-all
    $PY docs/experiments/scripts-s12/summarize.py shipped shipped-off det416 det416-off det480 det480-off det640 \
      det640-off $(for n in "$@"; do echo epoch$n epoch$n-off; done) ;;
  *) echo "usage: $0 snapshot|export|render|measure DET NAME [off]|epoch N|time [ARGS..]|time-all|all EPOCHS.." >&2
     exit 2 ;;
esac
