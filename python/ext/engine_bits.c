/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * EngineBits, numpy's view of a seeded Engine (shakerand.numpy's
 * BitGenerator).
 *
 * numpy asks for one value per call; taken from the engine itself, every
 * 992 bytes of chacha8rand would cost a refill and its stack wipe (about
 * 9 KiB zeroed, stack_wipe.c) and every value the engine's own checks. So
 * the values come from `ahead`, the stream's next bytes, filled from the
 * engine in ENGINE_BITS_BYTES pieces (whole chacha8rand iterations: one
 * kernel call after another and one wipe) and zeroed as they are handed
 * out. The stream is the engine's, byte for byte: a word is the next 8 (or
 * 4) bytes, little-endian, as shakerand_engine_u64 and _u32 take them.
 *
 * Every read of the stream goes through `ahead`, a large one in whole
 * pieces straight into its destination, so the engine's state is always
 * the one after a whole number of pieces: two EngineBits at the same
 * place in the same stream are equal byte for byte (the engine and the
 * rest of `ahead`), which numpy's state snapshots rely on. copy() and
 * load() carry `ahead` with the engine.
 *
 * No fork rule: a seeded stream repeats in a child by design, as the
 * engine would.
 */
#include "engine_bits.h"

#include <stdlib.h>
#include <string.h>

#include "bitgen.h"
#include "common.h"
#include "engine.h" /* load_le; and internal.h: shakerand_stack_record_bounds */
#include "engine_object.h"

enum { ENGINE_BITS_BYTES = SYSTEM_BITS_BYTES };

struct engine_bits {
    size_t pos, end; /* ahead[pos, end) comes next in the stream; none when equal */
    shakerand_engine *engine;
    SHAKERAND_ALIGN64 unsigned char ahead[ENGINE_BITS_BYTES];
};

typedef struct {
    PyObject_HEAD EngineObject *engine; /* its memory is bits->engine */
    struct engine_bits *bits;           /* 64-byte aligned, wiped and freed with the object */
    numpy_bitgen bitgen;
    PyObject *capsule;
} EngineBitsObject;

/* `ahead` filled again with the stream's next piece. */
static void engine_bits_refill(struct engine_bits *b)
{
    shakerand_engine_fill(b->engine, b->ahead, sizeof b->ahead);
    b->pos = 0;
    b->end = sizeof b->ahead;
}

/* The next n bytes of the stream into out (zeroed in `ahead`), whole
 * pieces straight from the engine. */
static void engine_bits_read(struct engine_bits *b, unsigned char *out, size_t n)
{
    for (;;) {
        const size_t pos = b->pos, left = b->end - pos, have = left < n ? left : n;
        memcpy(out, b->ahead + pos, have);
        shakerand_memzero(b->ahead + pos, have);
        b->pos = pos + have;
        out += have;
        n -= have;
        if (n == 0)
            return;
        for (; n >= sizeof b->ahead; out += sizeof b->ahead, n -= sizeof b->ahead)
            shakerand_engine_fill(b->engine, out, sizeof b->ahead);
        if (n == 0)
            return;
        engine_bits_refill(b);
    }
}

/* The next n (4 or 8) bytes as a word: from `ahead` in line while it
 * holds them, else (a refill, or a word across two pieces) out of line. */
static inline int engine_bits_take(struct engine_bits *b, size_t n, uint64_t *v)
{
    return pyext_take_word(b->ahead, &b->pos, b->end, n, v);
}

__attribute__((noinline)) static uint64_t engine_bits_slow_take(struct engine_bits *b, size_t n)
{
    unsigned char word[8];
    engine_bits_read(b, word, n);
    const uint64_t v = load_le(word, (unsigned)n);
    shakerand_memzero(word, sizeof word);
    return v;
}

static uint64_t engine_bits_u64(void *st)
{
    uint64_t v;
    if (__builtin_expect(engine_bits_take(st, 8, &v), 1))
        return v;
    return engine_bits_slow_take(st, 8);
}

static uint32_t engine_bits_u32(void *st)
{
    uint64_t v;
    if (__builtin_expect(engine_bits_take(st, 4, &v), 1))
        return (uint32_t)v;
    return (uint32_t)engine_bits_slow_take(st, 4);
}

static double engine_bits_double(void *st)
{
    uint64_t v;
    if (__builtin_expect(engine_bits_take(st, 8, &v), 1))
        return pyext_double_of(v);
    return pyext_double_of(engine_bits_slow_take(st, 8));
}

/* A new EngineBits over engine (which it keeps; nothing else should draw
 * from it), `ahead` empty. */
