# SPDX-License-Identifier: MIT OR Apache-2.0
"""Fork: a child never repeats its parent (the module functions,
SystemRandom, a SystemBitGenerator holding buffered values); the seeded
generators do, by design (the control). Threads: distinct streams, the bulk
paths without the GIL, a seeded Random shared under load."""
import os
import threading

import pytest

import shakerand

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def in_child(draw):
    """draw() in a forked child and in this process, after the fork."""
    child = fork_with_alarm(lambda: repr(draw()).encode())
    return child.decode(), repr(draw())


def fork_with_alarm(child):
    """child() -> bytes in a forked child that is killed if it hangs (the
    test then fails); its bytes in this process. Other threads may run."""
    import signal
    import warnings

    read, write = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads
        pid = os.fork()
    if pid == 0:
        signal.alarm(20)
        try:
            os.write(write, child())
        finally:
            os._exit(0)
    os.close(write)
    out = b""
    while True:
        part = os.read(read, 65536)
        if not part:
            break
        out += part
    os.close(read)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    return out


@pytest.mark.parametrize("name", ["token_bytes", "random", "randbelow", "uuid4", "randbits"])
def test_functions_differ_across_fork(name):
    calls = {"token_bytes": lambda: shakerand.token_bytes(32), "random": shakerand.random,
             "randbelow": lambda: shakerand.randbelow(2 ** 62),
             "uuid4": lambda: str(shakerand.uuid4()), "randbits": lambda: shakerand.randbits(128)}
    draw = calls[name]
    draw()  # the thread's generator holds output before the fork
    child, parent = in_child(lambda: [draw() for _ in range(4)])
    assert child != parent


def test_system_random_differs_across_fork():
    r = shakerand.SystemRandom()
    r.random()
    child, parent = in_child(lambda: (r.randbytes(16), r.getrandbits(64), r.sample(range(10 ** 9), 3)))
    assert child != parent


def test_system_bit_generator_drops_its_buffer_at_fork():
    np = pytest.importorskip("numpy")
    from shakerand.numpy import SystemBitGenerator
    bg = SystemBitGenerator()
    g = np.random.Generator(bg)
    g.random(4)
    assert bg.buffered() > 0  # these bytes would repeat if the child kept them
    child, parent = in_child(lambda: (bg.buffered(), g.integers(0, 2 ** 63, 8).tolist()))
    buffered_in_child = int(child.split(",")[0].strip("("))
    assert buffered_in_child == 0
    assert child.split(",", 1)[1] != parent.split(",", 1)[1]


def test_control_seeded_generators_repeat_across_fork():
    # Documented: a seeded generator is its seed's stream, in any process; so
    # is numpy's PCG64. The fork test above would catch that.
    r = shakerand.Random(b"same")
    child, parent = in_child(lambda: r.randbytes(16))
    assert child == parent
    np = pytest.importorskip("numpy")
    g = np.random.default_rng(1)
    child, parent = in_child(lambda: g.random(3).tolist())
    assert child == parent


def run_threads(target, n=8):
    results = [None] * n
    errors = []

    def body(i):
        try:
            results[i] = target()
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


def test_threads_get_distinct_streams():
    words = run_threads(lambda: [shakerand.randbits(64) for _ in range(1000)])
    flat = [w for ws in words for w in ws]
    assert len(set(flat)) == len(flat)
    blobs = run_threads(lambda: shakerand.SystemRandom().randbytes(1 << 20))  # without the GIL
    assert len({b[:32] for b in blobs}) == len(blobs) and all(len(b) == 1 << 20 for b in blobs)


def test_threads_on_one_system_bit_generator():
    np = pytest.importorskip("numpy")
    from shakerand.numpy import SystemBitGenerator
    g = np.random.Generator(SystemBitGenerator())
    out = run_threads(lambda: g.integers(0, 2 ** 63, 20000).tolist())
    flat = [w for ws in out for w in ws]
    assert len(set(flat)) == len(flat)


