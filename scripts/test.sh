#!/usr/bin/env bash
# Every check CI runs: formatting, lints with warnings as errors, and all tests
# in release mode. Run from anywhere inside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --release
