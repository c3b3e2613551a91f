#!/usr/bin/env bash
# Thirty-seventh session (issue 36): the referee's hands sets read by the code before this session (a worktree of
# 5b559f7 at /tmp/base) and by today's, the same shipped models, one after the other on the same machine.
#   git worktree add /tmp/base 5b559f7 && ln -s /work/main/.venv /tmp/base/.venv
#   bash docs/experiments/scripts-s37/referee-before-after.sh SET...       (figures in /work/runs/s37/ref-SET-*.json)
set -euo pipefail
cd "$(dirname "$0")/../../.."
V=/work/runs/referee-videos
for set in "$@"; do
  folders=$(ls -d $V/$set/seed*)
  (cd /tmp/base && PYTHONPATH=/tmp/base nice -n 5 .venv/bin/python benchmarks/measure_referee_set.py $set \
    /work/runs/s37/ref-$set-base.json $folders | grep " all:" | sed 's/^/before: /')
  nice -n 5 .venv/bin/python benchmarks/measure_referee_set.py $set /work/runs/s37/ref-$set-${TAG:-split}.json $folders \
    | grep " all:" | sed 's/^/after:  /'
done
