# SPDX-License-Identifier: MIT OR Apache-2.0
"""The module functions: the secrets API (signatures, defaults, errors as
the standard library's), floats, UUIDs, big ranges, the sources report."""
import base64
import binascii
import inspect
import pickle
import secrets
import statistics
import uuid

import pytest

import shakerand


def test_secrets_names_are_all_there():
    for name in ("token_bytes", "token_hex", "token_urlsafe", "randbelow", "randbits", "choice",
                 "compare_digest", "DEFAULT_ENTROPY", "SystemRandom"):
        assert hasattr(shakerand, name), name
    assert shakerand.DEFAULT_ENTROPY == 32


def test_token_lengths_and_defaults():
    assert len(shakerand.token_bytes()) == 32
    assert len(shakerand.token_bytes(None)) == 32
    assert shakerand.token_bytes(0) == b""
    assert len(shakerand.token_bytes(5)) == 5
    assert len(shakerand.token_bytes(1 << 17)) == 1 << 17  # the GIL-released path
    h = shakerand.token_hex()
    assert len(h) == 64 and binascii.unhexlify(h)
    assert len(shakerand.token_hex(3)) == 6
    u = shakerand.token_urlsafe()
    assert len(base64.urlsafe_b64decode(u + "=" * (-len(u) % 4))) == 32
    assert "=" not in u and "+" not in u and "/" not in u
    assert len(shakerand.token_urlsafe(3)) == 4
    assert shakerand.token_bytes(16) != shakerand.token_bytes(16)


@pytest.mark.parametrize("fn", ["token_bytes", "token_hex", "token_urlsafe"])
def test_token_errors_match_secrets(fn):
    for bad in (-1, 1.5, "3", b"3"):
        with pytest.raises(Exception) as ours:
            getattr(shakerand, fn)(bad)
        with pytest.raises(Exception) as theirs:
            getattr(secrets, fn)(bad)
        assert type(ours.value) is type(theirs.value), (fn, bad)


def test_randbelow():
    assert {shakerand.randbelow(3) for _ in range(200)} == {0, 1, 2}
    assert shakerand.randbelow(1) == 0
    big = 10 ** 40
    assert 0 <= shakerand.randbelow(big) < big
    for bound in (2 ** 63, 2 ** 64 - 1, 2 ** 64, 2 ** 64 + 1, 2 ** 521 - 1):
        assert 0 <= shakerand.randbelow(bound) < bound
    for bad in (0, -1, -(2 ** 70)):
        with pytest.raises(ValueError):
            shakerand.randbelow(bad)
        with pytest.raises(ValueError):
            secrets.randbelow(bad)
    for bad in (1.5, "3", None):
        with pytest.raises(TypeError):
            shakerand.randbelow(bad)


def test_randbelow_is_uniform_on_a_small_range():
    def chi2_of(draw):
        counts = [0] * 6
        for _ in range(60000):
            counts[draw()] += 1
        return sum((c - 10000) ** 2 / 10000 for c in counts)

    # 5 degrees of freedom, p = 1e-9: the draws are not reproducible
    assert chi2_of(lambda: shakerand.randbelow(6)) < 50.69
    # The control: a 4-bit word reduced modulo 6 (the usual mistake) fails.
    assert chi2_of(lambda: shakerand.randbits(4) % 6) > 50.69


def test_randbits():
    assert shakerand.randbits(0) == 0
    assert all(0 <= shakerand.randbits(7) < 128 for _ in range(100))
    assert max(shakerand.randbits(200) for _ in range(50)).bit_length() > 190
    with pytest.raises(ValueError):
        shakerand.randbits(-1)
    with pytest.raises(ValueError):
        secrets.randbits(-1)
    with pytest.raises(TypeError):
        shakerand.randbits(1.0)


def test_choice():
    assert shakerand.choice("x") == "x"
    assert {shakerand.choice("abc") for _ in range(100)} == set("abc")
    assert shakerand.choice(range(10, 20)) in range(10, 20)
    with pytest.raises(IndexError, match="empty"):
        shakerand.choice([])
    with pytest.raises(TypeError):
        shakerand.choice({1, 2})


