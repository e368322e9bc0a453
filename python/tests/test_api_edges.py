# SPDX-License-Identifier: MIT OR Apache-2.0
"""The edges where a drop-in must behave as the standard library does:
keyword arguments and signatures as in secrets and random, explicit base
calls, seeds of every bytes-like and integer type, int subclasses, and
numpy's argument checks before anything is drawn."""
import array
import copy
import inspect
import mmap
import secrets

import pytest

import shakerand


@pytest.mark.parametrize("name,kwargs", [
    ("token_bytes", {"nbytes": 5}), ("token_hex", {"nbytes": 5}),
    ("token_urlsafe", {"nbytes": 5}), ("randbelow", {"exclusive_upper_bound": 7}),
    ("randbits", {"k": 9}), ("choice", {"seq": "abc"}),
])
def test_keywords_and_signatures_are_those_of_secrets(name, kwargs):
    ours, theirs = getattr(shakerand, name), getattr(secrets, name)
    assert list(inspect.signature(ours).parameters) == list(inspect.signature(theirs).parameters)
    ours(**kwargs)
    theirs(**kwargs)


def test_bad_keywords_and_counts_are_type_errors():
    for call in (lambda: shakerand.token_bytes(nbytes=1, extra=2),
                 lambda: shakerand.token_bytes(size=3),
                 lambda: shakerand.token_bytes(1, 2),
                 lambda: shakerand.randbelow(),
                 lambda: shakerand.randbelow(5, exclusive_upper_bound=5),
                 lambda: shakerand.randbits(),
                 lambda: shakerand.random(1),
                 lambda: shakerand.SystemRandom.random(5)):
        with pytest.raises(TypeError):
            call()


def test_reseed_takes_data_by_keyword_none_or_any_buffer():
    shakerand.reseed()
    shakerand.reseed(None)
    shakerand.reseed(data=b"x")
    shakerand.reseed(bytearray(b"y"))
    shakerand.reseed(array.array("I", [1, 2]))
    with pytest.raises(TypeError):
        shakerand.reseed("text")
    with pytest.raises(TypeError):
        shakerand.reseed(data=5)
    released = memoryview(b"z")
    released.release()
    with pytest.raises(ValueError):  # its own error, not a misleading TypeError
        shakerand.reseed(released)
    # A NUL inside a name does not end it early.
    with pytest.raises(ValueError):
        shakerand.Random(b"k" * 32, kind="chacha8rand\x00junk")
    with pytest.raises(ValueError):
        shakerand.below(10, "rng-bc-1\x00zz")
    assert inspect.signature(shakerand.reseed).parameters["data"].default is None


def test_system_random_methods_are_methods():
    r = shakerand.SystemRandom()
    for name in ("random", "getrandbits", "randbytes", "_randbelow"):
        assert inspect.signature(getattr(shakerand.SystemRandom, name)).parameters
    assert 0.0 <= shakerand.SystemRandom.random(r) < 1.0
    assert shakerand.SystemRandom.getrandbits(r, 8) < 256
    assert len(shakerand.SystemRandom.randbytes(r, 3)) == 3
    assert r.getrandbits(k=4) < 16 and len(r.randbytes(n=2)) == 2

    class Sub(shakerand.SystemRandom):
        def random(self):
            return super().random() / 2

    s = Sub()
    assert all(s.random() < 0.5 for _ in range(100))
    assert all(s.uniform(0, 2) < 1.0 for _ in range(100))  # uniform goes through random
    assert sorted(s.sample(range(10), 10)) == list(range(10))


def test_int_subclasses_cannot_lie_about_their_size():
    class Liar(int):
        def bit_length(self):
            return -1

        def __gt__(self, other):
            return True

    assert 0 <= shakerand.below(Liar(5)) < 5
    assert 0 <= shakerand.below(Liar(2 ** 300)) < 2 ** 300
    with pytest.raises(ValueError):
        shakerand.below(Liar(0))
    assert 0 <= shakerand.randbelow(Liar(2 ** 100)) < 2 ** 100
    assert 0 <= shakerand.Random(b"s").below(Liar(7)) < 7


