#!/usr/bin/env bash
# The watcher on every hands tuning game (referee_hands.sh tune) whose picture changes size as Chromium's
# WebRTC stream does (500x375, 750x561 from S1, 1000x750 from S2; the smaller pictures blurred), with the
# code of the checkout BUILD (../scripts-s16/size_switch.py --blur): one line per game appended to OUT.
# Twenty-fourth session: HEAD 5d453ae checked out with `git worktree add`, against the working tree.
#
#   bash docs/experiments/scripts-s24/switch_set.sh BUILD OUT 11.99 28.19
#   python docs/experiments/scripts-s24/sumsw.py OUT_HEAD OUT_NEW
B=$1 O=$2 S1=$3 S2=$4
cd /work/main
for v in /work/runs/referee-videos/tune/seed*/game-*.mp4; do
  n=$(basename $(dirname $v))-$(basename $v .mp4)
  r=$(PYTHONPATH=$B nice -n 5 .venv/bin/python docs/experiments/scripts-s16/size_switch.py $v $S1 $S2 --blur 2>&1 | grep "^switch")
  echo "$n $r" >> $O
done
echo done >> $O
