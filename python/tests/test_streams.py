# SPDX-License-Identifier: MIT OR Apache-2.0
"""Seeded streams: the shared vectors, the definitions of words, floats and
bits on the byte stream, seeds of every type, and the same values as the C
CLI for every kind."""
import hashlib
import re
import subprocess

import pytest

import shakerand
from conftest import ptn

KINDS = shakerand.KINDS


def test_kinds_are_the_vector_files(vectors):
    # The C core's table of kinds, as the vector file records it.
    assert KINDS == tuple(row["name"] for row in vectors["kinds"])


def test_each_kind_takes_the_seed_lengths_its_row_says(vectors):
    for row in vectors["kinds"]:
        for n in (0, 1, 31, 32, 33, 136):
            if row["seed_size"] in (0, n):
                shakerand.Random(bytes(n), row["name"])
            else:
                with pytest.raises(ValueError, match="a %s seed is exactly %d bytes, not %d"
                                   % (row["name"], row["seed_size"], n)):
                    shakerand.Random(bytes(n), row["name"])


def test_an_unknown_kind_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown engine kind 'x': one of %s"
                       % re.escape(repr(KINDS))):
        shakerand.Random(b"", "x")


@pytest.mark.parametrize("slicing", ["whole", "odd", "ones_then_big"])
def test_vector_streams(vectors, slicing):
    for entry in vectors["engines"]:
        r = shakerand.Random(bytes.fromhex(entry["seed_hex"]), entry["engine"])
        if slicing == "whole":
            stream = r.randbytes(65536)
        elif slicing == "odd":
            parts, n = [], 0
            sizes = [1, 7, 8, 135, 136, 137, 991, 992, 993, 1055, 1056, 1088, 4096]
            i = 0
            while n < 65536:
                k = min(sizes[i % len(sizes)], 65536 - n)
                parts.append(r.randbytes(k))
                n += k
                i += 1
            stream = b"".join(parts)
        else:
            stream = b"".join(r.randbytes(1) for _ in range(100)) + r.randbytes(65436)
        assert hashlib.sha256(stream).hexdigest() == entry["sha256_of_first_65536"], entry["engine"]
        for chunk in entry["chunks"]:
            if chunk["offset"] + 64 <= len(stream):
                got = stream[chunk["offset"]:chunk["offset"] + 64]
                assert got.hex() == chunk["hex"], (entry["engine"], chunk["offset"])


def test_every_kind_has_vectors(vectors):
    assert {e["engine"] for e in vectors["engines"]} == set(KINDS)


def test_c2sp_chacha8rand_vector(vectors):
    v = vectors["c2sp_chacha8rand"]
    r = shakerand.Random(bytes.fromhex(v["seed_hex"]), "chacha8rand")
    words = [int.from_bytes(r.randbytes(8), "little") for _ in v["uint64_hex"]]
    assert words == [int(w, 16) for w in v["uint64_hex"]]
    r = shakerand.Random(bytes.fromhex(v["seed_hex"]), "chacha8rand")
    assert [r.getrandbits(64) for _ in v["uint64_hex"]] == [int(w, 16) for w in v["uint64_hex"]]


