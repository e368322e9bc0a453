# SPDX-License-Identifier: MIT OR Apache-2.0
"""numpy bit generators on shakerand (``pip install shakerand[numpy]``).

``numpy.random.Generator(SystemBitGenerator())`` gives every numpy
distribution on the system generator: secure, and a child process after
``os.fork()`` never repeats its parent (numpy's own generators, PCG64
included, do). ``numpy.random.Generator(BitGenerator(seed, kind))`` is
reproducible: its raw 64-bit words are the C engine's ``u64`` sequence for
that kind and seed, in every shakerand front end.
"""
from __future__ import annotations

import ctypes as _ctypes
import operator as _operator
import os as _os
import weakref as _weakref
from collections import namedtuple as _namedtuple
from typing import Any, List, Mapping, Sequence, Union

try:
    import numpy as np
    from numpy.random import BitGenerator as _NumpyBitGenerator
    from numpy.random.bit_generator import SeedlessSeedSequence as _Seedless
except ImportError as _error:
    raise ImportError("shakerand.numpy needs numpy: pip install 'shakerand[numpy]'",
                      name="numpy") from _error

from . import Seed, _core, seed_bytes

__all__ = ["BitGenerator", "SystemBitGenerator"]

try:  # the type of numpy's own .ctypes and .cffi (numpy's tests check for it)
    from numpy.random._common import interface as _Interface
except ImportError:
    _Interface = _namedtuple("interface", ["state_address", "state", "next_uint64",
                                           "next_uint32", "next_double", "bit_generator"])

_capsule_pointer = _ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = _ctypes.c_void_p
_capsule_pointer.argtypes = [_ctypes.py_object, _ctypes.c_char_p]


class _BitGenStruct(_ctypes.Structure):
    _fields_ = [("state", _ctypes.c_void_p),
                ("next_uint64", _ctypes.CFUNCTYPE(_ctypes.c_uint64, _ctypes.c_void_p)),
                ("next_uint32", _ctypes.CFUNCTYPE(_ctypes.c_uint32, _ctypes.c_void_p)),
                ("next_double", _ctypes.CFUNCTYPE(_ctypes.c_double, _ctypes.c_void_p)),
                ("next_raw", _ctypes.CFUNCTYPE(_ctypes.c_uint64, _ctypes.c_void_p))]


Size = Union[None, int, Sequence[int]]


def _child_count(n_children: int) -> int:
    n = _operator.index(n_children)
    if n < 0:
        raise ValueError("n_children must be >= 0, not %d" % n)
    return n


