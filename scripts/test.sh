#!/usr/bin/env bash
# Sets up everything on a fresh machine and runs the whole test suite, the browser test included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -x /usr/bin/chromium ]; then
  # The end-to-end browser test drives Debian's Chromium (playwright cannot download its own browser here).
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
.venv/bin/python -m ruff check .
.venv/bin/python -m pytest -q "$@"
