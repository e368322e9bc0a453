/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Engine, one seeded engine (shakerand.Random holds one; shakerand.numpy.BitGenerator an
 * EngineBits over one, engine_bits.c): its constructor and methods. The object, its lock and
 * how a call enters it are engine_object.c. */
#include "engine_type.h"

#include "common.h"
#include "draw.h"
#include "internal.h" /* shakerand_stack_record_bounds */

#include <string.h>

static int Engine_traverse(EngineObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    return 0;
}

PyObject *pyext_kind_names(void)
{
    const size_t n = shakerand_kind_count();
    PyObject *names = PyTuple_New((Py_ssize_t)n);
    if (names == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        PyObject *name = PyUnicode_FromString(shakerand_kind_name(shakerand_kind_at(i)));
        if (name == NULL) {
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, (Py_ssize_t)i, name);
    }
    return names;
}

static int kind_of(PyObject *name, shakerand_kind *kind)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "kind must be a str, not %.100s", Py_TYPE(name)->tp_name);
        return -1;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(name, &len);
    if (s == NULL)
        return -1;
    /* strlen: a NUL inside the str would otherwise end the name early */
    if (strlen(s) != (size_t)len || shakerand_kind_from_name(s, kind) != SHAKERAND_OK) {
        PyObject *kinds = pyext_kind_names();
        if (kinds != NULL) {
            PyErr_Format(PyExc_ValueError, "unknown engine kind %R: one of %R", name, kinds);
            Py_DECREF(kinds);
        }
        return -1;
    }
    return 0;
}

/* Engine(kind, seed): seed is bytes-like (the package's Python layer turns
 * str, int and None into bytes before this). */
static PyObject *Engine_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"kind", "seed", NULL};
    PyObject *name;
    Py_buffer seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Uy*:Engine", keywords, &name, &seed))
        return NULL;
    shakerand_kind kind;
    EngineObject *self = NULL;
    if (kind_of(name, &kind) < 0)
        goto done;
    const size_t seed_size = shakerand_kind_seed_size(kind);
    if (seed_size != 0 && (size_t)seed.len != seed_size) {
        PyErr_Format(PyExc_ValueError, "a %s seed is exactly %zu bytes, not %zd",
                     shakerand_kind_name(kind), seed_size, seed.len);
        goto done;
    }
    self = pyext_engine_alloc(type, kind);
    if (self == NULL)
        goto done;
    shakerand_stack_record_bounds(); /* as in pyext_engine_enter: the seed's wipe reaches all */
    const int status = shakerand_engine_init(self->engine, kind, seed.buf, (size_t)seed.len);
    if (status != SHAKERAND_OK) {
        Py_CLEAR(self);
        pyext_raise_status(status);
    }
done:
    PyBuffer_Release(&seed);
    return (PyObject *)self;
}

/* ---- Methods ------------------------------------------------------------ */

static PyObject *Engine_random(EngineObject *self, PyObject *unused)
{
    (void)unused;
    return pyext_double_result(self);
}

static PyObject *Engine_getrandbits(EngineObject *self, PyObject *k)
{
    return pyext_getrandbits_of(self, k);
}

static PyObject *Engine_randbytes(EngineObject *self, PyObject *arg)
{
    const Py_ssize_t n = pyext_count_arg(arg, "number of bytes");
    return n < 0 ? NULL : pyext_bytes_of(self, n);
}

static PyObject *Engine_randbelow(EngineObject *self, PyObject *n)
{
    return pyext_randbelow_of(self, n, 1);
}

static PyObject *Engine_below_counted(EngineObject *self, PyObject *args, PyObject *kwds)
{
    return pyext_below_counted_of(self, args, kwds);
}

static void draw_engine_u64(shakerand_engine *engine, void *ctx)
{
    *(uint64_t *)ctx = shakerand_engine_u64(engine);
}

static void draw_engine_u32(shakerand_engine *engine, void *ctx)
{
    *(uint32_t *)ctx = shakerand_engine_u32(engine);
}

/* ctx is the engine that takes this one's state. */
static void copy_state_to(shakerand_engine *engine, void *ctx)
{
    memcpy(ctx, engine, sizeof(shakerand_engine));
}

