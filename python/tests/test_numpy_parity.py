# SPDX-License-Identifier: MIT OR Apache-2.0
"""numpy's own expectations of a bit generator, run against ours: the
generic ``Base`` checks of numpy's test suite (numpy/random/tests/
test_direct.py, imported when numpy ships its tests) on BitGenerator, and
the same behaviours checked directly for both classes."""
import pickle

import pytest

np = pytest.importorskip("numpy")
from shakerand.numpy import BitGenerator, SystemBitGenerator  # noqa: E402

import shakerand  # noqa: E402
from conftest import ptn  # noqa: E402

try:
    from numpy.random.tests.test_direct import Base as _NumpyBase
except ImportError:  # a numpy installed without its tests
    _NumpyBase = None

try:
    import cffi  # noqa: F401
except ImportError:
    cffi = None


def _data(seed, kind):
    words = np.frombuffer(shakerand.Random(seed, kind).randbytes(8 * 1000), dtype="<u8")
    return {"seed": [seed, kind], "data": words.astype(np.uint64)}


@pytest.mark.skipif(_NumpyBase is None, reason="numpy installed without numpy.random.tests")
class TestNumpyBase(_NumpyBase or object):
    """numpy's checks as numpy runs them on PCG64, Philox, ...: raw words,
    doubles, float32s and legacy normals derived from them, state errors,
    the ctypes and cffi interfaces, repr."""

    @classmethod
    def setup_class(cls):
        cls.bit_generator = BitGenerator
        cls.bits = 64
        cls.dtype = np.uint64
        cls.seed_error_type = TypeError
        cls.invalid_init_types = [(1.5,), (object(),), (b"x", 3)]
        cls.invalid_init_values = [(-1,), (2 ** 256,), (b"short", "chacha8rand"), (b"x", "pcg64")]
        cls.data1 = _data(ptn(32), "turboshake256")
        cls.data2 = _data(bytes(range(32)), "chacha8rand")

    # Where ours differs from numpy's by design: a seeded engine's state is
    # its key, so it is not pickled, and there is no SeedSequence behind it.
    def test_pickle(self):
        with pytest.raises(TypeError):
            pickle.dumps(self.bit_generator(*self.data1["seed"]))

    def test_pickle_preserves_seed_sequence(self):
        pytest.skip("not pickled, and seeded without a SeedSequence")

    def test_getstate(self):
        pytest.skip("not pickled, and seeded without a SeedSequence")


MAKERS = [SystemBitGenerator, lambda: BitGenerator(b"parity")]


@pytest.mark.parametrize("make", MAKERS)
def test_setting_state_to_a_non_dict_is_a_type_error(make):
    bg = make()
    for bad in ({"1"}, None, 3, [("bit_generator", "x")]):
        with pytest.raises(TypeError):
            bg.state = bad
    state = bg.state
    state["bit_generator"] = "otherBitGenerator"
    with pytest.raises(ValueError):
        bg.state = state


def test_state_snapshots_of_the_same_generator_compare_equal():
    bg = BitGenerator(b"snapshots")
    first = bg.state
    assert first == bg.state
    assert first == BitGenerator(b"snapshots").state
    bg.random_raw()
    assert first != bg.state
    assert first != BitGenerator(b"snapshots", "shake256").state
    assert SystemBitGenerator().state == SystemBitGenerator().state


def test_random_state_snapshots_compare_equal():
    r = shakerand.Random(b"snapshots")
    assert r.getstate() == r.getstate()
    state = r.getstate()
    r.random()
    assert state != r.getstate()
    r.setstate(state)
    assert state == r.getstate()
    with pytest.raises(TypeError):  # the engine in it changes as it draws
        hash(state[3])


@pytest.mark.parametrize("make", MAKERS)
def test_ctypes_is_the_same_object_each_time(make):
    bg = make()
    first = bg.ctypes
    assert bg.ctypes is first
    assert 0.0 <= first.next_double(first.state_address) < 1.0


@pytest.mark.skipif(cffi is None, reason="cffi not installed")
@pytest.mark.parametrize("make", MAKERS)
def test_cffi_is_the_same_object_each_time_and_draws(make):
    bg = make()
    first = bg.cffi
    assert bg.cffi is first
    assert 0.0 <= first.next_double(first.state) < 1.0
    assert first.next_uint32(first.state) < 2 ** 32


def test_cffi_draws_the_engines_words():
    if cffi is None:
        pytest.skip("cffi not installed")
    ref, bg = BitGenerator(b"cffi"), BitGenerator(b"cffi")
    iface = bg.cffi
    assert [iface.next_uint64(iface.state) for _ in range(3)] == list(ref.random_raw(3))
