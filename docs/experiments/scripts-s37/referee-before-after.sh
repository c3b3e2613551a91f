#!/usr/bin/env bash
# Thirty-seventh session (issue 36): the referee's hands sets read by the code before this session (a worktree of
# 5b559f7 at /tmp/base) and by today's, the same shipped models, one after the other on the same machine.
#   git worktree add /tmp/base 5b559f7 && ln -s /work/main/.venv /tmp/base/.venv
#   bash docs/experiments/scripts-s37/referee-before-after.sh SET...       (figures in /work/runs/s37/ref-SET-*.json)
# From the session's classifier on (cls-v37bs, copied into models/), "after" is the new code and the new classifier
# (TAG=cls); "before" stays 5b559f7's code and files.
set -euo pipefail
cd "$(dirname "$0")/../../.."
V=${ROOT:-/work/runs/referee-videos}  # ROOT=/work/runs/referee-photos: the photo games
for set in "$@"; do
  folders=$(ls -d $V/$set/seed*)
  (cd /tmp/base && PYTHONPATH=/tmp/base nice -n 5 .venv/bin/python benchmarks/measure_referee_set.py $set \
    /work/runs/s37/ref-$set-base.json $folders | grep " all:" | sed 's/^/before: /')
  nice -n 5 .venv/bin/python benchmarks/measure_referee_set.py $set /work/runs/s37/ref-$set-${TAG:-split}.json $folders \
    | grep " all:" | sed 's/^/after:  /'
done
