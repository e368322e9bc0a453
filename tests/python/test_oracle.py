# SPDX-License-Identifier: MIT OR Apache-2.0
"""The C library and the reference model against independent
implementations: Python's hashlib (SHAKE) and pycryptodome (TurboSHAKE)."""
import hashlib
import json
import os
import random

import pytest
from Crypto.Hash import TurboSHAKE128, TurboSHAKE256

from conftest import KINDS, ROOT, SEED_SIZES

rng = random.Random(2026)


def random_cases(count, max_len):
    for _ in range(count):
        n = rng.choice([0, 1, 135, 136, 137, 167, 168, 169, rng.randrange(max_len)])
        yield bytes(rng.getrandbits(8) for _ in range(n)), rng.randrange(1, 700)


def oracle(function, message, n, domain):
    if function == "turboshake128":
        return TurboSHAKE128.new(data=message, domain=domain).read(n)
    if function == "turboshake256":
        return TurboSHAKE256.new(data=message, domain=domain).read(n)
    if function == "shake128":
        return hashlib.shake_128(message).digest(n)
    return hashlib.shake_256(message).digest(n)


@pytest.mark.parametrize("function", ["turboshake128", "turboshake256", "shake128", "shake256"])
def test_library_matches_independent_implementation(lib, function):
    for message, n in random_cases(300, 2000):
        domain = rng.randrange(1, 0x80) if function.startswith("turbo") else 0x1F
        assert lib.xof(function, message, n, domain) == oracle(function, message, n, domain), (
            f"{function} kernel={lib.kernel()} len={len(message)} n={n} D={domain:#x}")


@pytest.mark.parametrize("function", ["turboshake128", "turboshake256", "shake128", "shake256"])
def test_reference_model_matches_independent_implementation(ref, function):
    for message, n in random_cases(15, 400):
        domain = rng.randrange(1, 0x80) if function.startswith("turbo") else 0x1F
        if function.startswith("turbo"):
            got = getattr(ref, function)(message, domain, n)
        else:
            got = getattr(ref, function)(message, n)
        assert got == oracle(function, message, n, domain)


def test_reference_model_reproduces_randomshake(ref):
    with open(os.path.join(ROOT, "vectors", "randomshake.json")) as f:
        vectors = json.load(f)["vectors"]
    for v in vectors:
        s = ref.engine_stream(v["engine"], bytes.fromhex(v["seed_hex"]), 65536)
        assert s[:64].hex() == v["first_64_hex"]
        assert s[1088:1152].hex() == v["bytes_1088_to_1152_hex"]
        assert hashlib.sha256(s).hexdigest() == v["sha256_of_first_65536"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_engine_matches_reference_model_for_random_seeds(lib, ref, kind):
    for _ in range(12):
        seed_len = SEED_SIZES[kind] or rng.randrange(400)
        seed = bytes(rng.getrandbits(8) for _ in range(seed_len))
        n = rng.randrange(3 * 1088)
        engine = lib.engine(kind, seed)
        got = b""
        while len(got) < n:
            got += engine.fill(min(n - len(got), rng.randrange(1, 500)))
        assert got == ref.engine_stream(kind, seed, n), f"seed length {len(seed)}"


def test_fast_engine_definition_with_pycryptodome_lanes(lib):
    """turboshake256x8 rebuilt from docs/engines.md with pycryptodome's
    TurboSHAKE256 as the only primitive."""
    seed = bytes(range(7))
    key = TurboSHAKE256.new(data=seed, domain=0x20).read(32)
    expected = b""
    for _ in range(3):
        blocks = [TurboSHAKE256.new(data=key + bytes([j]), domain=0x21).read(136) for j in range(8)]
        refill = b"".join(blocks[j][8 * w:8 * w + 8] for w in range(17) for j in range(8))
        expected += refill[:1056]
        key = refill[1056:]
    assert lib.engine("turboshake256x8", seed).fill(len(expected)) == expected


def test_chacha8rand_reference_model_matches_the_c2sp_vector(ref):
    """The model against the vector published with the C2SP chacha8rand
    specification (Go's math/rand/v2 is the oracle for the rest:
    go/vectors_test.go)."""
    import json
    with open(os.path.join(ROOT, "vectors", "shakerand.json")) as f:
        v = json.load(f)["c2sp_chacha8rand"]
    words = v["uint64_hex"]
    s = ref.engine_stream("chacha8rand", bytes.fromhex(v["seed_hex"]), 8 * len(words))
    assert [s[8 * i:8 * i + 8][::-1].hex() for i in range(len(words))] == words
