# SPDX-License-Identifier: MIT OR Apache-2.0
"""Snapshots (docs/system.md, "Snapshots and clones"): after new_epoch()
a SystemBitGenerator hands out nothing it held (the draws that go straight
to the C core reseed there: tests/test_snapshot.cpp); the after-restore
hook of snapshot-restore-py (AWS Lambda SnapStart) calls it."""
import pytest

import shakerand

np = pytest.importorskip("numpy")
from shakerand.numpy import SystemBitGenerator  # noqa: E402

BUFFER = shakerand._core.SYSTEM_BITS_BYTES


def test_new_epoch_drops_a_system_bit_generators_buffer():
    bg = SystemBitGenerator()
    g = np.random.Generator(bg)
    g.random(3)
    assert bg.buffered() == BUFFER - 24
    shakerand.new_epoch()
    assert bg.buffered() == 0  # held bytes of the old epoch are not for numpy
    g.random()
    assert bg.buffered() == BUFFER - 8  # filled again, one value taken


def test_new_epoch_from_another_thread_reaches_this_buffer():
    import threading

    bg = SystemBitGenerator()
    g = np.random.Generator(bg)
    g.random()
    t = threading.Thread(target=shakerand.new_epoch)
    t.start()
    t.join()
    assert bg.buffered() == 0


def test_watches_vm_generation_is_a_bool():
    # This machine kind has no vmclock device (docs/system.md).
    assert shakerand.watches_vm_generation() in (False, True)
    assert isinstance(shakerand.watches_vm_generation(), bool)


def test_snapshot_restore_py_runs_new_epoch_after_restore():
    srp = pytest.importorskip("snapshot_restore_py")
    hooks = [func for func, _args, _kwargs in srp.get_after_restore()]
    assert shakerand.new_epoch in hooks
    assert shakerand.new_epoch in [func for func, _args, _kwargs in srp.get_before_snapshot()]
    bg = SystemBitGenerator()
    np.random.Generator(bg).random()
    for func, args, kwargs in srp.get_after_restore():  # as the runtime does after a restore
        func(*args, **kwargs)
    assert bg.buffered() == 0
