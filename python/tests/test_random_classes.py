# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every random.Random method on SystemRandom and on a seeded Random, the
state of each, and the subclass hooks."""
import copy
import math
import pickle
import random
import sys

import pytest

import shakerand


def system():
    return shakerand.SystemRandom()


def seeded():
    return shakerand.Random(b"every method")


@pytest.fixture(params=["SystemRandom", "Random"])
def rng(request):
    return system() if request.param == "SystemRandom" else seeded()


def test_is_a_random_random(rng):
    assert isinstance(rng, random.Random)


def test_floats(rng):
    assert 0.0 <= rng.random() < 1.0
    assert 2.0 <= rng.uniform(2.0, 3.0) <= 3.0
    assert 0.0 <= rng.triangular() <= 1.0
    assert 1.0 <= rng.triangular(1.0, 5.0, 2.0) <= 5.0
    for name, args in [("gauss", (0, 1)), ("normalvariate", (0, 1)), ("lognormvariate", (0, 1)),
                       ("expovariate", (2.0,)), ("vonmisesvariate", (0, 1)),
                       ("gammavariate", (2.0, 1.0)), ("betavariate", (2.0, 3.0)),
                       ("paretovariate", (3.0,)), ("weibullvariate", (1.0, 2.0))]:
        v = getattr(rng, name)(*args)
        assert isinstance(v, float) and math.isfinite(v), name
    if sys.version_info >= (3, 12):
        assert 0 <= rng.binomialvariate(10, 0.5) <= 10


def test_integers(rng):
    assert {rng.randrange(5) for _ in range(300)} == set(range(5))
    assert all(rng.randrange(10, 20, 3) in (10, 13, 16, 19) for _ in range(100))
    assert all(-10 <= rng.randrange(-10, 0) < 0 for _ in range(100))
    assert all(rng.randrange(20, 10, -2) in (20, 18, 16, 14, 12) for _ in range(100))
    assert {rng.randint(1, 3) for _ in range(100)} == {1, 2, 3}
    big = 2 ** 200
    assert 0 <= rng.randrange(big) < big
    assert 0 <= rng.getrandbits(100) < 2 ** 100
    with pytest.raises(ValueError):
        rng.randrange(0)
    with pytest.raises(ValueError):
        rng.randrange(5, 5)
    with pytest.raises(ValueError):
        rng.randint(2, 1)
    with pytest.raises(ValueError):
        rng.getrandbits(-1)


def test_sequences(rng):
    deck = list(range(52))
    rng.shuffle(deck)
    assert sorted(deck) == list(range(52))
    assert rng.choice("abc") in "abc"
    with pytest.raises(IndexError):
        rng.choice([])
    s = rng.sample(range(100), 10)
    assert len(set(s)) == 10 and all(0 <= x < 100 for x in s)
    assert sorted(rng.sample(["a", "b"], counts=[2, 1], k=3)) == ["a", "a", "b"]
    with pytest.raises(ValueError):
        rng.sample(range(3), 4)
    assert len(rng.choices("ab", k=10)) == 10
    assert set(rng.choices("ab", weights=[0, 1], k=10)) == {"b"}
    assert set(rng.choices("ab", cum_weights=[1, 1], k=10)) == {"a"}
    with pytest.raises(TypeError):
        rng.choices("ab", weights=[1, 1], cum_weights=[1, 2])


def test_bytes(rng):
    assert len(rng.randbytes(0)) == 0
    assert len(rng.randbytes(10)) == 10
    assert len(rng.randbytes(1 << 17)) == 1 << 17
    with pytest.raises(ValueError):
        rng.randbytes(-1)
    with pytest.raises(TypeError):
        rng.randbytes(1.0)


def test_shuffle_is_uniform(rng):
    # All 6 orders of 3 items, chi-square with 5 degrees of freedom.
    counts = {}
    for _ in range(30000):
        x = [0, 1, 2]
        rng.shuffle(x)
        counts[tuple(x)] = counts.get(tuple(x), 0) + 1
    assert len(counts) == 6
    assert sum((c - 5000) ** 2 / 5000 for c in counts.values()) < 20.5


def test_system_random_has_no_state():
    r = system()
    r.seed(1)
    r.seed("anything", version=1)
    with pytest.raises(NotImplementedError):
        r.getstate()
    with pytest.raises(NotImplementedError):
        r.setstate(None)
    assert isinstance(pickle.loads(pickle.dumps(r)), shakerand.SystemRandom)
    a, b = system(), system()
    assert a.randbytes(16) != b.randbytes(16)


def test_seeded_state_round_trips():
    r = seeded()
    r.random()
    r.gauss(0, 1)  # leaves a spare normal value in gauss_next
    state = r.getstate()
    first = [r.random(), r.gauss(0, 1), r.randrange(1000), r.randbytes(5)]
    r.setstate(state)
    assert [r.random(), r.gauss(0, 1), r.randrange(1000), r.randbytes(5)] == first
    # copies are independent and continue the same stream
    c = copy.copy(r)
    d = copy.deepcopy(r)
    assert c.randbytes(30) == d.randbytes(30) == r.randbytes(30)
    assert c.randbytes(1) == r.randbytes(1)
    # states cannot be forged or crossed
    for bad in (None, (), ("shakerand", 2, "turboshake256", None, None), random.Random().getstate()):
        with pytest.raises(ValueError):
            r.setstate(bad)
    with pytest.raises(TypeError):
        pickle.dumps(r)


def test_seeded_random_same_seed_same_everything():
    a, b = seeded(), seeded()
    ops = [lambda r: r.random(), lambda r: r.gauss(0, 1), lambda r: r.sample(range(1000), 5),
           lambda r: r.choices(range(10), k=5), lambda r: r.randbytes(3),
           lambda r: (lambda x: (r.shuffle(x), x)[1])(list(range(20)))]
    for op in ops:
        assert op(a) == op(b)


class MySystem(shakerand.SystemRandom):
    pass


class MySeeded(shakerand.Random):
    def rolls(self, n):
        return [self.randint(1, 6) for _ in range(n)]


class OwnRandom(shakerand.Random):
    def random(self):
        return super().random()


def test_subclasses_keep_the_c_sampler():
    assert MySystem._randbelow is shakerand.SystemRandom._randbelow
    assert MySeeded._randbelow is shakerand.Random._randbelow
    assert 0 <= MySystem().randrange(10) < 10
    a, b = MySeeded(b"s"), shakerand.Random(b"s")
    assert a.rolls(20) == [b.randint(1, 6) for _ in range(20)]


def test_a_subclass_that_overrides_random_gets_the_stdlib_rule():
    # random.Random.__init_subclass__: a class that defines random() (and not
    # getrandbits) draws its integers through random(), as for any Random.
    assert OwnRandom._randbelow is random.Random._randbelow_without_getrandbits
    assert 0 <= OwnRandom(b"s").randrange(10) < 10