def test_seeded_random_shared_by_threads_under_bulk_fills():
    # Bulk fills run without the GIL while small calls wait for them: every
    # call gets whole, distinct parts of the one stream.
    r = shakerand.Random(b"shared")
    n_big, big = 4, 3 * shakerand._core.RELEASE_GIL_BYTES

    def work():
        parts = []
        for _ in range(n_big):
            parts.append(r.randbytes(big))
            parts.extend(r.randbytes(8) for _ in range(50))
        return parts

    parts = [p for ps in run_threads(work, 4) for p in ps]
    total = sum(len(p) for p in parts)
    stream = shakerand.Random(b"shared").randbytes(total)
    # each part is a slice of the stream, and together they cover it once
    offsets = sorted(stream.find(p) if len(p) >= 64 else -1 for p in parts if len(p) >= 64)
    assert all(o >= 0 for o in offsets)
    assert len(set(offsets)) == len(offsets)
    assert sorted(b"".join(parts)) == sorted(stream)  # the same bytes, each once


def test_system_random_gauss_keeps_no_value_for_a_child_or_another_thread():
    # random.Random.gauss caches every second value in gauss_next; a cached
    # value would come out in both the parent and a forked child.
    r = shakerand.SystemRandom()
    r.gauss()
    assert r.gauss_next is None
    child, parent = in_child(lambda: r.gauss())
    assert child != parent
    values = run_threads(lambda: r.gauss(), 8)
    assert len(set(values)) == len(values)


def test_fork_while_another_thread_fills_a_seeded_random_fails_closed_in_the_child():
    # The fill runs without the GIL: a fork in the middle of it leaves the
    # engine's state half-written in the child, and its lock held by a thread
    # the child does not have. The child must get an error, never hang.
    r = shakerand.Random(b"filling")
    stop = threading.Event()

    def fill():
        while not stop.is_set():
            r.randbytes(8 << 20)

    def child():
        try:
            r.random()
            outcome = b"value"
        except RuntimeError as e:
            assert "forked" in str(e)
            outcome = b"error"
            r.seed(b"again")  # a new engine works
            assert r.random() == shakerand.Random(b"again").random()
        r.randbytes(1 << 17)  # the bulk path too
        return outcome

    thread = threading.Thread(target=fill)
    thread.start()
    outcomes = set()
    try:
        for _ in range(40):
            outcomes.add(fork_with_alarm(child))
            if b"error" in outcomes:
                break
    finally:
        stop.set()
        thread.join()
    assert b"error" in outcomes  # the fork did land in a fill
    r.random()  # the parent's generator is untouched


def test_fork_while_another_thread_draws_from_a_system_bit_generator():
    # numpy holds the bit generator's lock through each call; a fork in the
    # middle of one leaves it held by a thread the child does not have. The
    # child must draw (fresh values, not the parent's), never hang.
    np = pytest.importorskip("numpy")
    from shakerand.numpy import SystemBitGenerator

    bg = SystemBitGenerator()
    g = np.random.Generator(bg)
    stop = threading.Event()

    def draw():
        while not stop.is_set():
            g.random(200000)

    def values():
        return g.bytes(16) + bg.random_raw().to_bytes(8, "little")

    thread = threading.Thread(target=draw)
    thread.start()
    try:
        for _ in range(10):
            child = fork_with_alarm(values)
            assert len(child) == 24 and child != values()
    finally:
        stop.set()
        thread.join()


def test_a_lock_the_forking_thread_holds_stays_held_in_the_child():
    np = pytest.importorskip("numpy")
    from shakerand.numpy import SystemBitGenerator
    bg = SystemBitGenerator()
    if not hasattr(bg.lock, "_is_owned"):
        pytest.skip("numpy 1.x: a plain Lock does not know its owner (docs/python.md)")

    def child():
        bg.lock.release()  # still ours: the hook left it alone
        return bytes(np.random.Generator(bg).bytes(4))

    with bg.lock:
        assert len(fork_with_alarm(child)) == 4
