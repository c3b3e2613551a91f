#!/usr/bin/env bash
# Fourteenth session (issue 37): real-dev split by photo, sorted by name: the odd-numbered photos
# (1st, 3rd, ...: index 0, 2, ... is "even") to train on, the others never trained on, to measure.
# Folders of links under /work/runs/real-dev-{train,measure}; nothing copied, nothing committed.
set -euo pipefail
src=$(cd "${1:-/work/shared/real-dev}" && pwd)
for half in train measure; do rm -rf /work/runs/real-dev-$half; mkdir -p /work/runs/real-dev-$half/{images,labels}; done
i=0
for image in $(ls "$src/images" | sort); do
  stem=${image%.*}
  half=$([ $((i % 2)) -eq 1 ] && echo train || echo measure)
  ln -s "$src/images/$image" /work/runs/real-dev-$half/images/$image
  ln -s "$src/labels/$stem.txt" /work/runs/real-dev-$half/labels/$stem.txt
  cp "$src/data.yaml" /work/runs/real-dev-$half/ 2>/dev/null || true
  i=$((i + 1))
done
for half in train measure; do
  echo "$half: $(ls /work/runs/real-dev-$half/images | wc -l) photos, $(cat /work/runs/real-dev-$half/labels/*.txt | wc -l) tiles"
done
