#!/usr/bin/env bash
# models-v22 (twenty-second session, issue 37): a new machine again (every /work/runs folder lost, the
# candidate v21-e5 with it). v21-e5 was models-v20 (recovered from the shipped ONNX, 1.8 hours at lr 3e-5 on
# renders + real-dev-train + real-racks 86-89) trained on at lr 2e-5 for 5 epochs; this makes the same chain
# again from the same seeds and commands, one after the other, so that one command rebuilds the candidate:
#   1. ../scripts-s20/models-v20-COMMANDS.sh  (renders, recovered.pt, the 1.8 hour run)
#   2. ../scripts-s21/models-v21-COMMANDS.sh  (FROM=models-v22/v20: every epoch kept; stopped by hand)
# The epoch is chosen as in the twenty-first session (real-racks 90-93 and real-dev-measure false racks,
# tuning), then measured in full (../scripts-s18/measure-weights.sh) before it can ship.
# Resume after a stop: run again (each part resumes from its last.pt while it is there).
#
#   nohup bash docs/experiments/scripts-s22/models-v22-COMMANDS.sh > /work/runs/models-v22.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/../../.."
V20=/work/runs/models-v22/v20
V21=/work/runs/models-v22/v21
if [ ! -f $V20/tile_detector.onnx ]; then  # written when the v20 run ends
  RUN=$V20 bash docs/experiments/scripts-s20/models-v20-COMMANDS.sh
fi
RUN=$V21 FROM=$V20 bash docs/experiments/scripts-s21/models-v21-COMMANDS.sh
