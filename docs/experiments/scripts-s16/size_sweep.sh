#!/usr/bin/env bash
# For each tuning game: the stream switches size 0.3 s after the 2nd and the 5th turns' hands left (their
# still time + 0.3), blurred while small; old (PYTHONPATH=OLD) and this code.
cd /work/main
for g in tune/seed1200-p2/game-000 tune/seed1201-p3/game-001 tune/seed1202-p2/game-000 tune/seed1203-p3/game-002 tune/seed1206-p2/game-001 tune/seed1209-p3/game-000; do
  v=/work/runs/referee-videos/$g.mp4
  sw=$(python3 -c "import json; t=json.load(open('${v%.mp4}.json'))['turns']; print(t[1]['still_s']+0.3, t[4]['still_s']+0.3)")
  for root in "$@"; do
    echo "$g $root: $(PYTHONPATH=$root timeout 900 .venv/bin/python docs/experiments/scripts-s16/size_switch.py $v $sw --blur 2>&1 | grep '^switch')"
  done
done