class _Base(_core.numpy_base(_NumpyBitGenerator)):  # type: ignore[misc]
    """What both bit generators share: the capsule of their C object, raw
    words read in bulk, the ctypes interface. numpy's base class keeps its
    own (empty) bitgen_t; everything that would read it is overridden.

    A numpy Generator keeps a copy of the bitgen_t, whose state points into
    the C object, and draws under ``lock``: the C base class holds both for
    the bit generator's whole life, bound once by ``_bind_bits`` after
    numpy's ``__init__``, and reaches the C object only through ``_locked``,
    which holds the lock (python/ext/bitgen_base.c)."""

    _ctypes_interface: Any = None
    _cffi_interface: Any = None

    def __init__(self) -> None:
        super().__init__(_Seedless())  # type: ignore[arg-type]  # the lock; no seed sequence

    def _check_new(self) -> None:
        # Before a new C object is made: __init__ called again fails here, not in _bind_bits.
        if self._bound:
            raise RuntimeError("a shakerand bit generator is initialised once; make a new one")

    def _raw_bytes(self, n: int) -> bytes:
        raise NotImplementedError

    def random_raw(self, size: Size = None, output: bool = True) -> Any:  # type: ignore[override]
        """Raw 64-bit words, as numpy's ``BitGenerator.random_raw``."""
        # The shape is checked (numpy's errors for a bad size) before a word is drawn.
        out = None if size is None else np.empty(size, dtype=np.uint64)
        count = 1 if out is None else out.size
        raw = self._raw_bytes(8 * count)
        if not output:
            return None
        words = np.frombuffer(raw, dtype="<u8")
        if out is None:
            return int(words[0])
        out.reshape(-1)[:] = words
        return out

    @property
    def ctypes(self) -> Any:  # type: ignore[override]
        """The bitgen_t as ctypes objects, as numpy's (for numba); made once."""
        if self._ctypes_interface is None:
            address = _capsule_pointer(self.capsule, b"BitGenerator")
            s = _BitGenStruct.from_address(address)
            self._ctypes_interface = _Interface(
                s.state, _ctypes.c_void_p(s.state), s.next_uint64, s.next_uint32,
                s.next_double, _ctypes.c_void_p(address))
        return self._ctypes_interface

    @property
    def cffi(self) -> Any:  # type: ignore[override]
        """The bitgen_t as cffi objects, as numpy's; made once."""
        if self._cffi_interface is None:
            try:
                import cffi
            except ImportError:
                raise ImportError("cffi cannot be imported.") from None
            ffi = cffi.FFI()
            address = _capsule_pointer(self.capsule, b"BitGenerator")
            state, u64, u32, double, _ = (_ctypes.c_void_p * 5).from_address(address)
            self._cffi_interface = _Interface(
                state, ffi.cast("void *", state), ffi.cast("uint64_t (*)(void *)", u64),
                ffi.cast("uint32_t (*)(void *)", u32), ffi.cast("double (*)(void *)", double),
                ffi.cast("void *", address))
        return self._cffi_interface

    def _benchmark(self, cnt: int, method: str = "uint64") -> None:
        """numpy's test hook: cnt values drawn through the bitgen_t and dropped."""
        if method == "uint64":
            np.random.Generator(self).integers(0, 2 ** 64, cnt, dtype=np.uint64)
        elif method == "uint32":
            np.random.Generator(self).integers(0, 2 ** 32, cnt, dtype=np.uint32)
        elif method == "double":
            np.random.Generator(self).random(cnt)
        else:
            raise ValueError("Unknown method")


class SystemBitGenerator(_Base):
    """The system generator as a numpy bit generator.

    Values come from a buffer of at most 15.5 KiB of the calling thread's
    system generator output (``shakerand._core.SYSTEM_BITS_BYTES``), each
    zeroed as numpy takes it; a fork empties
    the buffer in the child, which then draws from its own reseeded
    generator, even a raw fork that runs no fork handler (docs/python.md
    says how, and what it costs where the kernel cannot zero the buffer in a
    child). numpy holds ``lock`` around each call; a child after a fork
    gets it released (the thread that held it is not in the child). Pickles
    as a new ``SystemBitGenerator`` (there is no state to carry); ``state``
    says what it is, and setting it accepts only such a dict and changes
    nothing (so a pickled ``RandomState`` over one loads back).
    """

    def __init__(self) -> None:
        self._check_new()
        super().__init__()
        self._bind_bits(_core.SystemBits())
        _live_system_bit_generators.add(self)

    def _raw_bytes(self, n: int) -> bytes:
        return _core.randbytes(n)  # the calling thread's generator: no lock needed

    def buffered(self) -> int:
        """Bytes of output the buffer holds now (0 after a fork)."""
        return self._locked("buffered")

    @property
    def state(self) -> Mapping[str, Any]:
        return {"bit_generator": "SystemBitGenerator", "state": {"engine": _core.system_kind()}}

    @state.setter
    def state(self, value: Mapping[str, Any]) -> None:
        if not isinstance(value, Mapping):
            raise TypeError("state must be a dict")
        if value.get("bit_generator") != "SystemBitGenerator":
            raise ValueError("not a SystemBitGenerator state (the system generator has no "
                             "state to set)")

    def spawn(self, n_children: int) -> List["SystemBitGenerator"]:  # type: ignore[override]
        """n_children new SystemBitGenerators (each is independent already)."""
        return [SystemBitGenerator() for _ in range(_child_count(n_children))]

    def __reduce__(self) -> Any:
        # (constructor, (name,), state): the shape numpy 1.x's Generator.__reduce__ unpacks.
        return (_new_system_bit_generator, ("SystemBitGenerator",), None)


