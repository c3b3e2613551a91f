#!/usr/bin/env bash
# The referee on game videos made from the real pixels of labelled photos (`python -m datasets.photo_game`:
# the photo's tiles taken off and laid back set by set by the seats, hands as they come at a real table), on
# a tuning set and a hold-out set of seeds. The photos are real-dev-measure's (bash
# docs/experiments/scripts-s14/split-real-dev.sh): never trained on by the detector, but its epochs and the
# reader's thresholds were chosen on them, and both sets draw on the same 16 photos that make a game (the
# others hold no three valid sets): the hold-out differs in seats, order, hands and light only.
# `others` and `others-holdout` make their games from real-dev-train's photos instead (PHOTOS_OTHERS): 15 of
# them make games, none of them in the sets above; the detector and the crop classifier were trained on
# them (their reads flatter), the referee never tuned on them until the nineteenth session looked at
# `others` (the seeds of `others-holdout` never looked at).
# `zoom` and `zoom-holdout` (twentieth session) lay each photo in the middle of a table 1.6 times its size
# (`--zoom-out 1.6`: its own empty table mirrored around it), so that its tiles are 43-77 px tall in the
# 1000 px frame, as a camera further up sees them, not 69-123: `zoom` from real-dev-measure's photos
# (looked at), `zoom-holdout` from real-dev-train's (seeds never looked at); `zoom2` twice its size (tiles
# 35-62 px; real-dev-measure's photos, looked at). `zoom18` (twenty-first session, tuning): 1.8 times, new
# seeds, real-dev-measure's photos.
#
#   benchmarks/referee_photos.sh [tune|holdout|both|others|others-holdout|zoom|zoom-holdout|zoom2|zoom18|all]
#       [--render-only]
#
# Writes $REFEREE_PHOTOS/results/<set>-<date>.json (every folder's figures and wrong calls) and prints one
# line per folder and per set.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${REFEREE_PHOTOS:-/work/runs/referee-photos}
PHOTOS=${PHOTOS:-/work/runs/real-dev-measure}
PHOTOS_OTHERS=${PHOTOS_OTHERS:-/work/runs/real-dev-train}
PYTHON=${PYTHON:-.venv/bin/python}
GAMES=8
WHICH=both
RENDER_ONLY=0
for arg in "$@"; do
    case "$arg" in
        tune|holdout|both|others|others-holdout|zoom|zoom-holdout|zoom2|zoom18|all) WHICH=$arg ;;
        --render-only) RENDER_ONLY=1 ;;
        *) echo "usage: $0 [tune|holdout|both|others|others-holdout|zoom|zoom-holdout|zoom2|zoom18|all]" \
                "[--render-only]" >&2
           exit 2 ;;
    esac
done
[ -d "$PHOTOS/labels" ] && [ -d "$PHOTOS_OTHERS/labels" ] || bash docs/experiments/scripts-s14/split-real-dev.sh

# seed:players per folder (tuning: looked at, the eighteenth session; others: the nineteenth)
TUNE="3100:2 3101:3 3102:2 3103:3"
HOLDOUT="3900:2 3901:3"
OTHERS="3900:2 3901:3"
OTHERS_HOLDOUT="3960:2 3961:3"
ZOOM="3200:2 3201:3"
ZOOM_HOLDOUT="3980:2 3981:3"
ZOOM2="3210:2 3211:3"
ZOOM18="3220:2 3221:3"

seeds_of() {
    case "$1" in
        tune) echo "$TUNE" ;; holdout) echo "$HOLDOUT" ;;
        others) echo "$OTHERS" ;; others-holdout) echo "$OTHERS_HOLDOUT" ;;
        zoom) echo "$ZOOM" ;; zoom-holdout) echo "$ZOOM_HOLDOUT" ;; zoom2) echo "$ZOOM2" ;; zoom18) echo "$ZOOM18" ;;
    esac
}
photos_of() { case "$1" in others*|zoom-holdout) echo "$PHOTOS_OTHERS" ;; *) echo "$PHOTOS" ;; esac; }
zoom_of() { case "$1" in zoom2) echo 2 ;; zoom18) echo 1.8 ;; zoom*) echo 1.6 ;; *) echo 1 ;; esac; }

render() {
    for pair in $(seeds_of "$1"); do
        local seed=${pair%%:*} players=${pair##*:}
        local dir="$OUT/$1/seed$seed-p$players"
        if [ ! -f "$dir/game-$(printf %03d $((GAMES - 1))).json" ]; then
            nice -n 10 "$PYTHON" -m datasets.photo_game "$dir" --photos "$(photos_of "$1")" --games "$GAMES" \
                --seed "$seed" --players "$players" --zoom-out "$(zoom_of "$1")" > /dev/null
        fi
    done
}

measure() {
    mkdir -p "$OUT/results"
    local result="$OUT/results/$1-$(date +%Y%m%d-%H%M).json" folders=()
    for pair in $(seeds_of "$1"); do folders+=("$OUT/$1/seed${pair%%:*}-p${pair##*:}"); done
    nice -n 10 "$PYTHON" benchmarks/measure_referee_set.py "$1" "$result" "${folders[@]}"
}

for set in tune holdout others others-holdout zoom zoom-holdout zoom2 zoom18; do
    if [ "$WHICH" = all ] || [ "$WHICH" = "$set" ] || { [ "$WHICH" = both ] && [[ $set = tune || $set = holdout ]]; }; then
        render "$set"
        [ "$RENDER_ONLY" = 1 ] || measure "$set"
    fi
done
