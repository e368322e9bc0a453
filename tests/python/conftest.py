# SPDX-License-Identifier: MIT OR Apache-2.0
"""Shared fixtures: the built library (through ctypes), the CLI, the
reference model. SHAKERAND_BUILD_DIR names the CMake build directory
(default: build/ at the repository root). SHAKERAND_WINDOWS_CLI names a
Windows build of the CLI (shakerand.exe): the CLI tests then run it under
Wine (tests/windows/wine.sh), skip what holds on POSIX only, and compare
with the library of SHAKERAND_BUILD_DIR (tests/windows/cli.sh does this)."""
import ctypes
import os
import stat
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("SHAKERAND_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
WINDOWS_CLI = os.environ.get("SHAKERAND_WINDOWS_CLI")
WINE = os.path.join(ROOT, "tests", "windows", "wine.sh")

import shakerand_ref  # noqa: E402

# The engine kinds of the reference model's table, which the vector file
# records and the C suite holds the core's to: name -> the C enum's value,
# and name -> the seed length required (0: any).
KINDS = {name: value for name, value, _, _ in shakerand_ref.KINDS}
SEED_SIZES = {name: seed_size for name, _, seed_size, _ in shakerand_ref.KINDS}
ENGINE_SIZE = 4096


class Lib:
    """The C library's API, as a Python program would reach it."""

    def __init__(self, path):
        self.c = ctypes.CDLL(path)
        c = self.c
        c.shakerand_kernel_name.restype = ctypes.c_char_p
        c.shakerand_engine_size.restype = ctypes.c_size_t
        for name in ("shakerand_turboshake128", "shakerand_turboshake256"):
            getattr(c, name).argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p,
                                         ctypes.c_size_t, ctypes.c_uint]
        for name in ("shakerand_shake128", "shakerand_shake256"):
            getattr(c, name).argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p,
                                         ctypes.c_size_t]
        c.shakerand_engine_init.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p,
                                            ctypes.c_size_t]
        c.shakerand_engine_fill.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
        assert c.shakerand_engine_size() == ENGINE_SIZE

    def kernel(self):
        return self.c.shakerand_kernel_name().decode()

    def xof(self, function, message, n, domain=0x1F):
        out = ctypes.create_string_buffer(n)
        fn = getattr(self.c, "shakerand_" + function)
        if function.startswith("turboshake"):
            status = fn(out, n, message, len(message), domain)
        else:
            status = fn(out, n, message, len(message))
        assert status == 0
        return out.raw

    def engine(self, kind, seed):
        return Engine(self, kind, seed)


class Engine:
    def __init__(self, lib, kind, seed):
        self.lib = lib
        # 64-byte alignment: over-allocate and offset.
        self.raw = ctypes.create_string_buffer(ENGINE_SIZE + 64)
        self.addr = (ctypes.addressof(self.raw) + 63) & ~63
        assert lib.c.shakerand_engine_init(self.addr, KINDS[kind], seed, len(seed)) == 0

    def fill(self, n):
        out = ctypes.create_string_buffer(max(n, 1))
        self.lib.c.shakerand_engine_fill(self.addr, out, n)
        return out.raw[:n]


@pytest.fixture(scope="session")
def lib():
    path = os.path.join(BUILD, "libshakerand.so")
    if not os.path.exists(path):
        pytest.fail(f"{path} not built: run 'make' first")
    return Lib(path)


def posix_only(reason):
    """Marks a CLI test that holds on POSIX only (signals, file modes,
    /dev files): skipped for the Windows CLI, saying why."""
    return pytest.mark.skipif(WINDOWS_CLI is not None, reason=f"POSIX only: {reason}")


def not_under_wine(reason):
    """Marks a CLI test that Wine 8 cannot run for the Windows CLI, where
    Wine, not Windows, lacks what the test needs."""
    return pytest.mark.skipif(WINDOWS_CLI is not None, reason=f"not under Wine 8: {reason}")


windows_only = pytest.mark.skipif(WINDOWS_CLI is None,
                                  reason="for the Windows CLI (SHAKERAND_WINDOWS_CLI)")


@pytest.fixture(scope="session")
def cli(tmp_path_factory):
    """A program to run as the CLI: build/shakerand, or for the Windows CLI
    a script that runs it under Wine with the arguments given."""
    if WINDOWS_CLI is None:
        path = os.path.join(BUILD, "shakerand")
        if not os.path.exists(path):
            pytest.fail(f"{path} not built: run 'make' first")
        return path
    if not os.path.exists(WINDOWS_CLI):
        pytest.fail(f"{WINDOWS_CLI} not built: run tests/windows/cli.sh")
    wrapper = tmp_path_factory.mktemp("wine") / "shakerand"
    wrapper.write_text(f'#!/bin/sh\nexec "{WINE}" "{os.path.abspath(WINDOWS_CLI)}" "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


@pytest.fixture(scope="session")
def posix_cli():
    """build/shakerand, for comparing the Windows CLI's output with."""
    path = os.path.join(BUILD, "shakerand")
    if not os.path.exists(path):
        pytest.fail(f"{path} not built: run 'make' first")
    return path


FILE_ALL_ACCESS = 0x001F01FF
LOCAL_SYSTEM = "S-1-5-18"


@pytest.fixture(scope="session")
def show_acl(tmp_path_factory):
    """A function giving a file's security as Windows (Wine) reports it:
    {"user", "owner", "protected", "aces": [(type, mask, flags, sid)]},
    read by tests/windows/show_acl.c, built here."""
    exe = tmp_path_factory.mktemp("show_acl") / "show_acl.exe"
    subprocess.run(["x86_64-w64-mingw32-gcc", "-municode", "-o", str(exe),
                    os.path.join(ROOT, "tests", "windows", "show_acl.c")], check=True)

    def show(path):
        out = subprocess.run([WINE, str(exe), str(path)], capture_output=True, check=True)
        acl = {"aces": []}
        for line in out.stdout.decode().splitlines():
            word, *rest = line.split()
            if word == "ace":
                acl["aces"].append((int(rest[0]), int(rest[1], 16), int(rest[2], 16), rest[3]))
            elif word == "protected":
                acl["protected"] = rest[0] == "1"
            elif word in ("user", "owner"):
                acl[word] = rest[0]
        return acl
    return show


@pytest.fixture
def assert_owner_only(request):
    """A check that a file written by -o is its owner's alone: mode 0600
    on POSIX; on Windows a DACL of one ACE granting the user full access,
    closed to inheritance."""
    def check(path):
        if WINDOWS_CLI is None:
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
            return
        acl = request.getfixturevalue("show_acl")(path)
        assert acl["owner"] == acl["user"], acl
        # The Windows CLI runs under Wine here, and Wine 8 keeps no security
        # descriptor for a file: it turns the DACL set into a Unix mode, and
        # makes one up from the mode when asked, with a first ACE for
        # LocalSystem, never protected. An ACE for Everyone there would mean
        # the mode lets others read. (On Windows: the user's ACE alone.)
        assert acl["aces"][0] == (0, FILE_ALL_ACCESS, 0, LOCAL_SYSTEM), acl
        assert acl["aces"][1:] == [(0, FILE_ALL_ACCESS, 0, acl["user"])], acl
        assert os.stat(path).st_mode & 0o007 == 0
    return check


@pytest.fixture(scope="session")
def ref():
    return shakerand_ref