static PyObject *Engine_u64(EngineObject *self, PyObject *unused)
{
    (void)unused;
    uint64_t v;
    if (pyext_draw(self, draw_engine_u64, &v) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(v);
}

static PyObject *Engine_u32(EngineObject *self, PyObject *unused)
{
    (void)unused;
    uint32_t v;
    if (pyext_draw(self, draw_engine_u32, &v) < 0)
        return NULL;
    return PyLong_FromUnsignedLong(v);
}

static PyObject *Engine_uuid4(EngineObject *self, PyObject *unused)
{
    (void)unused;
    return pyext_uuid_of(pyext_state_of_type(Py_TYPE(self)), self, 4);
}

static PyObject *Engine_uuid7(EngineObject *self, PyObject *unused)
{
    (void)unused;
    return pyext_uuid_of(pyext_state_of_type(Py_TYPE(self)), self, 7);
}

/* A copy with the same state: it continues the stream exactly as this one
 * would (the state has no pointers). */
static PyObject *Engine_copy(EngineObject *self, PyObject *unused)
{
    (void)unused;
    EngineObject *copy = pyext_engine_alloc(Py_TYPE(self), self->kind);
    if (copy == NULL)
        return NULL;
    if (pyext_draw(self, copy_state_to, copy->engine) < 0) {
        Py_DECREF(copy);
        return NULL;
    }
    return (PyObject *)copy;
}

/* load(other): this engine takes other's state (same kind), in place: a
 * numpy Generator holds a pointer to this engine's memory. */
static PyObject *Engine_load(EngineObject *self, PyObject *other)
{
    if (!PyObject_TypeCheck(other, Py_TYPE(self))) {
        PyErr_Format(PyExc_TypeError, "load() takes an Engine, not %.100s",
                     Py_TYPE(other)->tp_name);
        return NULL;
    }
    EngineObject *source = (EngineObject *)other;
    if (source->kind != self->kind) {
        PyErr_Format(PyExc_ValueError, "cannot load a %s engine into a %s one",
                     shakerand_kind_name(source->kind), shakerand_kind_name(self->kind));
        return NULL;
    }
    if (source != self) {
        if (pyext_engine_lock_pair(self, source) < 0)
            return NULL;
        memcpy(self->engine, source->engine, sizeof(shakerand_engine));
        pyext_engine_unlock_pair(self, source);
    }
    Py_RETURN_NONE;
}

/* Equal when of the same kind and the same state, byte for byte, so that
 * two snapshots of a generator (numpy's bit_generator.state, Random's
 * getstate()) compare equal until it draws again. Compared without an early
 * exit: the state is key material. Unhashable, as it changes. */
static PyObject *Engine_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, Py_TYPE(a)))
        Py_RETURN_NOTIMPLEMENTED;
    EngineObject *x = (EngineObject *)a, *y = (EngineObject *)b;
    int equal = 1;
    if (x != y) {
        /* entered as load() enters them: no fill runs in either meanwhile */
        if (pyext_engine_lock_pair(x, y) < 0)
            return NULL;
        const volatile unsigned char *p = (const unsigned char *)x->engine;
        const volatile unsigned char *q = (const unsigned char *)y->engine;
        unsigned char diff = 0;
        for (size_t i = 0; i < sizeof(shakerand_engine); i++)
            diff |= p[i] ^ q[i];
        pyext_engine_unlock_pair(x, y);
        equal = x->kind == y->kind && diff == 0;
    }
    return PyBool_FromLong(equal == (op == Py_EQ));
}

static PyObject *Engine_deepcopy(EngineObject *self, PyObject *memo)
{
    (void)memo;
    return Engine_copy(self, NULL);
}
static PyObject *Engine_kind(EngineObject *self, void *unused)
{
    (void)unused;
    return PyUnicode_FromString(shakerand_kind_name(self->kind));
}

static PyMethodDef Engine_methods[] = {
    {"random", (PyCFunction)Engine_random, METH_NOARGS,
     "random() -> float in [0, 1): the next word's top 53 bits times 2**-53."},
    {"getrandbits", (PyCFunction)Engine_getrandbits, METH_O,
     "getrandbits(k) -> int with k random bits."},
    {"randbytes", (PyCFunction)Engine_randbytes, METH_O,
     "randbytes(n) -> the next n bytes of the stream."},
    {"randbelow", (PyCFunction)Engine_randbelow, METH_O,
     "randbelow(n) -> int in [0, n) (0 for n == 0)."},
    {"below_counted", (PyCFunction)(void (*)(void))Engine_below_counted,
     METH_VARARGS | METH_KEYWORDS,
     "below_counted(r, method='rng-bc-1') -> (int in [0, r), bits drawn)."},
    {"u64", (PyCFunction)Engine_u64, METH_NOARGS, "u64() -> the next 8 bytes, little-endian."},
    {"u32", (PyCFunction)Engine_u32, METH_NOARGS, "u32() -> the next 4 bytes, little-endian."},
    {"uuid4", (PyCFunction)Engine_uuid4, METH_NOARGS, "uuid4() -> uuid.UUID, version 4."},
    {"uuid7", (PyCFunction)Engine_uuid7, METH_NOARGS, "uuid7() -> uuid.UUID, version 7."},
    {"copy", (PyCFunction)Engine_copy, METH_NOARGS, "copy() -> an engine in the same state."},
    {"load", (PyCFunction)Engine_load, METH_O,
     "load(other) -> None: take other's state (an engine of the same kind)."},
    {"__copy__", (PyCFunction)Engine_copy, METH_NOARGS, NULL},
    {"__deepcopy__", (PyCFunction)Engine_deepcopy, METH_O, NULL},
    {"__reduce__", pyext_engine_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"kind", (getter)Engine_kind, NULL, "the engine kind's name", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Engine_slots[] = {
    {Py_tp_new, Engine_new},
    {Py_tp_dealloc, pyext_engine_dealloc},
    {Py_tp_traverse, Engine_traverse},
    {Py_tp_richcompare, Engine_richcompare},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_tp_methods, Engine_methods},
    {Py_tp_getset, Engine_getset},
    {Py_tp_doc, "Engine(kind, seed): one seeded shakerand engine (use shakerand.Random)."},
    {0, NULL},
};

/* Not a base type: methods take Py_TYPE(self) to be the module's own type. */
PyType_Spec pyext_engine_spec = {
    .name = "shakerand._core.Engine",
    .basicsize = sizeof(EngineObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC
#if PY_VERSION_HEX >= 0x030A0000
             | Py_TPFLAGS_IMMUTABLETYPE
#endif
    ,
    .slots = Engine_slots,
};
