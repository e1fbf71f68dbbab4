"""Shared fixtures of the tests of the `plateau` package.

The tests that compare with the command line run the release build of
``plateau`` (``target/release/plateau`` at the repository's root, or the path
in ``PLATEAU_BIN``). They fail, never skip, when it is missing:
``scripts/python.sh`` builds it first.
"""

import os
import pathlib
import subprocess

import pytest

import plateau

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def plateau_bin() -> str:
    path = os.environ.get("PLATEAU_BIN") or str(REPO / "target" / "release" / "plateau")
    assert os.access(path, os.X_OK), (
        f"{path} is missing: build it with `cargo build --release -p plateau` (scripts/python.sh does)"
    )
    return path


@pytest.fixture(scope="session")
def cli(plateau_bin):
    """Run ``plateau ARGS...`` and return its standard output; fail with its
    standard error when it fails."""

    def run(*args: str, input: str = None) -> str:
        p = subprocess.run([plateau_bin, *args], capture_output=True, text=True, input=input, timeout=300)
        assert p.returncode == 0, f"plateau {' '.join(args)} failed:\n{p.stderr}"
        return p.stdout

    return run


def all_variants():
    """(game, variant) for every game and variant, as pytest parameters."""
    return [pytest.param(g["name"], v["name"], id=f"{g['name']}-{v['name']}") for g in plateau.games() for v in g["variants"]]
