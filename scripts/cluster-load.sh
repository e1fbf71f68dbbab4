#!/usr/bin/env bash
# Measure several instances on one PostgreSQL (docs/deploy.md, "Measured"):
#   scripts/cluster-load.sh [--instances N] [--kill SECS] [-- LOADTEST ARGS…]
# builds `plateau`, starts a throwaway PostgreSQL with fsync on
# (scripts/postgres.sh with PLATEAU_PG_DURABLE=1), N instances of
# `plateau serve` on it (default 2; --sync full, leases of 5 s), and runs
# `plateau loadtest` with one --server per instance. With --kill SECS, the
# first instance is killed with SIGKILL SECS seconds into the run (the load
# tool's report then says how many acknowledged moves were lost, the
# reconnections and how long the games stood still). Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."

instances=2
kill_after=
while [ "$#" -gt 0 ]; do
  case "$1" in
    --instances) instances="$2"; shift 2 ;;
    --kill) kill_after="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [--instances N] [--kill SECS] [-- LOADTEST ARGS…]" >&2; exit 2 ;;
  esac
done

cargo build --release -p plateau
export PLATEAU_CLUSTER_INSTANCES="$instances" PLATEAU_CLUSTER_KILL="$kill_after"
PLATEAU_PG_DURABLE=1 exec ./scripts/postgres.sh bash -c '
  set -euo pipefail
  bin=target/release/plateau
  logs=$(mktemp -d)
  pids=()
  trap "kill \${pids[*]} 2>/dev/null || true; rm -rf $logs" EXIT
  servers=()
  for i in $(seq 1 "$PLATEAU_CLUSTER_INSTANCES"); do
    RUST_LOG=warn "$bin" serve --db "$PLATEAU_TEST_POSTGRES" --addr 127.0.0.1:0 --sync full \
      >"$logs/$i.out" 2>"$logs/$i.err" &
    pids+=($!)
    for _ in $(seq 1 100); do
      addr=$(sed -n "s/.*listening on http:\/\/\([0-9.:]*\).*/\1/p" "$logs/$i.out" | head -1)
      [ -n "$addr" ] && break
      sleep 0.1
    done
    [ -n "$addr" ] || { echo "instance $i did not start:"; cat "$logs/$i.err"; exit 1; } >&2
    echo "instance $i: pid ${pids[-1]}, http://$addr" >&2
    servers+=(--server "http://$addr")
  done
  if [ -n "$PLATEAU_CLUSTER_KILL" ]; then
    (sleep "$PLATEAU_CLUSTER_KILL"; echo "kill -9 of instance 1 (pid ${pids[0]}) at $(date +%T.%N)" >&2; kill -9 "${pids[0]}") &
  fi
  "$bin" loadtest "${servers[@]}" "$@"
  # Processor time spent since start (the set-up included), per part.
  cpu() { awk "{ printf \"%.1f\", (\$14 + \$15) / $(getconf CLK_TCK) }" "/proc/$1/stat" 2>/dev/null || echo "-"; }
  pg=0
  for p in $(pgrep -x postgres); do
    pg=$(awk -v a="$pg" -v b="$(cpu "$p")" "BEGIN { print a + (b == \"-\" ? 0 : b) }")
  done
  echo "cpu seconds: instances $(for p in "${pids[@]}"; do printf "%s " "$(cpu "$p")"; done)| postgres (live backends) $pg" >&2
  echo "instance logs (warnings and errors):" >&2
  for i in $(seq 1 "$PLATEAU_CLUSTER_INSTANCES"); do tail -5 "$logs/$i.err" | sed "s/^/  [$i] /" >&2; done
' cluster-load "$@"
