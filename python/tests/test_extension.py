# SPDX-License-Identifier: MIT OR Apache-2.0
"""The extension as CPython sees it: multi-phase init (a re-import makes a
new module with its own types), heap types that the garbage collector
traverses, isolated subinterpreters, the free-threaded build's GIL, and
what help() and a missing numpy say."""
import gc
import importlib
import inspect
import os
import pydoc
import subprocess
import sys
import sysconfig
import textwrap

import pytest

import shakerand
from shakerand import _core

Py_TPFLAGS_HEAPTYPE = 1 << 9


def test_types_are_heap_types_that_gc_traverses():
    engine = _core.Engine("turboshake256", b"gc")
    engine_bits = _core.EngineBits(_core.Engine("turboshake256", b"gc"))
    system_bits = _core.SystemBits()
    for obj in (engine, engine_bits, system_bits):
        assert type(obj).__flags__ & Py_TPFLAGS_HEAPTYPE
        assert type(obj).__module__ == "shakerand._core"
        if obj is not engine:
            obj.capsule()
        referents = gc.get_referents(obj)
        assert type(obj) in referents  # a heap type's instances keep it alive
        if obj is not engine:
            assert any(type(r).__name__ == "PyCapsule" for r in referents)
        with pytest.raises(TypeError):  # not subclassable: methods rely on the exact type
            type("Sub", (type(obj),), {})


def test_reimport_executes_the_module_again_with_its_own_types():
    first = sys.modules["shakerand._core"]
    del sys.modules["shakerand._core"]
    try:
        second = importlib.import_module("shakerand._core")
    finally:
        sys.modules["shakerand._core"] = first
    assert second is not first
    assert second.Engine is not first.Engine
    a, b = second.Engine("chacha8rand", bytes(32)), first.Engine("chacha8rand", bytes(32))
    assert a.u64() == b.u64()
    assert a.uuid4().version == 4 and second.uuid7().version == 7
    with pytest.raises(TypeError):  # an engine of one module's type is not the other's
        a.load(b)


def run_in_subinterpreter(code):
    """Runs code in a new isolated interpreter (its own GIL), where only
    multi-phase modules that declare support may be imported."""
    if sys.version_info < (3, 12):
        pytest.skip("isolated subinterpreters need CPython 3.12")
    try:
        import _interpreters as interpreters  # 3.13
    except ImportError:
        try:
            import _xxsubinterpreters as interpreters  # 3.12
        except ImportError:
            pytest.skip("no subinterpreter module")
    interp = interpreters.create()
    try:
        failure = interpreters.run_string(interp, code)
    finally:
        interpreters.destroy(interp)
    assert failure is None, failure


def test_import_and_draw_in_an_isolated_subinterpreter(tmp_path):
    out = tmp_path / "out"
    run_in_subinterpreter(textwrap.dedent(f"""
        import shakerand
        r = shakerand.Random(b"sub")
        values = [shakerand.token_hex(4), r.random(), str(shakerand.uuid4()),
                  shakerand._core.Engine("shake256", b"e").randbytes(1 << 17).hex()[:8]]
        with open({str(out)!r}, "w") as f:
            f.write(repr(values))
    """))
    values = eval(out.read_text())
    assert values[1] == shakerand.Random(b"sub").random()
    assert values[3] == _core.Engine("shake256", b"e").randbytes(4).hex()


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"),
                    reason="not a free-threaded CPython")
def test_free_threaded_build_stays_without_the_gil_when_imported():
    # The extension declares that it needs no GIL (every call on an engine
    # holds the engine's lock there, docs/python.md): importing it leaves a
    # free-threaded CPython without one, and says nothing.
    env = dict(os.environ)
    env.pop("PYTHON_GIL", None)
    done = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c",
         "import sys; before = sys._is_gil_enabled(); import shakerand; "
         "print(before, sys._is_gil_enabled())"],
        env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"] and done.stderr == ""


def test_two_engines_loaded_from_each_other_at_once_do_not_deadlock():
    # a.load(b) beside b.load(a), and comparisons, while each engine also
    # fills (which holds its lock): the locks are taken in address order.
    import threading
    a = _core.Engine("chacha8rand", bytes(32))
    b = _core.Engine("chacha8rand", bytes(32))
    big = _core.RELEASE_GIL_BYTES
    stop = threading.Event()

    def run(x, y):
        while not stop.is_set():
            x.load(y)
            _ = x == y
            x.randbytes(big)

    threads = [threading.Thread(target=run, args=p, daemon=True) for p in ((a, b), (b, a))]
    for t in threads:
        t.start()
    threading.Event().wait(1.0)
    stop.set()
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads), "load() deadlocked"


def test_a_shared_engine_hands_out_each_word_of_its_stream_once():
    # On a free-threaded CPython only the engine's lock orders the calls:
    # without it this fails there (words handed out twice, others skipped).
    import threading
    n, count = 200000, 4
    engine = _core.Engine("chacha8rand", bytes(32))
    ref = _core.Engine("chacha8rand", bytes(32))
    expected = sorted(ref.u64() for _ in range(n * count))
    out = [[] for _ in range(count)]
    start = threading.Barrier(count)

    def run(mine):
        draw = engine.u64
        start.wait()
        for _ in range(n):
            mine.append(draw())

    threads = [threading.Thread(target=run, args=(o,)) for o in out]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(v for o in out for v in o) == expected


def test_help_shows_randoms_own_signature_and_text():
    for cls, params in ((shakerand.Random, {"seed": None, "kind": "turboshake256"}),
                        (shakerand.SystemRandom, {"x": None})):
        sig = inspect.signature(cls)
        assert {n: p.default for n, p in sig.parameters.items()} == params
        text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
        assert "*args, **kwds" not in text
        assert "Optional argument x controls seeding" not in text  # random.Random's
    assert "reproducible" in inspect.getdoc(shakerand.Random.__init__)


def test_shakerand_numpy_without_numpy_names_the_extra():
    code = ("import sys; sys.modules['numpy'] = None\n"
            "try:\n    import shakerand.numpy\n"
            "except ImportError as e:\n    print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("ImportError ") or out.startswith("ModuleNotFoundError ")
    assert "pip install 'shakerand[numpy]'" in out