static EngineBitsObject *engine_bits_wrap(PyTypeObject *type, EngineObject *engine)
{
    EngineBitsObject *self = (EngineBitsObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    void *memory = NULL;
    if (posix_memalign(&memory, 64, sizeof(struct engine_bits)) != 0) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    memset(memory, 0, sizeof(struct engine_bits));
    self->bits = memory;
    Py_INCREF(engine);
    self->engine = engine;
    self->bits->engine = engine->engine;
    pyext_bitgen_init(&self->bitgen, self->bits, engine_bits_u64, engine_bits_u32,
                      engine_bits_double);
    return self;
}

static PyObject *EngineBits_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"engine", NULL};
    PyObject *engine;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:EngineBits", keywords, &engine))
        return NULL;
    if (!pyext_is_engine(engine)) {
        PyErr_Format(PyExc_TypeError, "EngineBits() takes an Engine, not %.100s",
                     Py_TYPE(engine)->tp_name);
        return NULL;
    }
    return (PyObject *)engine_bits_wrap(type, (EngineObject *)engine);
}

static int EngineBits_traverse(EngineBitsObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->engine);
    Py_VISIT(self->capsule);
    return 0;
}

static int EngineBits_clear(EngineBitsObject *self)
{
    Py_CLEAR(self->capsule);
    return 0;
}

static void EngineBits_dealloc(EngineBitsObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (self->bits != NULL) {
        shakerand_memzero(self->bits, sizeof *self->bits);
        free(self->bits);
    }
    (void)EngineBits_clear(self);
    Py_XDECREF(self->engine);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);
}

static PyObject *EngineBits_capsule(EngineBitsObject *self, PyObject *unused)
{
    (void)unused;
    /* numpy's draws come next, on this thread most likely: its stack's
     * bounds known, each refill's wipe asks no sigaltstack (engine_object.c's
     * pyext_engine_enter says why this is safe here). */
    shakerand_stack_record_bounds();
    return pyext_bitgen_capsule(&self->capsule, &self->bitgen);
}

struct read_ctx {
    struct engine_bits *bits;
    unsigned char *out;
    size_t len;
};

static void read_without_gil(shakerand_engine *engine, void *ctx)
{
    (void)engine; /* the one bits reads from */
    const struct read_ctx *c = ctx;
    engine_bits_read(c->bits, c->out, c->len);
}

/* randbytes(n): the stream's next n bytes (random_raw, spawn). */
static PyObject *EngineBits_randbytes(EngineBitsObject *self, PyObject *arg)
{
    const Py_ssize_t n = pyext_count_arg(arg, "number of bytes");
    if (n < 0)
        return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL)
        return NULL;
    unsigned char *p = (unsigned char *)PyBytes_AS_STRING(out);
    shakerand_stack_record_bounds();
    if (n < RELEASE_GIL_BYTES) {
        const int locked = pyext_engine_enter(self->engine);
        if (locked < 0) {
            Py_DECREF(out);
            return NULL;
        }
        engine_bits_read(self->bits, p, (size_t)n);
        pyext_engine_leave(self->engine, locked);
        return out;
    }
    /* Without the GIL, as draw.c's fills of this size (numpy's draws are
     * kept out by BitGenerator's lock). */
    struct read_ctx ctx = {self->bits, p, (size_t)n};
    if (pyext_run_without_gil(self->engine, read_without_gil, &ctx) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* `to` takes `from`'s state: the engine's, and what is left of `ahead`
 * (the rest of `to`'s zeroed). Both engines' locks held. */
static void engine_bits_assign(EngineBitsObject *to, const EngineBitsObject *from)
{
    struct engine_bits *t = to->bits;
    const struct engine_bits *f = from->bits;
    memcpy(t->engine, f->engine, sizeof(shakerand_engine));
    shakerand_memzero(t->ahead, sizeof t->ahead);
    const size_t pos = f->pos, end = f->end;
    memcpy(t->ahead + pos, f->ahead + pos, end - pos);
    t->pos = pos;
    t->end = end;
}

/* An EngineBits of the same kind and state: a new engine of the kind,
 * then this one's state copied into it under this one's lock (numpy's
 * draws are kept out by BitGenerator's lock). */
static PyObject *EngineBits_copy(EngineBitsObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *engine = PyObject_CallMethod((PyObject *)self->engine, "copy", NULL);
    if (engine == NULL)
        return NULL;
    EngineBitsObject *copy = engine_bits_wrap(Py_TYPE(self), (EngineObject *)engine);
    Py_DECREF(engine);
    if (copy == NULL)
        return NULL;
    if (pyext_engine_lock(self->engine) < 0) {
        Py_DECREF(copy);
        return NULL;
    }
    engine_bits_assign(copy, self);
    PyThread_release_lock(self->engine->lock);
    return (PyObject *)copy;
}

/* Both objects' engines locked (one lock if they share an engine); -1 with
 * an exception otherwise. */
static int engine_bits_lock_both(EngineBitsObject *a, EngineBitsObject *b)
{
    return a->engine == b->engine ? pyext_engine_lock(a->engine)
                                  : pyext_engine_lock_pair(a->engine, b->engine);
}

static void engine_bits_unlock_both(EngineBitsObject *a, EngineBitsObject *b)
{
    if (a->engine == b->engine)
        PyThread_release_lock(a->engine->lock);
    else
        pyext_engine_unlock_pair(a->engine, b->engine);
}

/* load(other): this one takes other's state, in place (a numpy Generator
 * holds a pointer to this memory). */
static PyObject *EngineBits_load(EngineBitsObject *self, PyObject *other)
{
    if (!PyObject_TypeCheck(other, Py_TYPE(self))) {
        PyErr_Format(PyExc_TypeError, "load() takes an EngineBits, not %.100s",
                     Py_TYPE(other)->tp_name);
        return NULL;
    }
    EngineBitsObject *source = (EngineBitsObject *)other;
    if (source->engine->kind != self->engine->kind) {
        PyErr_Format(PyExc_ValueError, "cannot load a %s engine into a %s one",
                     shakerand_kind_name(source->engine->kind),
                     shakerand_kind_name(self->engine->kind));
        return NULL;
    }
    if (source == self)
        Py_RETURN_NONE;
    if (engine_bits_lock_both(self, source) < 0)
        return NULL;
    engine_bits_assign(self, source);
    engine_bits_unlock_both(self, source);
    Py_RETURN_NONE;
}

/* Equal when of the same kind and state: the engines and the rest of their
 * `ahead`s, compared without an early exit (key material). */
static PyObject *EngineBits_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, Py_TYPE(a)))
        Py_RETURN_NOTIMPLEMENTED;
    EngineBitsObject *x = (EngineBitsObject *)a, *y = (EngineBitsObject *)b;
    int equal = 1;
    if (x != y) {
        if (engine_bits_lock_both(x, y) < 0)
            return NULL;
        const struct engine_bits *p = x->bits, *q = y->bits;
        const volatile unsigned char *e = (const unsigned char *)p->engine;
        const volatile unsigned char *f = (const unsigned char *)q->engine;
        unsigned char diff = 0;
        for (size_t i = 0; i < sizeof(shakerand_engine); i++)
            diff |= e[i] ^ f[i];
        const size_t left = p->end - p->pos;
        if (left == q->end - q->pos) {
            const volatile unsigned char *u = p->ahead + p->pos, *v = q->ahead + q->pos;
            for (size_t i = 0; i < left; i++)
                diff |= u[i] ^ v[i];
        } else {
            diff = 1;
        }
        engine_bits_unlock_both(x, y);
        equal = x->engine->kind == y->engine->kind && diff == 0;
    }
    return PyBool_FromLong(equal == (op == Py_EQ));
}

