# SPDX-License-Identifier: MIT OR Apache-2.0
"""A child made by a raw fork system call (no pthread_atfork handler runs)
shares no value with its parent, where the kernel zeroes SystemBits' pages
in a child (MADV_WIPEONFORK) and where it does not: under
tests/no_wipeonfork.c, which makes the kernel refuse WIPEONFORK as Linux
before 4.14 does, and with --refuse-mmap the buffer's mapping too (the
calloc fallback). SystemBits then compares the pid before every value.

The draws run in a new Python started under the launcher: its filter must
be in place before the extension allocates a buffer."""
import json
import os
import pathlib
import platform
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the launcher is Linux's (seccomp)")

# Run by a new Python: draws from each path before a raw fork (so each buffer
# holds output and its pid), then 64 values of each path in the child and in
# the parent. Prints the buffer's storage and both sets of values as JSON.
CHILD = r"""
import ctypes, json, os, sys
import numpy as np
import shakerand
from shakerand.numpy import SystemBitGenerator

# The GIL held through the system call (PyDLL): the child has one thread.
syscall = ctypes.PyDLL(None).syscall
syscall.restype = ctypes.c_long
SIGCHLD = 17
machine = os.uname().machine
if machine == "x86_64":
    fork = lambda: syscall(ctypes.c_long(57))  # __NR_fork
elif machine in ("aarch64", "riscv64"):
    # No fork system call: clone(SIGCHLD, 0, 0, 0, 0) is one.
    fork = lambda: syscall(ctypes.c_long(220), ctypes.c_long(SIGCHLD), *[ctypes.c_long(0)] * 4)
elif machine in ("ppc64le", "ppc64", "s390x"):
    fork = lambda: syscall(ctypes.c_long(2))  # __NR_fork
else:
    print(json.dumps({"skip": "no raw fork known for " + machine}))
    sys.exit(0)

bg = SystemBitGenerator()
gen = np.random.Generator(bg)
c = bg.ctypes
paths = {
    "next_uint64": lambda: [c.next_uint64(c.state) for _ in range(64)],
    "next_uint32": lambda: [c.next_uint32(c.state) for _ in range(64)],
    "next_double": lambda: [c.next_double(c.state) for _ in range(64)],
    "Generator.integers": lambda: gen.integers(0, 2 ** 64, 64, dtype=np.uint64).tolist(),
    "Generator.random": lambda: gen.random(64).tolist(),
    "random_raw": lambda: bg.random_raw(64).tolist(),
    "token_bytes": lambda: [shakerand.token_bytes(8).hex() for _ in range(64)],
    "SystemRandom.random": lambda: [shakerand.SystemRandom().random() for _ in range(64)],
}
for draw in paths.values():
    draw()
assert bg.buffered() > 0, "nothing buffered before the fork"
mapped, wiped = bg._locked("storage")
read, write = os.pipe()
pid = fork()
if pid < 0:
    print(json.dumps({"skip": "the raw fork failed: errno %d" % ctypes.get_errno()}))
    sys.exit(0)
values = {name: draw() for name, draw in paths.items()}
if pid == 0:
    os.write(write, json.dumps(values).encode())
    os._exit(0)
os.close(write)
chunks = []
while True:
    chunk = os.read(read, 1 << 16)
    if not chunk:
        break
    chunks.append(chunk)
_, status = os.waitpid(pid, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
print(json.dumps({"mapped": mapped, "wiped": wiped, "parent": values,
                  "child": json.loads(b"".join(chunks))}))
"""


def _launcher_source():
    for candidate in (HERE.parent.parent / "tests" / "no_wipeonfork.c",  # a checkout
                      HERE.parent / "csrc" / "tests" / "no_wipeonfork.c"):  # an unpacked sdist
        if candidate.is_file():
            return candidate
    return None