def test_seeds_of_any_buffer_or_integer_type():
    want = shakerand.Random(b"\x01\x02\x03").randbytes(16)
    for seed in (bytearray(b"\x01\x02\x03"), memoryview(b"\x01\x02\x03"),
                 array.array("B", [1, 2, 3]), memoryview(b"\x00\x01\x02\x03")[1:]):
        assert shakerand.Random(seed).randbytes(16) == want
    with mmap.mmap(-1, 3) as m:
        m.write(b"\x01\x02\x03")
        assert shakerand.Random(m).randbytes(16) == want
    assert shakerand.Random(True).randbytes(8) == shakerand.Random(1).randbytes(8)
    with pytest.raises(TypeError):
        shakerand.Random(1.5)
    with pytest.raises(TypeError):
        shakerand.Random([1, 2, 3])
    with pytest.raises(ValueError, match="32 bytes, not 3"):
        shakerand.Random(array.array("B", [1, 2, 3]), kind="chacha8rand")


def test_numpy_seeds_and_argument_checks():
    np = pytest.importorskip("numpy")
    from shakerand.numpy import BitGenerator, SystemBitGenerator
    want = shakerand.Random(b"\x01\x02\x03").randbytes(16)
    assert shakerand.Random(np.array([1, 2, 3], dtype=np.uint8)).randbytes(16) == want
    assert shakerand.Random(np.int64(7)).randbytes(16) == shakerand.Random(7).randbytes(16)
    # Not seeds: object arrays (their buffer holds addresses), numpy floats (a float with a
    # buffer), dtypes no buffer can export; each a TypeError, as any other type.
    for bad in (np.array([object()], dtype=object), np.float64(1.5), np.float32(1.5),
                np.longdouble(1.5), np.array([1.5], dtype=np.longdouble),
                np.zeros(2, dtype=[("a", "<i4")]), np.array(["2020-01-01"], dtype="datetime64[D]")):
        with pytest.raises(TypeError):
            shakerand.Random(bad)
    # numbers of any width or byte order are seeds, floats in an array too
    assert shakerand.Random(np.array([1, 2, 3], dtype=">u2")).randbytes(8) == \
        shakerand.Random(b"\x00\x01\x00\x02\x00\x03").randbytes(8)
    assert shakerand.Random(array.array("d", [1.5])).randbytes(8) == \
        shakerand.Random(array.array("d", [1.5]).tobytes()).randbytes(8)
    shakerand.reseed(np.arange(10, dtype=np.uint8)[::2])  # any buffer, strided too
    bg = BitGenerator(b"s")
    for bad in (1.5, "3", -1, (2, -1)):
        before = copy.copy(bg).random_raw()
        with pytest.raises((TypeError, ValueError)):
            bg.random_raw(bad)
        assert bg.random_raw() == before  # nothing was drawn
    assert bg.random_raw((2, 3)).shape == (2, 3)
    assert bg.random_raw(0).shape == (0,)
    for g in (bg, SystemBitGenerator()):
        with pytest.raises(ValueError):
            g.spawn(-1)
        with pytest.raises(TypeError):
            g.spawn(1.0)
        assert g.spawn(0) == []


def test_numpy_seeded_bit_generator_copies_continue_the_stream():
    pytest.importorskip("numpy")
    from shakerand.numpy import BitGenerator
    bg = BitGenerator(b"copy")
    bg.random_raw(3)
    for other in (copy.copy(bg), copy.deepcopy(bg)):
        assert type(other) is BitGenerator and other.kind == bg.kind
        assert other.random_raw(5).tolist() == copy.copy(bg).random_raw(5).tolist()
    c = copy.copy(bg)
    c.random_raw(10)
    assert c.random_raw() != bg.random_raw()  # independent: bg did not move with c
