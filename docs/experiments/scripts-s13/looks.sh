#!/usr/bin/env bash
# Thirteenth session (issue 37: "every extra look either deleted because the new models do not need it or kept
# with its measured figure"): the shipped models (models/) measured with every extra look of
# vision.detector.TileDetector on, with each look off alone (close_up, edge_rack, sloped_rack, rack), with
# close_up and edge_rack off together and with all off, on the rendered hold-out (/work/runs/size-exp/holdout:
# 200 scenes, seed 9100, holdout variants, never tuned on) and on real-dev and real-racks (TUNING sets:
# thresholds were chosen on them); close-up renders (`closeups`) and the per-kind hold-out of earlier
# sessions (`kinds`) rendered and measured too; then one timing run of a whole read per set of looks
# (looks.py --time: CPU time, one thread a model, rounds going through every set in turn). Figures and
# verdicts: docs/experiments/scripts-s13/looks-figures.md.
#   bash docs/experiments/scripts-s13/looks.sh all    # everything (2026-12-03; the close_up+edge_rack row
#                                                     # was added after a first `all`)
#   bash docs/experiments/scripts-s13/looks.sh snapshot|measure NAME [OFF]|closeups|kinds [NAME OFF]
#   bash docs/experiments/scripts-s13/looks.sh time [ROUNDS]|table
# Everything is written to /work/runs/s13/looks (outside git). Real photos are never copied into git.
# Others edit the working tree while this runs: `snapshot` copies the last commit (git archive) plus this
# folder into $S/code, and the measurements run from that copy, so every figure comes from one fixed code
# (its commit in $S/code/COMMIT).
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=/work/runs/s13/looks
PY=".venv/bin/python"
NICE="nice -n 5"
export OMP_NUM_THREADS=2
mkdir -p $S/fig
CONFIGS=("on " "close_up-off close_up" "edge_rack-off edge_rack" "sloped_rack-off sloped_rack" "rack-off rack"
         "close_up+edge_rack-off close_up,edge_rack" "all-off all")

measure() {  # NAME [OFF]: OFF the looks to switch off (looks.py --off), none for every look on
  local name=$1 run=("$PY" docs/experiments/scripts-s13/looks.py --off "${2:-none}" --counts)
  $NICE "${run[@]}" $S/fig/$name-holdout.counts.json vision.evaluation.scenes /work/runs/size-exp/holdout \
    --json $S/fig/$name-holdout.json > $S/fig/$name-holdout.txt 2> $S/fig/$name-holdout.err
  $NICE "${run[@]}" $S/fig/$name-dev.counts.json vision.evaluation.reading \
    --images /work/shared/real-dev/images --labels /work/shared/real-dev/labels --fix-known-errors \
    --json $S/fig/$name-dev.json > $S/fig/$name-dev.txt 2> $S/fig/$name-dev.err
  $NICE "${run[@]}" $S/fig/$name-racks.counts.json vision.evaluation.real_racks /work/shared/real-racks \
    --errors --json $S/fig/$name-racks.json > $S/fig/$name-racks.txt 2> $S/fig/$name-racks.err
}