@pytest.fixture(scope="module")
def launcher(tmp_path_factory):
    source = _launcher_source()
    if source is None:
        pytest.skip("no tests/no_wipeonfork.c to build the launcher from")
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler (cc) to build tests/no_wipeonfork.c")
    out = tmp_path_factory.mktemp("launcher") / "no_wipeonfork"
    built = subprocess.run([cc, "-O2", "-o", str(out), str(source)],
                           capture_output=True, text=True)
    if built.returncode != 0:
        pytest.skip("tests/no_wipeonfork.c does not build here (%s): %s"
                    % (platform.machine(), built.stderr.strip()[-400:]))
    check = subprocess.run([str(out), "--check"], capture_output=True, text=True)
    if check.returncode == 77:
        pytest.skip("the seccomp filter cannot be installed here: " + check.stderr.strip())
    assert check.returncode == 0, check.stderr
    return out


# getpid as glibc before 2.25 had it: the first answer, cached, which a raw
# clone's child kept (the C library's copy, not the kernel's).
PID_CACHE_SHIM = r'''
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
static pid_t cached;
pid_t getpid(void)
{
    if (cached == 0)
        cached = (pid_t)syscall(SYS_getpid);
    return cached;
}
'''


@pytest.fixture(scope="module")
def pid_cache_shim(tmp_path_factory, launcher):
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    folder = tmp_path_factory.mktemp("pidcache")
    (folder / "pidcache.c").write_text(PID_CACHE_SHIM)
    out = folder / "pidcache.so"
    built = subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(out),
                            str(folder / "pidcache.c")], capture_output=True, text=True)
    if built.returncode != 0:
        pytest.skip("the pid-cache shim does not build here: " + built.stderr.strip()[-400:])
    return out


def mapping_bytes():
    """The length of a SystemBits buffer's own mmap (refused to force calloc)."""
    pytest.importorskip("numpy")
    from shakerand import _core
    mapped, _ = _core.SystemBits().storage()
    if mapped == 0:
        pytest.skip("SystemBits' buffers are not mapped here")
    return mapped


def draws_across_raw_fork(prefix, env=None):
    pytest.importorskip("numpy")
    run = subprocess.run(prefix + [sys.executable, "-c", CHILD],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    if "skip" in result:
        pytest.skip(result["skip"])
    repeated = {}
    for name, parent in result["parent"].items():
        child = result["child"][name]
        assert len(child) == len(parent) == 64
        shared = len(set(child) & set(parent))
        if shared:
            repeated[name] = "%d of 64" % shared
    assert not repeated, "values the child shares with its parent: %s" % repeated
    return result


def test_raw_fork_child_shares_no_value_with_wipeonfork():
    # The kernel's own behaviour (on a kernel that refuses WIPEONFORK this is the pid check).
    draws_across_raw_fork([])


def test_raw_fork_child_shares_no_value_with_wipeonfork_refused(launcher):
    result = draws_across_raw_fork([str(launcher), "--"])
    assert result["mapped"] > 0 and not result["wiped"]


def test_raw_fork_child_shares_no_value_from_the_calloc_fallback(launcher):
    size = mapping_bytes()
    result = draws_across_raw_fork([str(launcher), "--refuse-mmap", str(size), "--"])
    assert result["mapped"] == 0 and not result["wiped"]


def test_raw_fork_child_shares_no_value_where_the_c_library_caches_the_pid(launcher,
                                                                          pid_cache_shim):
    # The pid compared is the kernel's: a C library's cached one (glibc before 2.25)
    # stays the parent's in a raw clone's child.
    env = dict(os.environ, LD_PRELOAD=str(pid_cache_shim))
    result = draws_across_raw_fork([str(launcher), "--"], env)
    assert result["mapped"] > 0 and not result["wiped"]


@pytest.mark.parametrize("calloc", [False, True], ids=["wipeonfork-refused", "calloc"])
def test_system_bit_generator_tests_pass_where_the_pid_is_checked(launcher, calloc):
    # The checked take has its own epoch comparison and buffered() its own count: the
    # snapshot, fork and numpy tests of SystemBitGenerator again on that path.
    prefix = [str(launcher)] + (["--refuse-mmap", str(mapping_bytes())] if calloc else []) + ["--"]
    run = subprocess.run(
        prefix + [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                  str(HERE / "test_snapshot.py"), str(HERE / "test_numpy.py"),
                  str(HERE / "test_fork_and_threads.py"), "-k",
                  "snapshot or epoch or system or bit_generator"],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
