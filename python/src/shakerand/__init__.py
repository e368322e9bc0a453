# SPDX-License-Identifier: MIT OR Apache-2.0
"""Cryptographically secure random numbers, as fast as the insecure defaults.

The module-level functions draw from the *system generator* of the shakerand
C core: one ChaCha8 (C2SP chacha8rand) or TurboSHAKE256x8 generator per
thread, seeded from the operating system mixed with the CPU's random
instructions, reseeded on a budget of output and time (docs/system.md in
the source repository), and after ``os.fork()`` in the child, so a child
never repeats its parent.

Drop-in for :mod:`secrets`::

    import shakerand as secrets
    secrets.token_urlsafe(), secrets.randbelow(10**9), secrets.choice("abc")

:class:`SystemRandom` is a :class:`random.Random` on the system generator;
:class:`Random` is a seeded, reproducible one whose streams equal the C,
C++, Go and Java front ends' for the same kind and seed. numpy bit
generators are in :mod:`shakerand.numpy`.
"""
from __future__ import annotations

import base64 as _base64
import binascii as _binascii
import hmac as _hmac
import inspect as _inspect
import math as _math
import numbers as _numbers
import operator as _operator
import random as _random
import uuid as _uuid
from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple, TypeVar, Union

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

from . import _core
from ._core import (
    getrandbits as randbits,
    kernel,
    new_epoch,
    random,
    randbelow,
    reseed,
    reseed_failures,
    sources,
    system_kind,
    token_bytes,
    uuid4,
    uuid7,
    watches_vm_generation,
)

__all__ = [
    "DEFAULT_ENTROPY", "KINDS", "METHODS", "Random", "SystemRandom", "below",
    "below_counted", "choice", "compare_digest", "kernel", "new_epoch", "randbelow", "randbits",
    "random", "reseed", "reseed_failures", "sources", "system_kind", "token_bytes",
    "token_hex", "token_urlsafe", "uuid4", "uuid7", "watches_vm_generation",
]

__version__: str = _core.core_version

#: Bytes a token holds when ``nbytes`` is None, as in :mod:`secrets`.
DEFAULT_ENTROPY = 32

#: The engine kinds of :class:`Random` and :class:`shakerand.numpy.BitGenerator`,
#: as the C core's table lists them (docs/engines.md).
KINDS = _core.KINDS

#: The methods of :func:`below` (docs/samplers.md).
METHODS = ("rng-bc-1", "rng-bc-8", "simple-discard", "simple-modular")

compare_digest = _hmac.compare_digest

_T = TypeVar("_T")
# seed_bytes says what each means.
Seed = Union[None, int, str, "ReadableBuffer"]


def token_hex(nbytes: Optional[int] = None) -> str:
    """A random text string in hexadecimal, two digits per byte (32 bytes if
    *nbytes* is None), as :func:`secrets.token_hex`."""
    return _binascii.hexlify(token_bytes(nbytes)).decode("ascii")


def token_urlsafe(nbytes: Optional[int] = None) -> str:
    """A random URL-safe text string of base64 without padding (32 bytes of
    randomness if *nbytes* is None), as :func:`secrets.token_urlsafe`."""
    return _base64.urlsafe_b64encode(token_bytes(nbytes)).rstrip(b"=").decode("ascii")


def choice(seq: Sequence[_T]) -> _T:
    """A random element of the non-empty sequence *seq* (IndexError if it is
    empty), as :func:`secrets.choice`."""
    n = len(seq)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[_core._randbelow(n)]


def below(r: int, method: str = "rng-bc-1") -> int:
    """A uniform integer in ``[0, r)`` for an int *r* >= 1 of any size.

    *method* is how candidates are rejected: ``"rng-bc-1"`` (Optimized
    Simple Discard bit by bit, the fewest bits drawn), ``"rng-bc-8"``,
    ``"simple-discard"`` (NIST SP 800-90A A.5.1) or ``"simple-modular"``
    (A.5.3, bias below 2**-128). ValueError for r < 1 or an unknown method,
    TypeError for a non-int.
    """
    return _core.below_counted(r, method)[0]


def below_counted(r: int, method: str = "rng-bc-1") -> Tuple[int, int]:
    """:func:`below`, and the number of bits the method drew, counted as the
    Optimized Simple Discard paper counts them (for its table)."""
    return _core.below_counted(r, method)


