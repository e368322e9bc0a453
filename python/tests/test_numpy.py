# SPDX-License-Identifier: MIT OR Apache-2.0
"""The numpy bit generators: real numpy BitGenerators, every distribution,
the seeded one's words equal to the engine's, chi-square tests shown to
catch a biased control."""
import gc
import pickle
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")
from shakerand.numpy import BitGenerator, SystemBitGenerator  # noqa: E402

import shakerand  # noqa: E402
from conftest import ptn  # noqa: E402


def chi_square(counts, expected):
    return float(sum((c - e) ** 2 / e for c, e in zip(counts, expected)))


# Upper 1e-9 critical values (a fixed table: scipy is not a dependency): the
# system generator's draws are not reproducible, and the suite runs several
# times per `make test`, so p = 0.001 failed about one run in fifty. The
# biased control below scores about 720 against 60.66.
CHI2_CRITICAL = {9: 60.66, 19: 81.56}


def uniform_chi2(values, bins, lo, hi):
    counts, _ = np.histogram(values, bins=bins, range=(lo, hi))
    return chi_square(counts, [len(values) / bins] * bins)


def test_they_are_numpy_bit_generators():
    for bg in (SystemBitGenerator(), BitGenerator(b"x")):
        assert isinstance(bg, np.random.BitGenerator)
        assert bg.lock is not None
        g = np.random.Generator(bg)
        assert g.bit_generator is bg
        assert isinstance(np.random.default_rng(bg), np.random.Generator)


@pytest.mark.parametrize("make", [SystemBitGenerator, lambda: BitGenerator(b"dist", "turboshake256x8")])
def test_every_distribution_runs(make):
    g = np.random.Generator(make())
    n = 1000
    outs = [g.random(n), g.random(n, dtype=np.float32), g.integers(0, 10, n),
            g.integers(-5, 5, n, dtype=np.int8), g.integers(0, 2 ** 63, n, dtype=np.uint64),
            g.standard_normal(n), g.normal(3, 2, n), g.standard_exponential(n),
            g.exponential(2, n), g.standard_gamma(2, n), g.gamma(2, 2, n), g.beta(2, 3, n),
            g.binomial(10, 0.3, n), g.poisson(4, n), g.uniform(-1, 1, n), g.lognormal(0, 1, n),
            g.chisquare(3, n), g.standard_cauchy(n), g.standard_t(5, n), g.laplace(0, 1, n),
            g.logistic(0, 1, n), g.geometric(0.3, n), g.hypergeometric(10, 5, 7, n),
            g.multinomial(10, [0.2, 0.8], n), g.dirichlet([1, 2, 3], n), g.permutation(n),
            g.choice(10, n), g.vonmises(0, 1, n), g.weibull(2, n), g.zipf(2, n),
            g.negative_binomial(3, 0.5, n), g.triangular(0, 1, 2, n), g.wald(1, 1, n),
            g.multivariate_normal([0, 0], [[1, 0], [0, 1]], n), np.frombuffer(g.bytes(n), np.uint8)]
    for out in outs:
        assert np.all(np.isfinite(np.asarray(out, dtype=float)))
    x = np.arange(100)
    g.shuffle(x)
    assert sorted(x) == list(range(100))
    assert 0 <= g.random() < 1


@pytest.mark.parametrize("kind", shakerand.KINDS)
def test_seeded_words_are_the_engines(kind):
    seed = ptn(32)
    stream = shakerand.Random(seed, kind).randbytes(8 * 300)
    words = np.frombuffer(stream, dtype="<u8")
    bg = BitGenerator(seed, kind)
    assert bg.random_raw() == int(words[0])
    assert np.array_equal(bg.random_raw(99), words[1:100])
    assert np.array_equal(bg.random_raw((10, 10)).ravel(), words[100:200])
    assert bg.random_raw(5, output=False) is None
    # A Generator's 64-bit draws and doubles come from the same words.
    g = np.random.Generator(BitGenerator(seed, kind))
    assert np.array_equal(g.integers(0, 2 ** 64, 50, dtype=np.uint64, endpoint=False), words[:50])
    r = shakerand.Random(seed, kind)
    r.randbytes(8 * 50)
    assert np.array_equal(g.random(20), [r.random() for _ in range(20)])


