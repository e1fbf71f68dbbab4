#!/usr/bin/env bash
# Every check CI runs: formatting, lints with warnings as errors, all tests in
# release mode (the fuzz tests, tests/fuzz.rs, with 256 cases each; scripts/fuzz.sh
# runs them long), and the rules crates' tests in debug mode, where
# debug_assert!s and overflow checks run. Run from anywhere inside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

# The engine protocol's tests run a small engine written in Python
# (crates/engine/fixtures/random_engine.py): Debian's python3 if missing.
if ! command -v python3 >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "the engine protocol's tests need python3: apt-get install python3 (as root)" >&2
    exit 1
  fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3
fi

cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --release
# The Python package (crates/python): its own virtual environment under
# target/, maturin, pytest and mypy from PyPI (pinned), the wheel built and
# installed, its pytest tests. About 30 s after the release build.
./scripts/python.sh
# The server's tests again on PostgreSQL: scripts/postgres.sh makes a throwaway
# cluster (initdb in a temporary directory, as `nobody` when run as root, on a
# free loopback port; Debian's postgresql installed with apt-get if missing),
# runs the command with PLATEAU_TEST_POSTGRES set (each test server gets a
# database of its own), then removes the cluster. Fails if PostgreSQL cannot
# be set up. With them, the tests of several instances on one database (in
# one process, crates/server/tests/cluster.rs; real processes, one killed with
# SIGKILL, crates/cli/tests/cluster.rs), which are #[ignore]d in the pass
# above (they need PostgreSQL) and fail here without it. About 4 minutes on 2
# cores (the build is the one above).
./scripts/postgres.sh bash -c 'cargo test --release -p plateau-server -- --include-ignored &&
  cargo test --release -p plateau --test cluster -- --include-ignored'
# Debug mode (the test profile, opt-level 1, with debug assertions and
# overflow checks): the core, the conformance kit, the four games and the AI.
# About 4 minutes on 2 cores from a clean debug build, 75 s of it tests.
cargo test -p plateau-core -p plateau-conformance -p plateau-abalone -p plateau-colorito \
  -p plateau-kabaleo -p plateau-abraxas -p plateau-ai

# The browser tests of the web interface (e2e/): Playwright (the playwright-core
# npm package, never a downloaded browser) drives Debian's Chromium, headless,
# against the real `plateau serve` (release build) on a free port with a
# temporary database. Screenshots go to e2e/artifacts/.
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "the browser tests need Debian's chromium: apt-get install chromium (as root)" >&2
    exit 1
  fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi
command -v npm >/dev/null || { echo "the browser tests need Node.js and npm" >&2; exit 1; }
(cd e2e && npm ci --no-audit --no-fund)
cargo build --release -p plateau
(cd e2e && node --test --test-concurrency=1 tests/)