class SystemRandom(_random.Random):
    """A :class:`random.Random` on the system generator, like
    :class:`random.SystemRandom`: every method works (``randrange``,
    ``choice``, ``shuffle``, ``sample``, ``gauss``, ...); ``seed`` does
    nothing and ``getstate``/``setstate`` raise NotImplementedError.

    ``random``, ``getrandbits``, ``randbytes`` and the integer sampler under
    ``randrange``/``choice``/``shuffle`` run in C, unbiased (Lemire's method
    below 2**64, RNG-BC-1 above). All instances share the calling thread's
    generator, so one instance is safe to use from many threads.
    """

    # Placeholders for random.Random.__init_subclass__, which looks for
    # _randbelow in the class body; _core.install_system_methods replaces
    # them with C methods below the class.
    def random(self) -> float: ...  # type: ignore[empty-body]
    def getrandbits(self, k: int) -> int: ...  # type: ignore[empty-body]
    def randbytes(self, n: int) -> bytes: ...  # type: ignore[empty-body]
    def _randbelow(self, n: int) -> int: ...  # type: ignore[empty-body]

    def __init__(self, x: Any = None) -> None:
        """*x* is accepted for random.Random's signature and ignored: the
        system generator takes no seed."""
        self.gauss_next = None

    def seed(self, *args: Any, **kwds: Any) -> None:
        """Does nothing: the system generator takes no seed (see
        :func:`reseed` to mix bytes in)."""

    def _notimplemented(self, *args: Any, **kwds: Any) -> Any:
        raise NotImplementedError("System entropy source does not have state.")

    getstate = setstate = _notimplemented

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        """A normal variate, as :meth:`random.Random.gauss`, but without its
        cached second value: a cached value would be handed out twice, in a
        parent and its forked child, or to two threads."""
        x2pi = self.random() * 2.0 * _math.pi
        g2rad = _math.sqrt(-2.0 * _math.log(1.0 - self.random()))
        return mu + _math.cos(x2pi) * g2rad * sigma

    def __reduce__(self) -> Any:
        return (type(self), ())

    def below(self, r: int, method: str = "rng-bc-1") -> int:
        """:func:`shakerand.below`."""
        return _core.below_counted(r, method)[0]

    def uuid4(self) -> _uuid.UUID:
        """:func:`shakerand.uuid4`."""
        return _core.uuid4()


_core.install_system_methods(SystemRandom)


def seed_bytes(seed: Seed, kind: str) -> bytes:
    """The bytes an engine is seeded with for *seed* (docs/python.md):
    bytes-like (bytes, bytearray, memoryview, array.array, a numpy array,
    ...) as its raw bytes; str as UTF-8; an integer (int, or any
    :class:`numbers.Integral` such as a numpy integer) in ``[0, 2**256)`` as 32
    little-endian bytes; None as 32 bytes from the system generator."""
    if seed is None:
        return token_bytes(32)
    if isinstance(seed, str):
        return seed.encode("utf-8")
    if isinstance(seed, (int, _numbers.Integral)):  # int too: mypy narrows by it
        value = _operator.index(seed)
        if value < 0 or value >> 256:
            raise ValueError("an int seed must be in [0, 2**256)")
        return value.to_bytes(32, "little")
    view = None
    if not isinstance(seed, (float, complex)):  # numpy's float64 is a float with a buffer
        try:
            view = memoryview(seed)
        except (TypeError, ValueError):  # ValueError: a numpy dtype no buffer can hold
            view = None
    if view is not None:
        with view:
            code = view.format.lstrip("@=<>!")
            # Numbers only: objects are addresses, long doubles carry unset padding, and
            # structures may; a float scalar is refused as a float is.
            if code in _SEED_ITEM_CODES and not (view.ndim == 0 and code in "efd"):
                return view.tobytes()
    raise TypeError("the seed must be bytes-like, str, int or None, not %s"
                    % type(seed).__name__)


# The buffer item formats whose bytes a seed may be (struct module codes).
_SEED_ITEM_CODES = frozenset("bBc?hHiIlLqQnNefd")


def _new_signature(init: Any) -> _inspect.Signature:
    sig = _inspect.signature(init)
    cls, *rest = sig.parameters.values()
    return sig.replace(parameters=[cls.replace(name="cls"), *rest],
                       return_annotation=_inspect.Signature.empty)


