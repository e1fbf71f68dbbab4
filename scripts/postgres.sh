#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL: `scripts/postgres.sh CMD ARGS…`
# creates a cluster with initdb in a temporary directory, starts it on a free
# loopback port (127.0.0.1 only, trust authentication, no Unix socket outside
# that directory), runs CMD with PLATEAU_TEST_POSTGRES set to
# postgres://plateau@127.0.0.1:PORT/postgres, then stops the cluster and
# removes the directory, whatever CMD's result. PostgreSQL refuses to run as
# root: as root the cluster belongs to the unprivileged user `nobody`. As root
# on a machine without PostgreSQL, Debian's `postgresql` package is installed
# with apt-get. Fails (never skips) if PostgreSQL cannot be set up. The
# cluster trades durability for speed (fsync off): it lives for one run;
# PLATEAU_PG_DURABLE=1 keeps fsync on (for measurements).
set -euo pipefail

[ "$#" -gt 0 ] || { echo "usage: $0 COMMAND [ARGS…]" >&2; exit 2; }

pg_bin() {
  if command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return
  fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

bin=$(pg_bin || true)
if [ -z "$bin" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "the PostgreSQL tests need Debian's postgresql: apt-get install postgresql (as root)" >&2
    exit 1
  fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql
  bin=$(pg_bin || true)
  [ -n "$bin" ] || { echo "postgresql is installed but initdb is not found" >&2; exit 1; }
fi

tmp=$(mktemp -d /tmp/plateau-pg.XXXXXX)
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  chown nobody "$tmp"
  as_owner=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
  command -v setpriv >/dev/null || as_owner=(runuser -u nobody --)
fi
chmod 700 "$tmp"

cleanup() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$tmp/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

(cd "$tmp" && "${as_owner[@]}" "$bin/initdb" -D "$tmp/data" -U plateau --auth=trust -E UTF8 --locale=C.UTF-8 \
  --no-sync >"$tmp/initdb.log" 2>&1) || { cat "$tmp/initdb.log" >&2; exit 1; }

# Tests need no durability (fsync off: faster); PLATEAU_PG_DURABLE=1 keeps
# PostgreSQL's defaults (fsync and full page writes on), for measurements.
durability="-c fsync=off -c full_page_writes=off"
[ "${PLATEAU_PG_DURABLE:-}" = 1 ] && durability=""
started=
for _ in 1 2 3 4 5 6 7 8; do
  port=$((20000 + RANDOM % 40000))
  if (cd "$tmp" && "${as_owner[@]}" "$bin/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$tmp $durability \
        -c max_connections=300" start >/dev/null); then
    started=1
    break
  fi
done
[ -n "$started" ] || { echo "PostgreSQL did not start:" >&2; cat "$tmp/server.log" >&2; exit 1; }

echo "$("$bin/postgres" --version) on 127.0.0.1:$port" >&2
PLATEAU_TEST_POSTGRES="postgres://plateau@127.0.0.1:$port/postgres" "$@"