case "${1:-}" in
  snapshot)  # run from the working tree, not from the copy
    rm -rf $S/code && mkdir -p $S/code
    git archive HEAD | tar -x -C $S/code
    git rev-parse HEAD > $S/code/COMMIT
    mkdir -p $S/code/docs/experiments/scripts-s13
    cp docs/experiments/scripts-s13/looks.py docs/experiments/scripts-s13/looks.sh \
      $S/code/docs/experiments/scripts-s13/
    ln -s /work/main/.venv $S/code/.venv ;;
  measure) measure "$2" "${3:-}" ;;
  time)  # the 53-tile render, then a hold-out scene on which each look alone takes a pass (close_up 000014,
         # edge_rack 000004, sloped_rack 000032, rack 000000: all on, counted with looks.py's counts) and a
         # real-racks photo whose rack the rack look looks at again
    H=/work/runs/size-exp/holdout/images
    $NICE $PY docs/experiments/scripts-s13/looks.py --time --rounds "${2:-20}" --json $S/fig/timing-cpu.json \
      $H/000014.jpg $H/000004.jpg $H/000032.jpg $H/000000.jpg \
      /work/shared/real-racks/images/rummy4-90_jpeg.rf.5b077525a07d4a1b19d705a6e08c9915.jpg \
      | tee $S/fig/timing-cpu.txt ;;
  closeups)  # the close-up look's own case, not in the real sets: 60 rendered "fill" scenes (tiles
             # filling the frame, seed 9110) and 60 "closeup" scenes (seed 9111), holdout variants, never
             # tuned on; all on against close_up off
    for kind in fill:9110 closeup:9111; do
      [ -f $S/${kind%:*}/scenes/000059.json ] || $NICE $PY -m datasets.render --out $S/${kind%:*} --count 60 \
        --seed ${kind#*:} --kind ${kind%:*} --variants holdout --size 1024 --workers 1 --sheet 0 --quiet
    done
    for config in "on none" "close_up-off close_up"; do
      set -- $config
      $NICE $PY docs/experiments/scripts-s13/looks.py --off $2 --counts $S/fig/$1-closeups.counts.json \
        vision.evaluation.scenes $S/fill $S/closeup --json $S/fig/$1-closeups.json > $S/fig/$1-closeups.txt \
        2> $S/fig/$1-closeups.err
    done ;;
  kinds)  # [NAME OFF]: the per-kind rendered hold-out of the seventh to tenth sessions (lab notes: 40 scenes
          # of each kind, seed 9100, and 40 inks of the holdout variants; never tuned on), on which the
          # edge-rack look's figure in vision/detector.py was measured; every configuration, or NAME OFF
    for kind in texture rack_front rack_above rack_angle empty packed fill inks game; do
      [ -f $S/kinds/holdout-$kind/scenes/000039.json ] || $NICE $PY -m datasets.render \
        --out $S/kinds/holdout-$kind --count 40 --seed 9100 --kind $kind --workers 1 --sheet 0 --quiet
    done
    [ -f $S/kinds/holdout-inks-unseen/scenes/000039.json ] || $NICE $PY -m datasets.render \
      --out $S/kinds/holdout-inks-unseen --count 40 --seed 9100 --kind inks --variants holdout --workers 1 \
      --sheet 0 --quiet
    configs=("${CONFIGS[@]}")
    [ $# -gt 1 ] && configs=("${*:2}")  # kinds NAME OFF: that configuration only
    for config in "${configs[@]}"; do
      set -- $config
      $NICE $PY docs/experiments/scripts-s13/looks.py --off "${2:-none}" \
        --counts $S/fig/$1-kinds.counts.json vision.evaluation.scenes $(ls -d $S/kinds/holdout-*/) \
        --json $S/fig/$1-kinds.json > $S/fig/$1-kinds.txt 2> $S/fig/$1-kinds.err
    done ;;
  table) $PY docs/experiments/scripts-s13/looks.py --table $S/fig ;;
  all)  # what this session ran (2026-12-03), in this order
    bash "$0" snapshot
    C=$S/code/docs/experiments/scripts-s13/looks.sh
    for config in "${CONFIGS[@]}"; do
      set -- $config
      echo "$(date +%T) measure $*"
      bash $C measure "$@"
    done
    echo "$(date +%T) closeups"
    bash $C closeups
    echo "$(date +%T) kinds"
    bash $C kinds
    echo "$(date +%T) time"
    bash $C time
    bash $C table | tee $S/table.md ;;
  *) echo "usage: $0 snapshot|measure NAME [OFF]|closeups|kinds [NAME OFF]|time [ROUNDS]|table|all" >&2
     exit 2 ;;
esac
