# SPDX-License-Identifier: MIT OR Apache-2.0
"""Shared fixtures: the built library (through ctypes), the CLI, the
reference model. SHAKERAND_BUILD_DIR names the CMake build directory
(default: build/ at the repository root)."""
import ctypes
import os
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("SHAKERAND_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import shakerand_ref  # noqa: E402

KINDS = {"turboshake256": 1, "shake256": 2, "turboshake256x8": 3, "chacha8rand": 4}
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


@pytest.fixture(scope="session")
def cli():
    path = os.path.join(BUILD, "shakerand")
    if not os.path.exists(path):
        pytest.fail(f"{path} not built: run 'make' first")
    return path


@pytest.fixture(scope="session")
def ref():
    return shakerand_ref
