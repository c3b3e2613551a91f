#!/usr/bin/env bash
# Sets up everything on a fresh machine and reads the bundled example photo: tiles, sets, verdicts,
# and an annotated picture in out/example-annotated.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p out
.venv/bin/rummi read vision/examples/table.jpg --annotate out/example-annotated.png
