#!/usr/bin/env bash
# The Python package `plateau` (crates/python): builds it and runs its tests.
#
# 1. A virtual environment under target/python-venv (python3 -m venv; on
#    Debian, python3-venv is installed with apt-get when it is missing and we
#    are root), with maturin, pytest, numpy, mypy (for the type stubs'
#    test), Gymnasium and PettingZoo from PyPI at pinned versions.
# 2. The release build of the `plateau` binary (the tests compare with it).
# 3. The package's wheel (abi3, release) built by maturin into
#    target/python-wheels and installed into the environment.
# 4. pytest on crates/python/tests.
#
# Any failure ends the script with a non-zero status; nothing is skipped.
# `scripts/python.sh --bench` also runs the playout benchmark
# (crates/python/bench/playouts.py). Run from anywhere inside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

MATURIN_VERSION=1.16.0
PYTEST_VERSION=8.4.2

bench=0
for arg in "$@"; do
  case "$arg" in
    --bench) bench=1 ;;
    *) echo "usage: scripts/python.sh [--bench]" >&2; exit 2 ;;
  esac
done

command -v python3 >/dev/null || { echo "scripts/python.sh needs python3 (3.9 or later)" >&2; exit 1; }
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' ||
  { echo "the plateau package needs Python 3.9 or later; python3 is $(python3 --version)" >&2; exit 1; }
# numpy: the newest release with wheels for this Python; mypy (the stubs'
# test) likewise.
NUMPY_VERSION=$(python3 -c 'import sys; print("2.0.2" if sys.version_info < (3, 10) else "2.2.6" if sys.version_info < (3, 14) else "2.4.6")')
MYPY_VERSION=$(python3 -c 'import sys; print("1.14.1" if sys.version_info < (3, 10) else "2.4.1")')
# The environments' frameworks (Gymnasium 1.2 and later need Python 3.10).
GYMNASIUM_VERSION=$(python3 -c 'import sys; print("1.1.1" if sys.version_info < (3, 10) else "1.4.0")')
PETTINGZOO_VERSION=$(python3 -c 'import sys; print("1.24.3" if sys.version_info < (3, 10) else "1.27.0")')

venv=target/python-venv
if [ ! -x "$venv/bin/python" ]; then
  if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "python3 cannot make virtual environments: apt-get install python3-venv (as root)" >&2
      exit 1
    fi
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv
  fi
  rm -rf "$venv"
  python3 -m venv "$venv"
fi
py="$PWD/$venv/bin/python"
"$py" -m pip install --quiet --disable-pip-version-check \
  "maturin==$MATURIN_VERSION" "pytest==$PYTEST_VERSION" "numpy==$NUMPY_VERSION" "mypy==$MYPY_VERSION" \
  "gymnasium==$GYMNASIUM_VERSION" "pettingzoo==$PETTINGZOO_VERSION"

cargo build --release -p plateau

wheels=target/python-wheels
rm -rf "$wheels"
# A wheel for this machine only (no manylinux audit): it is installed here.
compat=()
[ "$(uname -s)" = Linux ] && compat=(--compatibility linux)
"$venv/bin/maturin" build --release --manifest-path crates/python/Cargo.toml --out "$wheels" \
  --interpreter "$py" "${compat[@]}"
"$py" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheels"/plateau-*.whl

# From the tests' directory, so that the installed package is imported, not
# the sources (crates/python/python has no native module).
(cd crates/python && PLATEAU_BIN="$PWD/../../target/release/plateau" "$py" -m pytest -q tests)

if [ "$bench" = 1 ]; then
  "$py" crates/python/bench/playouts.py
fi
