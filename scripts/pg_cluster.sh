#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks: its own data folder, a Unix socket in that
# folder, no network listener (listen_addresses='').
#   scripts/pg_cluster.sh install      Debian's postgresql via apt-get (skipped when already installed)
#   scripts/pg_cluster.sh start DIR    initdb + start in DIR; prints the SQLAlchemy URL of database `rummi`
#   scripts/pg_cluster.sh stop DIR     stop it and remove DIR
# As root the server binaries run as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail

pg_bin() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ]; then echo "pg_cluster: PostgreSQL is not installed (run: $0 install)" >&2; exit 1; fi
  echo "$bin"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  install)
    if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
    ;;
  start)
    dir=${2:?usage: $0 start DIR}
    bin=$(pg_bin)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; chmod 0755 "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U rummi --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h "$dir" -U rummi rummi
    echo "postgresql+psycopg://rummi@/rummi?host=$dir"
    ;;
  stop)
    dir=${2:?usage: $0 stop DIR}
    if [ -d "$dir/data" ]; then
      as_owner "$(pg_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 install | start DIR | stop DIR" >&2
    exit 2
    ;;
esac
