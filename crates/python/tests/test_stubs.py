"""The type stubs agree with the module (mypy's stubtest), and the package
type-checks under ``mypy --strict``."""

import subprocess
import sys


def run(*args):
    p = subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr


def test_stubs_match_the_native_module():
    run("mypy.stubtest", "plateau", "--mypy-config-file", "pyproject.toml")


def test_the_package_type_checks():
    run("mypy", "--strict", "-p", "plateau")