@pytest.mark.parametrize("kind", shakerand.KINDS)
def test_seeded_words_across_the_buffers_pieces(kind):
    # numpy's values come from a buffer of the stream's next bytes filled in
    # pieces of ENGINE_BITS_BYTES (SYSTEM_BITS_BYTES): 32- and 64-bit words
    # that straddle a piece's end, raw words and bytes between them, and a
    # copy or a loaded state in the middle all keep to the engine's stream.
    piece = shakerand._core.SYSTEM_BITS_BYTES
    seed = ptn(32)
    ref = shakerand._core.Engine(kind, seed)
    bg = BitGenerator(seed, kind)
    iface = bg.ctypes
    got, want = [], []
    for _ in range(3):
        got.append(iface.next_uint32(iface.state_address))
        want.append(ref.u32())
        got += [iface.next_uint64(iface.state_address) for _ in range(piece // 8 - 1)]
        want += [ref.u64() for _ in range(piece // 8 - 1)]
        got.append(iface.next_double(iface.state_address))
        want.append((ref.u64() >> 11) * 2.0 ** -53)
        got += [int(w) for w in bg.random_raw(5)]
        want += [ref.u64() for _ in range(5)]
    assert got == want
    copy, state = bg.__copy__(), bg.state
    big = bg.random_raw(3 * piece // 8 + 3)  # whole pieces straight from the engine
    assert [int(w) for w in big] == [ref.u64() for _ in range(len(big))]
    assert np.array_equal(copy.random_raw(len(big)), big)
    bg.state = state
    assert np.array_equal(bg.random_raw(len(big)), big)


def test_seeded_states_at_one_place_are_equal_however_it_was_reached():
    # Every read goes through the buffer, whole pieces straight from the
    # engine, so the engine's state is that after a whole number of pieces.
    a, b, c = BitGenerator(b"place"), BitGenerator(b"place"), BitGenerator(b"place")
    a.random_raw(5000)
    b_iface = b.ctypes
    for _ in range(5000):
        b_iface.next_uint64(b_iface.state_address)
    for _ in range(10):
        c.random_raw(500)
    assert a.state == b.state == c.state
    b_iface.next_uint32(b_iface.state_address)
    assert a.state != b.state


def test_seeded_state_through_random_state():
    # numpy's RandomState takes a bit generator's state dict back only if it
    # has a "state" key, as numpy's own generators' dicts do.
    rs = np.random.RandomState(BitGenerator(b"legacy"))
    rs.random_sample(3)
    state = rs.get_state(legacy=False)
    first = rs.random_sample(5)
    rs.set_state(state)
    assert np.array_equal(rs.random_sample(5), first)


def test_numpy_raw_c2sp_vector(vectors):
    v = vectors["c2sp_chacha8rand"]
    bg = BitGenerator(bytes.fromhex(v["seed_hex"]), "chacha8rand")
    assert [int(w) for w in bg.random_raw(len(v["uint64_hex"]))] == [int(h, 16) for h in v["uint64_hex"]]


def test_uniform_chi_square_and_its_control():
    for make in (SystemBitGenerator, lambda: BitGenerator(b"chi2")):
        g = np.random.Generator(make())
        assert uniform_chi2(g.random(200000), 20, 0, 1) < CHI2_CRITICAL[19]
        assert uniform_chi2(g.integers(0, 10, 200000), 10, 0, 10) < CHI2_CRITICAL[9]
        # normal: bins of equal probability through the CDF
        z = g.standard_normal(200000)
        u = 0.5 * (1 + np.vectorize(__import__("math").erf)(z / np.sqrt(2)))
        assert uniform_chi2(u, 20, 0, 1) < CHI2_CRITICAL[19]
    # The control: the same test fails for integers with a 2 % bias on one
    # value (what a modulo reduction of a small word would give).
    g = np.random.Generator(BitGenerator(b"chi2"))
    biased = g.integers(0, 10, 200000)
    flip = g.random(200000) < 0.02
    biased[flip] = 0
    assert uniform_chi2(biased, 10, 0, 10) > CHI2_CRITICAL[9]


def test_seeded_state_and_spawn():
    bg = BitGenerator(b"state")
    g = np.random.Generator(bg)
    g.random(5)
    state = bg.state
    first = g.random(10)
    bg.state = state  # the Generator built on it follows
    assert np.array_equal(g.random(10), first)
    assert state["kind"] == "turboshake256"
    with pytest.raises(ValueError):
        bg.state = {"bit_generator": "PCG64"}
    with pytest.raises(ValueError):
        bg.state = dict(state, kind="shake256")
    with pytest.raises(TypeError):
        pickle.dumps(bg)
    kids = BitGenerator(b"parent").spawn(3)
    again = BitGenerator(b"parent").spawn(3)
    assert [k.random_raw() for k in kids] == [k.random_raw() for k in again]
    assert len({k.random_raw() for k in BitGenerator(b"parent").spawn(3)}) == 3
    assert np.random.Generator(BitGenerator(b"p")).spawn(2)[0].bit_generator.kind == "turboshake256"


def test_system_bit_generator_state_spawn_pickle():
    bg = SystemBitGenerator()
    assert bg.state["bit_generator"] == "SystemBitGenerator"
    bg.state = bg.state  # accepted, and changes nothing
    with pytest.raises(ValueError):
        bg.state = {"bit_generator": "PCG64", "state": {}}
    assert all(isinstance(k, SystemBitGenerator) for k in bg.spawn(2))
    g = pickle.loads(pickle.dumps(np.random.Generator(bg)))
    assert isinstance(g.bit_generator, SystemBitGenerator) and 0 <= g.random() < 1
    rs = pickle.loads(pickle.dumps(np.random.RandomState(bg)))
    assert 0 <= rs.random_sample() < 1
    assert rs.randint(1 << 62) != rs.randint(1 << 62)
    assert bg.random_raw() != bg.random_raw()
    assert bg.random_raw(3).dtype == np.uint64


def test_ctypes_interface():
    for bg in (SystemBitGenerator(), BitGenerator(b"c")):
        iface = bg.ctypes
        for _ in range(10):
            assert 0.0 <= iface.next_double(iface.state_address) < 1.0
        assert iface.next_uint32(iface.state_address) < 2 ** 32
    ref, bg = BitGenerator(b"c"), BitGenerator(b"c")
    iface = bg.ctypes
    assert iface.next_uint64(iface.state_address) == ref.random_raw()


def test_buffer_is_used_and_zeroed_as_it_goes():
    bg = SystemBitGenerator()
    assert bg.buffered() == 0
    np.random.Generator(bg).random(3)
    assert bg.buffered() == shakerand._core.SYSTEM_BITS_BYTES - 24


def test_seeded_buffer_is_zeroed_as_numpy_takes_it():
    # The bitgen_t's state is EngineBits' struct engine_bits (python/ext/
    # engine_bits.c): pos, end and the engine's address, then the buffer at the
    # next 64-byte boundary. What numpy took reads as zeros there; the next
    # bytes are the stream's.
    import ctypes

    seed = ptn(32)
    bg = BitGenerator(seed, "chacha8rand")
    iface = bg.ctypes
    words = [iface.next_uint64(iface.state_address) for _ in range(3)]
    iface.next_uint32(iface.state_address)
    pos, end = (ctypes.c_size_t * 2).from_address(iface.state_address)
    assert (pos, end) == (28, shakerand._core.SYSTEM_BITS_BYTES)
    held = ctypes.string_at(iface.state_address + 64, 64)
    stream = shakerand.Random(seed, "chacha8rand").randbytes(64)
    assert words == [int.from_bytes(stream[i:i + 8], "little") for i in (0, 8, 16)]
    assert held == bytes(28) + stream[28:]


def test_bit_generators_are_initialised_once():
    # A Generator holds a copy of the bitgen_t pointing into the bit generator's C object:
    # re-initialising would free it under the Generator (a crash before this was refused).
    for bg, args in ((SystemBitGenerator(), ()), (BitGenerator(b"once"), (b"again",))):
        g = np.random.Generator(bg)
        with pytest.raises(RuntimeError):
            bg.__init__(*args)
        gc.collect()
        assert g.random(5).shape == (5,)


def assert_script_prints(lines, expected, timeout):
    """Runs lines as a new interpreter's program (a crash there cannot take the suite with it)
    and asserts that it exits 0 having printed expected."""
    done = subprocess.run([sys.executable, "-c", "\n".join(lines)], capture_output=True,
                          text=True, timeout=timeout)
    assert (done.returncode, done.stdout.strip()) == (0, expected), done.stderr[-2000:]


# What Python code may do to a bit generator a Generator holds: each of these freed the
# buffer the Generator's bitgen_t points into (an abort or a segfault at its next draw).
DETACHING = {
    "dict_cleared": "vars(bg).clear()",
    "bits_set_to_none": "bg._bits = None",
    "bits_replaced": "bg._bits = make()._bits",
    "bits_deleted": "del bg._bits",
    "bits_set_through_object": "object.__setattr__(bg, '_bits', None)",
    "bound_again": "bg._bind_bits(_core.SystemBits())",
}


@pytest.mark.parametrize("kind", ["seeded", "system"])
@pytest.mark.parametrize("attack", sorted(DETACHING))
def test_python_code_cannot_free_what_a_generator_draws_from(kind, attack):
    assert_script_prints([
        "import gc, numpy as np",
        "from shakerand import _core",
        "from shakerand.numpy import BitGenerator, SystemBitGenerator",
        "make = (lambda: BitGenerator(7, 'chacha8rand')) if %r == 'seeded' else SystemBitGenerator"
        % kind,
        "bg = make()",
        "g = np.random.Generator(bg)",
        "g.random(10)",
        "try:",
        "    " + DETACHING[attack],
        "except (AttributeError, RuntimeError):",
        "    pass",
        "del bg",
        "gc.collect()",
        "for _ in range(20):",
        "    assert g.random(5000).shape == (5000,)",
        "print('drew')",
    ], "drew", timeout=120)


def test_an_unbound_bit_generator_is_refused_not_called():
    # numpy's own base hands a Generator a capsule over NULL functions; ours refuses it.
    base = BitGenerator.__mro__[2]
    assert base.__name__ == "NumpyBitGeneratorBase"
    for unbound in (base(), SystemBitGenerator.__new__(SystemBitGenerator)):
        assert not unbound._bound
        with pytest.raises(ValueError, match="no buffer bound"):
            np.random.Generator(unbound)
    with pytest.raises(TypeError):
        BitGenerator(b"x")._bind_bits(3)


def test_the_classes_references_neither_leak_nor_drop():
    # The C base's dealloc gives back the instance's reference to its heap type, which numpy's
    # dealloc (a static type's) does not: counted over many instances, nothing drifts.
    classes = BitGenerator.__mro__[:3] + SystemBitGenerator.__mro__[:1]

    def make_and_drop(count):
        for _ in range(count):
            for bg in (BitGenerator(1, "chacha8rand"), SystemBitGenerator()):
                np.random.Generator(bg).random(2)
        gc.collect()
        return [sys.getrefcount(c) for c in classes]

    before = make_and_drop(1)  # the first use caches what it caches
    assert make_and_drop(2000) == before


@pytest.mark.parametrize("kind", ["seeded", "system"])
def test_numpys_init_called_again_leaves_every_generator_on_one_lock(kind):
    # numpy's own __init__ replaces numpy's lock field: a Generator made after it would draw
    # from the same buffer under another lock than one made before (a write past the buffer,
    # or repeated and zero words, with the two drawing at once).
    assert_script_prints([
        "import threading, numpy as np",
        "from shakerand.numpy import BitGenerator, SystemBitGenerator",
        "bg = BitGenerator(7, 'chacha8rand') if %r == 'seeded' else SystemBitGenerator()" % kind,
        "lock = bg.lock",
        "g1 = np.random.Generator(bg)",
        "np.random.BitGenerator.__init__(bg)",
        "assert bg.lock is lock",
        "g2 = np.random.Generator(bg)",
        "out = [[], []]",
        "def draw(g, o):",
        "    for _ in range(25):",
        "        o.append(g.integers(0, 2 ** 64, 100_000, dtype=np.uint64))",
        "threads = [threading.Thread(target=draw, args=(g, o)) for g, o in zip((g1, g2), out)]",
        "[t.start() for t in threads]",
        "[t.join() for t in threads]",
        "words = np.concatenate(out[0] + out[1])",
        "assert len(np.unique(words)) == len(words) == 5_000_000, len(np.unique(words))",
        "print('distinct')",
    ], "distinct", timeout=300)


def test_the_buffer_is_reached_only_under_the_lock():
    # Neither an attribute nor the garbage collector's referents hand out the C object (or
    # the Engine inside it), whose methods would run beside numpy's draws without the lock.
    import shakerand._core as core
    for bg in (BitGenerator(b"hidden"), SystemBitGenerator()):
        assert not hasattr(bg, "_bits")
        inner = (core.SystemBits, core.EngineBits, core.Engine)
        assert not [o for o in gc.get_referents(bg) if isinstance(o, inner)]
        with pytest.raises(ValueError):
            bg._locked("capsule")
        with pytest.raises(ValueError):
            bg._locked("__class__")
    g = np.random.Generator(BitGenerator(b"hidden"))
    assert g.bit_generator.lock is g.bit_generator.lock
