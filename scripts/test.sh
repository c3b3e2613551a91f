#!/usr/bin/env bash
# Sets up everything on a fresh machine and runs the whole test suite, the browser test included.
# The storage tests run on SQLite and on a throwaway PostgreSQL server started here (Debian's postgresql,
# installed when missing): its own data folder, a Unix socket in a temporary folder, no network listener;
# stopped and removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -x /usr/bin/chromium ] || [ ! -f /usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf ]; then
  # The end-to-end browser test drives Debian's Chromium (playwright cannot download its own browser here).
  # The renderer draws numerals in the machine's bold fonts (datasets/glyphs.py): Liberation is named, not
  # left to chromium's recommends, so that every machine renders the tests' scenes alike.
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-liberation >/dev/null
fi
bash scripts/pg_cluster.sh install
PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rummi-pg.XXXXXX")
trap 'bash scripts/pg_cluster.sh stop "$PG_DIR"' EXIT
RUMMI_TEST_PG_URL=$(bash scripts/pg_cluster.sh start "$PG_DIR")
export RUMMI_TEST_PG_URL
export RUMMI_REQUIRE_PG=1  # the PostgreSQL tests fail rather than skip if the server is not there
.venv/bin/python -m ruff check .
.venv/bin/python -m pytest -q "$@"
