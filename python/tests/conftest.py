# SPDX-License-Identifier: MIT OR Apache-2.0
"""Fixtures: the shared vector file and the C CLI (the cross-language
oracle). Both are found through the environment, so the suite also runs
from an unpacked sdist:

  SHAKERAND_VECTORS      the vector file; else ../../vectors/shakerand.json
                         (a checkout) or ../csrc/vectors/shakerand.json (an
                         unpacked sdist)
  SHAKERAND_CLI          the shakerand CLI; its tests skip without it, unless
  SHAKERAND_REQUIRE_CLI  is 1 (make test), when they fail instead
"""
import json
import os
import pathlib

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def _vector_path():
    if os.environ.get("SHAKERAND_VECTORS"):
        return pathlib.Path(os.environ["SHAKERAND_VECTORS"])
    for candidate in (HERE.parent.parent / "vectors" / "shakerand.json",
                      HERE.parent / "csrc" / "vectors" / "shakerand.json"):
        if candidate.is_file():
            return candidate
    return None


@pytest.fixture(scope="session")
def vectors():
    path = _vector_path()
    assert path is not None and path.is_file(), "no vector file (set SHAKERAND_VECTORS)"
    return json.loads(path.read_text())


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("SHAKERAND_CLI")
    if not path or not os.access(path, os.X_OK):
        if os.environ.get("SHAKERAND_REQUIRE_CLI") == "1":
            pytest.fail("SHAKERAND_REQUIRE_CLI=1 but SHAKERAND_CLI names no executable")
        pytest.skip("no CLI (set SHAKERAND_CLI)")
    return path


def ptn(n):
    """RFC 9861's pattern: byte i is i mod 251."""
    return bytes(i % 251 for i in range(n))


def pytest_configure(config):
    # numpy's test_direct.py (test_numpy_parity.py runs its Base checks) marks tests with
    # pytest-run-parallel's marker.
    config.addinivalue_line("markers", "thread_unsafe: numpy's marker, unused here")