class Random(_random.Random):
    """A reproducible :class:`random.Random` on one seeded shakerand engine.

    ``Random(seed, kind="turboshake256")``: *kind* is one of :data:`KINDS`;
    *seed* is bytes-like, a str (its UTF-8 bytes), an int in ``[0, 2**256)``
    (its 32 little-endian bytes) or None (32 bytes from the system
    generator). A chacha8rand seed must come to exactly 32 bytes.

    ``randbytes(n)`` is the engine's stream, ``getrandbits`` and ``random``
    are defined on its little-endian words (docs/python.md), and the integer
    sampler under ``randrange``/``choice``/``shuffle`` is the C core's
    (Lemire below 2**64, RNG-BC-1 above): the same seed gives the same values
    in C, C++, Go, Java and Python. ``seed(s)`` restarts; ``getstate`` and
    ``setstate`` work within the process (an engine's state is its key, so
    it is not pickled). Not meant to be shared between threads without a
    lock of your own: a bulk ``randbytes`` runs without the GIL and the
    others wait for it, but the order of values between threads is not
    defined.
    """

    # A slot, which the C methods read where it lies (python/ext/forward.c);
    # instances keep random.Random's __dict__ for everything else.
    __slots__ = ("_engine",)
    _engine: Any

    def __new__(cls, *args: Any, **kwds: Any) -> "Random":
        # random.Random.__new__ would seed its Mersenne Twister from args (the
        # key, kept in a second generator) and refuses two of them.
        return super().__new__(cls)

    def __init__(self, seed: Seed = None, kind: str = "turboshake256") -> None:
        """A reproducible generator: *kind* is one of :data:`KINDS`; *seed*
        is bytes-like, a str, an int in ``[0, 2**256)`` or None (32 bytes
        from the system generator), as :func:`seed_bytes` says."""
        self._kind = kind
        self._engine = _core.Engine(kind, seed_bytes(seed, kind))
        self.gauss_next = None

    def seed(self, a: Seed = None, version: int = 2) -> None:  # type: ignore[override]
        """Restart from seed *a* (same rules as the constructor); *version*
        is accepted for random.Random's signature and ignored."""
        self._engine = _core.Engine(self._kind, seed_bytes(a, self._kind))
        self.gauss_next = None

    @property
    def kind(self) -> str:
        """The engine kind."""
        return self._kind

    # Placeholders for random.Random.__init_subclass__ (which looks for
    # _randbelow in the class body) and for type checkers;
    # _core.install_engine_methods replaces them below the class with C
    # methods that call self._engine's.
    def random(self) -> float: ...  # type: ignore[empty-body]
    def getrandbits(self, k: int) -> int: ...  # type: ignore[empty-body]
    def randbytes(self, n: int) -> bytes: ...  # type: ignore[empty-body]
    def _randbelow(self, n: int) -> int: ...  # type: ignore[empty-body,override]

    def below(self, r: int, method: str = "rng-bc-1") -> int:
        """:func:`shakerand.below` on this engine."""
        return self._engine.below_counted(r, method)[0]

    def below_counted(self, r: int, method: str = "rng-bc-1") -> Tuple[int, int]:
        """:func:`shakerand.below_counted` on this engine."""
        return self._engine.below_counted(r, method)

    def uuid4(self) -> _uuid.UUID:
        """A version 4 UUID from this engine's stream."""
        return self._engine.uuid4()

    def getstate(self) -> Tuple[Any, ...]:
        """The generator's state: the engine (a copy) and gauss's spare value."""
        return ("shakerand", 1, self._kind, self._engine.copy(), self.gauss_next)

    def setstate(self, state: Tuple[Any, ...]) -> None:
        """Restore a state from :meth:`getstate`."""
        if (not isinstance(state, tuple) or len(state) != 5 or state[:2] != ("shakerand", 1)
                or not isinstance(state[3], _core.Engine) or state[3].kind != state[2]):
            raise ValueError("not a shakerand.Random state")
        self._kind = state[2]
        self._engine = state[3].copy()
        self.gauss_next = state[4]

    # inspect.signature(Random), and so help(), reads __new__ first: it
    # shows __init__'s parameters instead of (*args, **kwds).
    __new__.__signature__ = _new_signature(__init__)  # type: ignore[attr-defined]

    def __reduce__(self) -> Any:
        raise TypeError("a seeded shakerand.Random is not pickled: its state is the "
                        "generator's key; keep the seed, or copy.copy() it in the process")

    def __copy__(self) -> "Random":
        other = Random.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._engine = self._engine.copy()
        return other

    def __deepcopy__(self, memo: Any) -> "Random":
        return self.__copy__()


_core.install_engine_methods(Random)


def _register_snapshot_hooks() -> None:
    """AWS Lambda SnapStart's hooks (the snapshot-restore-py package, when it
    is installed): a new epoch before the snapshot and in every restored
    copy, so that none repeats another's output. Hooks run in the order
    they were registered: one registered before this import that draws must
    call new_epoch() itself first (docs/system.md, "Snapshots and
    clones")."""
    try:
        from snapshot_restore_py import register_after_restore, register_before_snapshot
    except ImportError:
        return
    register_before_snapshot(new_epoch)
    register_after_restore(new_epoch)


_register_snapshot_hooks()
