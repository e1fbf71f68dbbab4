#!/usr/bin/env bash
# The fuzz tests (tests/fuzz.rs of core, the four games, ai, games and server:
# 18 properties over every parser that reads outside input), run long. CI runs
# them with proptest's default of 256 cases each; this runs CASES each
# (default 60,000: over a million in all). Usage: scripts/fuzz.sh [CASES]
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-60000}"
start=$(date +%s)
PROPTEST_CASES="$cases" cargo test --release --no-fail-fast \
  -p plateau-core -p plateau-abalone -p plateau-colorito -p plateau-kabaleo -p plateau-abraxas \
  -p plateau-ai -p plateau-games -p plateau-server --test fuzz
echo "fuzz: $cases cases per property, 18 properties, $(( $(date +%s) - start )) s"