def test_chacha8rand_published_seed_as_str():
    # The C2SP seed is ASCII: a str seed is its UTF-8 bytes.
    a = shakerand.Random("ABCDEFGHIJKLMNOPQRSTUVWXYZ123456", "chacha8rand")
    b = shakerand.Random(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ123456", "chacha8rand")
    assert a.getrandbits(64) == 0xb773b6063d4616a5 == b.getrandbits(64)


@pytest.mark.parametrize("kind", KINDS)
def test_words_floats_and_bits_are_defined_on_the_bytes(kind):
    seed = ptn(32)
    stream = shakerand.Random(seed, kind).randbytes(8 * 64)
    words = [int.from_bytes(stream[8 * i:8 * i + 8], "little") for i in range(64)]
    r = shakerand.Random(seed, kind)
    assert [r.getrandbits(64) for _ in range(4)] == words[:4]
    assert r.random() == (words[4] >> 11) * 2.0 ** -53
    assert r.getrandbits(1) == words[5] >> 63
    assert r.getrandbits(53) == words[6] >> 11
    assert r.getrandbits(0) == 0  # draws nothing
    # k > 64: ceil(k/64) words, the first least significant, the last keeps its top bits.
    assert r.getrandbits(130) == words[7] | words[8] << 64 | (words[9] >> 62) << 128
    assert r.getrandbits(128) == words[10] | words[11] << 64
    # Mixed with bytes: words are the stream's next 8 bytes wherever it stands.
    assert r.randbytes(3) == stream[96:99]
    assert r.getrandbits(64) == int.from_bytes(stream[99:107], "little")


@pytest.mark.parametrize("kind", KINDS)
def test_bounded_integers_are_lemire_on_the_words(kind):
    seed = ptn(32)
    stream = shakerand.Random(seed, kind).randbytes(8 * 200)
    words = iter(int.from_bytes(stream[i:i + 8], "little") for i in range(0, len(stream), 8))

    def lemire(n):
        m = next(words) * n
        if m % 2 ** 64 < n:
            t = 2 ** 64 % n
            while m % 2 ** 64 < t:
                m = next(words) * n
        return m >> 64

    r = shakerand.Random(seed, kind)
    for n in (1, 2, 3, 6, 10 ** 9, 2 ** 63 + 12345, 2 ** 64 - 1):
        assert r._randbelow(n) == lemire(n), n
    assert r.randrange(1, 7) == 1 + lemire(6)
    # Above 2**64, RNG-BC-1: the same as below().
    state = r.getstate()
    big = r._randbelow(2 ** 64)
    r.setstate(state)
    assert big == r.below(2 ** 64)


def test_seed_types():
    def first(seed, kind="turboshake256"):
        return shakerand.Random(seed, kind).randbytes(16)

    assert first(b"abc") == first(bytearray(b"abc")) == first(memoryview(b"xabc")[1:]) == first("abc")
    assert first("é") == first("é".encode("utf-8"))
    assert first(42) == first((42).to_bytes(32, "little"))
    assert first(0) == first(bytes(32))
    assert first(2 ** 256 - 1) == first(b"\xff" * 32)
    assert first(7, "chacha8rand") == first((7).to_bytes(32, "little"), "chacha8rand")
    assert first(None) != first(None)
    with pytest.raises(ValueError):
        shakerand.Random(-1)
    with pytest.raises(ValueError):
        shakerand.Random(2 ** 256)
    for bad in (1.5, [1], object()):
        with pytest.raises(TypeError):
            shakerand.Random(bad)


def test_empty_seed_is_a_seed():
    assert shakerand.Random(b"").randbytes(8).hex() == "367a329dafea871c"


def test_chacha8rand_seed_length_is_checked():
    for n in (0, 16, 31, 33):
        with pytest.raises(ValueError, match=str(n)):
            shakerand.Random(bytes(n), "chacha8rand")
    shakerand.Random(bytes(32), "chacha8rand")


def test_unknown_kind():
    with pytest.raises(ValueError, match="kind"):
        shakerand.Random(b"", "mt19937")
    with pytest.raises(TypeError):
        shakerand.Random(b"", 1)


def test_seed_restarts():
    r = shakerand.Random(b"a", "shake256")
    first = r.randbytes(40)
    r.seed(b"a")
    assert r.randbytes(40) == first
    r.seed(b"b", version=2)
    assert r.randbytes(40) == shakerand.Random(b"b", "shake256").randbytes(40)
    assert r.kind == "shake256"


# ---- the C CLI: the same values in C ------------------------------------

def run_cli(cli, *args):
    return subprocess.run([cli, *args], check=True, capture_output=True).stdout


@pytest.mark.parametrize("kind", KINDS)
def test_same_bytes_as_the_c_cli(cli, kind):
    seeds = [ptn(32), bytes(32), b"\xff" * 32] + ([] if kind == "chacha8rand" else [b"", ptn(136), b"x"])
    for seed in seeds:
        for n in (1, 1000, 5000):
            out = run_cli(cli, "bytes", "-n", str(n), "--engine", kind, "--seed", seed.hex())
            assert out == shakerand.Random(seed, kind).randbytes(n), (kind, seed.hex(), n)


@pytest.mark.parametrize("bound", [1, 2, 6, 10 ** 9, 2 ** 64, 3 ** 50, 2 ** 512 - 569])
def test_same_big_integers_as_the_c_cli(cli, bound):
    seed = ptn(20)
    out = run_cli(cli, "int", "--below", str(bound), "-n", "20", "--seed", seed.hex())
    expected = [int(line) for line in out.decode().split()]
    r = shakerand.Random(seed)
    assert [r.below(bound) for _ in range(20)] == expected


def test_cli_rejects_what_python_rejects(cli):
    r = subprocess.run([cli, "bytes", "-n", "8", "--engine", "chacha8rand", "--seed", "00"],
                       capture_output=True)
    assert r.returncode == 2
    with pytest.raises(ValueError):
        shakerand.Random(b"\x00", "chacha8rand")


# ---- errors change nothing ---------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_errors_leave_the_stream_alone(kind):
    a = shakerand.Random(ptn(32), kind)
    b = shakerand.Random(ptn(32), kind)
    bad_calls = [
        lambda: a.getrandbits(-1), lambda: a.getrandbits(1.5), lambda: a.randbytes(-1),
        lambda: a.randbytes("3"), lambda: a.randrange(0), lambda: a.randrange(5, 1),
        lambda: a.below(0), lambda: a.below(-5), lambda: a.below(2.0), lambda: a.below(10, "nope"),
        lambda: a.choice([]), lambda: a.sample(range(3), 4), lambda: a.randint(3, 1),
        lambda: a.setstate(("x",)),
    ]
    for call in bad_calls:
        with pytest.raises((ValueError, TypeError, IndexError)):
            call()
    assert a.randbytes(100) == b.randbytes(100)


def test_string_seeds_of_the_vector_file(vectors):
    # A str seed is its UTF-8 bytes (docs/engines.md, "Seeds"), for every
    # kind; chacha8rand's 32 bytes are 28 characters.
    for entry in vectors["string_seeds"]:
        text = entry["seed_text"]
        for make in (lambda: shakerand.Random(text, entry["engine"]),
                     lambda: shakerand.Random(bytes.fromhex(entry["seed_hex"]), entry["engine"])):
            assert make().randbytes(64).hex() == entry["first_64_hex"], entry["engine"]
    assert {e["engine"] for e in vectors["string_seeds"]} == set(KINDS)


def test_a_str_with_an_unpaired_surrogate_is_refused():
    # It has no UTF-8 form: UnicodeEncodeError, a ValueError.
    for kind in KINDS:
        with pytest.raises(UnicodeEncodeError):
            shakerand.Random("seed \ud83c", kind)