static PyObject *EngineBits_kind(EngineBitsObject *self, void *unused)
{
    (void)unused;
    return PyObject_GetAttrString((PyObject *)self->engine, "kind");
}

static PyObject *EngineBits_deepcopy(EngineBitsObject *self, PyObject *memo)
{
    (void)memo;
    return EngineBits_copy(self, NULL);
}

static PyMethodDef EngineBits_methods[] = {
    {"capsule", (PyCFunction)EngineBits_capsule, METH_NOARGS,
     "capsule() -> the numpy bitgen_t capsule."},
    {"randbytes", (PyCFunction)EngineBits_randbytes, METH_O,
     "randbytes(n) -> the next n bytes of the stream."},
    {"copy", (PyCFunction)EngineBits_copy, METH_NOARGS, "copy() -> one in the same state."},
    {"load", (PyCFunction)EngineBits_load, METH_O,
     "load(other) -> None: take other's state (an EngineBits of the same kind)."},
    {"__copy__", (PyCFunction)EngineBits_copy, METH_NOARGS, NULL},
    {"__deepcopy__", (PyCFunction)EngineBits_deepcopy, METH_O, NULL},
    {"__reduce__", pyext_engine_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef EngineBits_getset[] = {
    {"kind", (getter)EngineBits_kind, NULL, "the engine kind's name", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot EngineBits_slots[] = {
    {Py_tp_new, EngineBits_new},
    {Py_tp_dealloc, EngineBits_dealloc},
    {Py_tp_traverse, EngineBits_traverse},
    {Py_tp_clear, EngineBits_clear},
    {Py_tp_richcompare, EngineBits_richcompare},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_tp_methods, EngineBits_methods},
    {Py_tp_getset, EngineBits_getset},
    {Py_tp_doc, "EngineBits(engine): a seeded Engine as a numpy bitgen_t "
                "(use shakerand.numpy.BitGenerator)."},
    {0, NULL},
};

PyType_Spec pyext_engine_bits_spec = {
    .name = "shakerand._core.EngineBits",
    .basicsize = sizeof(EngineBitsObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC
#if PY_VERSION_HEX >= 0x030A0000
             | Py_TPFLAGS_IMMUTABLETYPE
#endif
    ,
    .slots = EngineBits_slots,
};
