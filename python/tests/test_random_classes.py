# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every random.Random method on SystemRandom and on a seeded Random, the
state of each, and the subclass hooks."""
import copy
import inspect
import math
import pickle
import random
import subprocess
import sys
from unittest import mock

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


class EngineWrapper:
    """An _engine of another type: the methods call it by name."""

    def __init__(self, engine):
        self.engine, self.calls = engine, []

    def __getattr__(self, name):
        self.calls.append(name)
        return getattr(self.engine, name)


def test_seeded_methods_behave_as_python_methods():
    # random, getrandbits, randbytes and _randbelow are C descriptors of the
    # class (python/ext/forward.c) that read self._engine at every call.
    r, same = seeded(), seeded()
    assert r.random() == shakerand.Random.random(same)
    assert r.getrandbits(k=70) == same.getrandbits(70)
    assert r.randbytes(n=3) == same.randbytes(3)
    assert r._randbelow(n=10) == same._randbelow(10)
    assert r._randbelow(0) == 0
    assert str(inspect.signature(shakerand.Random.getrandbits)) == "(self, /, k)"
    assert shakerand.Random.random.__doc__.startswith("A float in [0, 1)")
    assert shakerand.Random.random.__qualname__ == "Random.random"
    for call, error in [(lambda: r.random(1), TypeError), (lambda: r.getrandbits(), TypeError),
                        (lambda: r.getrandbits(j=3), TypeError),
                        (lambda: r.getrandbits(3, k=3), TypeError),
                        (lambda: shakerand.Random.random(3), TypeError),
                        (lambda: shakerand.Random.random(), TypeError),
                        (lambda: shakerand.SystemRandom.random(r), TypeError),
                        (lambda: r.getrandbits(-1), ValueError)]:
        state = r.getstate()
        with pytest.raises(error):
            call()
        assert r.getstate() == state  # an error draws nothing
    # mock.patch of the class and of an instance
    with mock.patch.object(shakerand.Random, "random", return_value=0.25):
        assert r.random() == 0.25
    with mock.patch.object(r, "random", return_value=0.5):
        assert r.random() == 0.5
    assert r.random() == same.random()
    # a subclass's override, and super()
    assert OwnRandom(b"every method").random() == seeded().random()
    # an _engine replaced by an object of another type
    r._engine = EngineWrapper(r._engine)
    assert (r.random(), r.getrandbits(9), r.randbytes(2), r.randrange(7)) == (
        same.random(), same.getrandbits(9), same.randbytes(2), same.randrange(7))
    assert r._engine.calls == ["random", "getrandbits", "randbytes", "randbelow"]


def test_seeded_methods_follow_a_changed_class():
    # The C methods read _engine's slot directly while the class still has
    # the slot's descriptor; one that has another _engine is followed.
    r, same = seeded(), seeded()
    assert r.random() == same.random()  # the slot is read from here on
    other = shakerand.Random(b"other")._engine
    expected = shakerand.Random(b"other").random()
    slot = shakerand.Random.__dict__["_engine"]
    try:
        shakerand.Random._engine = property(lambda self: other)
        assert r.random() == expected
    finally:
        shakerand.Random._engine = slot
    assert r.random() == same.random()


def test_seeded_methods_follow_a_getattribute_of_the_class():
    # A __getattribute__ of the class's own is asked for _engine at every
    # call, as it was when the methods were written in Python.
    r, same = seeded(), seeded()
    r.random()
    same.random()
    seen = []

    def spy(self, name):
        if name == "_engine":
            seen.append(name)
        return object.__getattribute__(self, name)

    shakerand.Random.__getattribute__ = spy
    try:
        assert [r.random() for _ in range(3)] == [same.random() for _ in range(3)]
    finally:
        del shakerand.Random.__getattribute__
    assert seen == ["_engine"] * 6  # r and same, three calls each


def test_the_method_descriptors_pickle_and_cannot_be_made():
    assert pickle.loads(pickle.dumps(shakerand.Random.random)) is shakerand.Random.random
    assert copy.deepcopy(shakerand.Random.getrandbits) is shakerand.Random.getrandbits
    with pytest.raises(TypeError):
        type(shakerand.Random.random)()


def test_a_slot_of_another_class_is_not_read(tmp_path):
    # install_engine_methods on a class whose _engine is another class's
    # slot (its offset past the end of this class's instances): the
    # methods look the attribute up instead of reading memory that is not
    # the slot (an earlier build crashed here).
    script = tmp_path / "borrowed.py"
    script.write_text(
        "from shakerand import _core\n"
        "eng = _core.Engine('turboshake256', b'k' * 32)\n"
        "A = type('A', (), {'__slots__': ('a0', 'a1', 'a2', 'a3', '_engine')})\n"
        "class B:\n"
        "    _engine = A.__dict__['_engine']\n"
        "    def __getattribute__(self, name):\n"
        "        return eng if name == '_engine' else object.__getattribute__(self, name)\n"
        "_core.install_engine_methods(B)\n"
        "bs = [B() for _ in range(100)]\n"
        "print(all(0 <= B.random(bs[50]) < 1 for _ in range(3)))\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=60)
    assert (out.returncode, out.stdout.strip()) == (0, "True"), out.stderr
