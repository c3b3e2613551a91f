#!/usr/bin/env bash
# The referee's sets with the code of two checkouts, same models (thirty-third session: BEFORE a worktree of
# 81a91da, AFTER a worktree of it with the tile memory's new matching copied in), one set after another.
#
#   bash docs/experiments/scripts-s33/referee-before-after.sh BEFORE AFTER TAG > LOG 2>&1
# ONLY=after (or before) measures one of the two; SETS="zoom2 holdout2" only those sets (thirty-fifth session).
B=$1 A=$2 TAG=$3
D=/work/runs/referee-videos P=/work/runs/referee-photos
PY=/work/main/.venv/bin/python
one() {  # root name set-folder-root set
  local root=$1 name=$2 base=$3 set=$4
  [ -z "${ONLY:-}" ] || [ "$ONLY" = "$name" ] || return 0
  [ -z "${SETS:-}" ] || [[ " $SETS " == *" $set "* ]] || return 0
  echo "$name $set $(cd $root && PYTHONPATH=$root nice -n 5 $PY benchmarks/measure_referee_set.py $set-$TAG-$name \
      $base/results/$set-$TAG-$name.json $base/$set/seed* 2>&1 | grep ' all')"
}
for set in lights-holdout lights navy-holdout navy holdout2 holdout; do
  one $B before $D $set; one $A after $D $set
done
for set in zoom-holdout zoom18 zoom2; do
  one $B before $P $set; one $A after $P $set
done
for set in tune; do
  one $B before $D $set; one $A after $D $set
done
echo DONE
