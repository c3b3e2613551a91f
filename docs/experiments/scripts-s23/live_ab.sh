#!/usr/bin/env bash
# The live Referee screen, this build then HEAD (twenty-third session): bench_referee_live.py on one game video
# with the training run paused (kill -STOP), the working tree measured first, then HEAD by git stash (tracked
# changes only; do not edit the tree while it runs). Output: OUT/new.{txt,json}, OUT/base.{txt,json}.
#
#   bash docs/experiments/scripts-s23/live_ab.sh VIDEO OUT
set -u
cd "$(dirname "$0")/../../.."
V=$1 O=$2; mkdir -p $O
pids=$(pgrep -f "vision.training.detector|datasets.render|epoch_scores")
kill -STOP $pids 2>/dev/null
.venv/bin/python benchmarks/bench_referee_live.py --video $V --json $O/new.json > $O/new.txt 2>&1
git stash -q
.venv/bin/python benchmarks/bench_referee_live.py --video $V --json $O/base.json > $O/base.txt 2>&1
git stash pop -q
kill -CONT $pids 2>/dev/null
echo done
