#!/usr/bin/env bash
# A throwaway PostgreSQL server for the server tests: Debian's PostgreSQL 15 (installed when absent), a new data
# directory under /tmp, 127.0.0.1 on a free port, trust authentication, one database `cascade_test`.
#   start: prints `export CASCADE_PG_URL=…` and `export CASCADE_PG_DATA=…` for eval (a few seconds)
#   stop DIR: stops the server of that data directory and deletes it
# PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user the package creates.
set -euo pipefail

bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
start)
  if [ -z "$(bin_dir)" ]; then
    (apt-get update && apt-get install -y --no-install-recommends postgresql) >&2
  fi
  BIN=$(bin_dir)
  DATA=$(mktemp -d /tmp/cascade-pg.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres "$DATA"
  as_owner "$BIN/initdb" -D "$DATA/data" -U postgres --auth=trust -E UTF8 >"$DATA/initdb.log" 2>&1
  PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  # fsync off: a test server's data is thrown away, and the suite should not wait on the disk
  as_owner "$BIN/pg_ctl" -D "$DATA/data" -l "$DATA/data/server.log" -w \
    -o "-p $PORT -k $DATA/data -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >&2
  "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE cascade_test" >&2
  echo "export CASCADE_PG_URL=postgres://postgres@127.0.0.1:$PORT/cascade_test"
  echo "export CASCADE_PG_DATA=$DATA"
  ;;
stop)
  DATA=${2:?usage: pg-test-server.sh stop DATA_DIR}
  as_owner "$(bin_dir)/pg_ctl" -D "$DATA/data" -m fast stop >&2 || true
  rm -rf "$DATA"
  ;;
*)
  echo "usage: pg-test-server.sh start | stop DATA_DIR" >&2
  exit 2
  ;;
esac