def _new_system_bit_generator(name: str = "SystemBitGenerator") -> SystemBitGenerator:
    return SystemBitGenerator()


_live_system_bit_generators: "_weakref.WeakSet[SystemBitGenerator]" = _weakref.WeakSet()


def _release_locks_in_child() -> None:
    # A fork while another thread was inside a numpy call leaves numpy's lock held by a thread
    # the child does not have. The C fork handler empties every buffer, so nothing it guarded
    # is left half-done in the child. A lock the forking thread holds itself stays held: numpy
    # 2's RLock says so (_is_owned); numpy 1's plain Lock cannot, and is released.
    for g in list(_live_system_bit_generators):
        lock = g.lock
        owned = getattr(lock, "_is_owned", None)
        if owned is not None and owned():
            continue
        reinit = getattr(lock, "_at_fork_reinit", None)
        if reinit is not None:
            reinit()


if hasattr(_os, "register_at_fork"):
    _os.register_at_fork(after_in_child=_release_locks_in_child)


class BitGenerator(_Base):
    """A reproducible numpy bit generator on one seeded shakerand engine.

    ``BitGenerator(seed, kind="turboshake256")`` takes the seeds
    :class:`shakerand.Random` takes. ``random_raw`` (and numpy's
    ``next_uint64``) are the engine's ``u64`` words, ``next_uint32`` its
    ``u32``, ``next_double`` its ``random()``; numpy's values come from a
    buffer of the stream's next bytes, zeroed as they are taken. ``state``
    is a dict holding a copy of the engine and of what is left of that
    buffer, settable within the process; it is not pickled (the engine's
    state is its key: keep the seed).
    """

    def __init__(self, seed: Seed = None, kind: str = "turboshake256") -> None:
        self._check_new()
        bits = _core.EngineBits(_core.Engine(kind, seed_bytes(seed, kind)))
        super().__init__()
        self._bind_bits(bits)

    @property
    def kind(self) -> str:
        """The engine kind."""
        return self._locked("kind")

    def _raw_bytes(self, n: int) -> bytes:
        return self._locked("randbytes", n)

    @property
    def state(self) -> Mapping[str, Any]:
        engine = self._locked("copy")
        kind = engine.kind
        # "state" as numpy's own have one (RandomState.set_state asks for it).
        return {"bit_generator": "shakerand.numpy.BitGenerator", "kind": kind, "engine": engine,
                "state": {"kind": kind, "engine": engine}}

    @state.setter
    def state(self, value: Mapping[str, Any]) -> None:
        if not isinstance(value, dict):
            raise TypeError("state must be a dict")
        if (value.get("bit_generator") != "shakerand.numpy.BitGenerator"
                or not isinstance(value.get("engine"), _core.EngineBits)
                or value["engine"].kind != value.get("kind")):
            raise ValueError("not a shakerand.numpy.BitGenerator state")
        # numpy's Generator copied the bitgen_t, whose state pointer is the
        # engine's memory: the new state goes into the same engine.
        self._locked("load", value["engine"].copy())

    def spawn(self, n_children: int) -> List["BitGenerator"]:  # type: ignore[override]
        """n_children generators of the same kind, each seeded with 32 bytes
        of this one's stream (reproducible from this one's seed)."""
        count = _child_count(n_children)
        stream = self._locked("randbytes", 32 * count)
        kind = self.kind
        return [BitGenerator(stream[32 * i:32 * i + 32], kind) for i in range(count)]

    def __reduce__(self) -> Any:
        raise TypeError("a seeded shakerand.numpy.BitGenerator is not pickled: its state is "
                        "the generator's key; keep the seed, or copy.copy() it in the process")

    def __copy__(self) -> "BitGenerator":
        other = BitGenerator.__new__(type(self))
        _Base.__init__(other)
        other._bind_bits(self._locked("copy"))
        return other

    def __deepcopy__(self, memo: Any) -> "BitGenerator":
        return self.__copy__()