def test_compare_digest_is_hmacs():
    assert shakerand.compare_digest(b"a", b"a") and not shakerand.compare_digest("a", "b")


def test_signatures_match_secrets():
    for name in ("token_hex", "token_urlsafe", "choice"):
        ours = inspect.signature(getattr(shakerand, name))
        theirs = inspect.signature(getattr(secrets, name))
        assert list(ours.parameters) == list(theirs.parameters), name
        assert [p.default for p in ours.parameters.values()] == \
            [p.default for p in theirs.parameters.values()], name


def test_random_floats():
    xs = [shakerand.random() for _ in range(20000)]
    assert all(0.0 <= x < 1.0 for x in xs)
    assert all((x * 2 ** 53).is_integer() for x in xs[:1000])
    assert abs(statistics.fmean(xs) - 0.5) < 0.01
    assert len(set(xs)) == len(xs)


def test_uuid4():
    u = shakerand.uuid4()
    assert isinstance(u, uuid.UUID)
    assert u.version == 4 and u.variant == uuid.RFC_4122
    assert u == uuid.UUID(bytes=u.bytes) == uuid.UUID(str(u)) == uuid.UUID(int=u.int)
    assert hash(u) == hash(uuid.UUID(str(u)))
    assert u.is_safe == uuid.SafeUUID.unknown
    assert pickle.loads(pickle.dumps(u)) == u
    assert repr(u).startswith("UUID('")
    assert len({shakerand.uuid4() for _ in range(1000)}) == 1000
    with pytest.raises(TypeError):
        u.int = 5  # immutable, as uuid.UUID


def test_uuid7_is_time_ordered_and_monotonic():
    import time
    before = int(time.time() * 1000)
    us = [shakerand.uuid7() for _ in range(2000)]
    after = int(time.time() * 1000)
    assert all(isinstance(u, uuid.UUID) and u.version == 7 and u.variant == uuid.RFC_4122
               for u in us)
    assert us == sorted(us) and len(set(us)) == len(us)
    assert before <= us[0].int >> 80 <= after


def test_below_and_its_methods():
    q = 2 ** 512 - 569
    for method in shakerand.METHODS:
        v, bits = shakerand.below_counted(q, method)
        assert 0 <= v < q and bits >= 512, method
        assert 0 <= shakerand.below(q, method=method) < q
    assert shakerand.below(1) == 0
    assert {shakerand.below(3) for _ in range(200)} == {0, 1, 2}
    # RNG-BC-1 for r = 2**k + 1 ... averages under 2 m bits (the paper's table).
    total = sum(shakerand.below_counted(2 ** 64 + 1)[1] for _ in range(2000))
    assert 65 <= total / 2000 < 130
    with pytest.raises(ValueError):
        shakerand.below(0)
    with pytest.raises(ValueError):
        shakerand.below(-3)
    with pytest.raises(ValueError, match="method"):
        shakerand.below(10, "modulo")
    with pytest.raises(TypeError):
        shakerand.below(10.0)
    with pytest.raises(TypeError):
        shakerand.below(10, 1)


def test_reports():
    assert shakerand.kernel() in ("portable", "avx2", "avx512", "neon")
    assert shakerand.system_kind() in ("chacha8rand", "turboshake256x8")
    sources = shakerand.sources()
    assert sources[0]["name"] == "os" and sources[0]["used"] is True
    assert all(set(s) == {"name", "method", "present", "used", "reason"} for s in sources)
    assert isinstance(shakerand.reseed_failures(), int)
    assert isinstance(shakerand.__version__, str)


def test_reseed():
    shakerand.reseed()
    shakerand.reseed(b"extra input")
    shakerand.reseed(bytearray(100))
    with pytest.raises(TypeError):
        shakerand.reseed("text")
    assert len(shakerand.token_bytes(8)) == 8
