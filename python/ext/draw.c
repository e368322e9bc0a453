/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The draws the module functions and Engine's methods share (draw.h). */
#include "draw.h"

#include "common.h"
#include "engine.h" /* shakerand_engine_take_word */

#include <string.h>

/* ---- Little-endian words, whatever the host ---------------------------- */

static uint64_t load_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void store_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* ---- Python integers <-> bytes ------------------------------------------ */

static PyObject *long_from_bytes(const unsigned char *p, size_t n, int little_endian)
{
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(
        p, n,
        (little_endian ? Py_ASNATIVEBYTES_LITTLE_ENDIAN : Py_ASNATIVEBYTES_BIG_ENDIAN) |
            Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
#else
    return _PyLong_FromByteArray(p, n, little_endian, 0);
#endif
}

/* A non-negative int into n big-endian bytes (n large enough). */
static int long_to_be_bytes(PyObject *v, unsigned char *p, size_t n)
{
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(
        v, p, (Py_ssize_t)n, Py_ASNATIVEBYTES_BIG_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    if (need < 0)
        return -1;
    if ((size_t)need > n) {
        PyErr_SetString(PyExc_OverflowError, "integer too large");
        return -1;
    }
    return 0;
#else
    return _PyLong_AsByteArray((PyLongObject *)v, p, n, 0, 0);
#endif
}

/* ---- One draw ----------------------------------------------------------- */

int pyext_draw(EngineObject *owner, pyext_draw_fn *draw, void *ctx)
{
    if (owner == NULL) {
        if (pyext_system_ready() < 0)
            return -1;
        draw(NULL, ctx);
        return 0;
    }
    const int locked = pyext_engine_enter(owner);
    if (locked < 0)
        return -1;
    draw(owner->engine, ctx);
    pyext_engine_leave(owner, locked);
    return 0;
}

static void draw_u64(shakerand_engine *engine, void *ctx)
{
    *(uint64_t *)ctx = engine != NULL ? shakerand_engine_u64(engine) : shakerand_system_u64();
}

struct fill_ctx {
    void *out;
    size_t len;
};

static void draw_fill(shakerand_engine *engine, void *ctx)
{
    const struct fill_ctx *c = ctx;
    if (engine != NULL)
        shakerand_engine_fill(engine, c->out, c->len);
    else
        shakerand_system_fill(c->out, c->len);
}

struct uniform_ctx {
    uint64_t bound, value;
};

static void draw_uniform(shakerand_engine *engine, void *ctx)
{
    struct uniform_ctx *c = ctx;
    (void)shakerand_uniform_u64(engine, c->bound, &c->value);
}

struct below_ctx {
    shakerand_method method;
    const unsigned char *bound;
    unsigned char *out;
    size_t len;
    uint64_t *bits_drawn;
    int status;
};

static void draw_below(shakerand_engine *engine, void *ctx)
{
    struct below_ctx *c = ctx;
    c->status = shakerand_below(engine, c->method, c->bound, c->len, c->out, c->bits_drawn);
}

enum { UUID_BYTES = 16 };

struct uuid_ctx {
    int version;
    uint8_t bytes[UUID_BYTES];
};

static void draw_uuid(shakerand_engine *engine, void *ctx)
{
    struct uuid_ctx *c = ctx;
    if (c->version == 4)
        shakerand_uuid4(engine, c->bytes);
    else
        shakerand_uuid7(engine, c->bytes);
}

/* ---- What the functions and methods return ------------------------------ */

/* A fill of n >= RELEASE_GIL_BYTES into p without the GIL. */
static int fill_without_gil(EngineObject *owner, char *p, Py_ssize_t n)
{
    if (owner == NULL) {
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = shakerand_system_try_fill(p, (size_t)n);
        Py_END_ALLOW_THREADS
        return status != SHAKERAND_OK ? pyext_raise_status(status) : 0;
    }
    struct fill_ctx ctx = {p, (size_t)n};
    return pyext_run_without_gil(owner, draw_fill, &ctx);
}

/* n bytes of the stream, the GIL released for large n (the engine then
 * held busy under its lock). */
PyObject *pyext_bytes_of(EngineObject *owner, Py_ssize_t n)
{
    if (owner == NULL && pyext_system_ready() < 0)
        return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL)
        return NULL;
    char *p = PyBytes_AS_STRING(out);
    struct fill_ctx ctx = {p, (size_t)n};
    const int status =
        n < RELEASE_GIL_BYTES ? pyext_draw(owner, draw_fill, &ctx) : fill_without_gil(owner, p, n);
    if (status < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* getrandbits(k): k <= 64 is the top k bits of one word; more is
 * ceil(k / 64) words, the first the least significant, the last keeping
 * its top bits (docs/python.md). */
PyObject *pyext_getrandbits_of(EngineObject *owner, PyObject *arg)
{
    const Py_ssize_t k = pyext_count_arg(arg, "number of bits");
    if (k < 0 || (owner == NULL && pyext_system_ready() < 0))
        return NULL;
    if (k == 0)
        return PyLong_FromLong(0);
    if (k <= 64) {
        uint64_t v;
        if (pyext_draw(owner, draw_u64, &v) < 0)
            return NULL;
        return PyLong_FromUnsignedLongLong(v >> (64 - k));
    }
    if (k > PY_SSIZE_T_MAX - 63)
        return PyErr_NoMemory();
    const size_t words = ((size_t)k + 63) / 64;
    if (words > (size_t)PY_SSIZE_T_MAX / 8)
        return PyErr_NoMemory();
    PyObject *raw = pyext_bytes_of(owner, (Py_ssize_t)(words * 8));
    if (raw == NULL)
        return NULL;
    unsigned char *p = (unsigned char *)PyBytes_AS_STRING(raw);
    unsigned char *last = p + 8 * (words - 1);
    store_le64(last, load_le64(last) >> (64 * words - (size_t)k));
    PyObject *v = long_from_bytes(p, words * 8, 1);
    shakerand_memzero(p, words * 8);
    Py_DECREF(raw);
    return v;
}

PyObject *pyext_double_result(EngineObject *owner)
{
    uint64_t v;
    if (owner == NULL) {
        if (pyext_draw(NULL, draw_u64, &v) < 0)
            return NULL;
    } else {
        /* pyext_draw's steps, with the engine's word taken in line. */
        const int locked = pyext_engine_enter(owner);
        if (locked < 0)
            return NULL;
        if (!shakerand_engine_take_word(owner->engine, 8, &v))
            v = shakerand_engine_u64(owner->engine);
        pyext_engine_leave(owner, locked);
    }
    return PyFloat_FromDouble(pyext_double_of(v));
}

/* Uniform in [0, r) for a Python int r >= 1, of any size: Lemire's method
 * below 2^64 (shakerand_uniform_u64), RNG-BC-1 above. */
static PyObject *below_method(EngineObject *owner, PyObject *r, shakerand_method method,
                              uint64_t *bits_drawn);

PyObject *pyext_randbelow_of(EngineObject *owner, PyObject *n, int zero_ok)
{
    if (!PyLong_Check(n)) {
        PyErr_Format(PyExc_TypeError, "the bound must be an int, not %.100s", Py_TYPE(n)->tp_name);
        return NULL;
    }
    int overflow = 0;
    const long long small = PyLong_AsLongLongAndOverflow(n, &overflow);
    if (small == -1 && PyErr_Occurred())
        return NULL;
    if (overflow < 0 || (overflow == 0 && small <= 0)) {
        if (zero_ok && overflow == 0 && small == 0)
            return PyLong_FromLong(0);
        PyErr_SetString(PyExc_ValueError, "Upper bound must be positive.");
        return NULL;
    }
    struct uniform_ctx ctx = {(uint64_t)small, 0};
    if (overflow > 0) {
        ctx.bound = PyLong_AsUnsignedLongLong(n);
        if (ctx.bound == (uint64_t)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            return below_method(owner, n, SHAKERAND_RNG_BC_1, NULL);
        }
        /* 2^63 <= n < 2^64 */
    }
    if (pyext_draw(owner, draw_uniform, &ctx) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(ctx.value);
}

static PyObject *below_method(EngineObject *owner, PyObject *r, shakerand_method method,
                              uint64_t *bits_drawn)
{
    if (!PyLong_Check(r)) {
        PyErr_Format(PyExc_TypeError, "the bound must be an int, not %.100s", Py_TYPE(r)->tp_name);
        return NULL;
    }
    /* An exact int: a subclass's comparisons and bit_length() are not trusted. */
    PyObject *exact = PyLong_Type.tp_as_number->nb_index(r);
    if (exact == NULL)
        return NULL;
    PyObject *result = NULL;
    unsigned char *buffer = NULL;
    size_t len = 0;
    PyObject *zero = PyLong_FromLong(0);
    const int positive = zero != NULL ? PyObject_RichCompareBool(exact, zero, Py_GT) : -1;
    Py_XDECREF(zero);
    if (positive <= 0) {
        if (positive == 0)
            PyErr_SetString(PyExc_ValueError, "Upper bound must be positive.");
        goto done;
    }
    PyObject *bit_length = PyObject_CallMethod(exact, "bit_length", NULL);
    if (bit_length == NULL)
        goto done;
    const Py_ssize_t bits = PyLong_AsSsize_t(bit_length);
    Py_DECREF(bit_length);
    if (bits < 0 || (owner == NULL && pyext_system_ready() < 0))
        goto done;
    len = ((size_t)bits + 7) / 8;
    buffer = PyMem_Malloc(2 * len);
    if (buffer == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    struct below_ctx ctx = {method, buffer, buffer + len, len, bits_drawn, SHAKERAND_OK};
    if (long_to_be_bytes(exact, buffer, len) == 0 && pyext_draw(owner, draw_below, &ctx) == 0) {
        if (ctx.status == SHAKERAND_OK)
            result = long_from_bytes(ctx.out, len, 0);
        else
            pyext_raise_status(ctx.status);
    }
done:
    if (buffer != NULL) {
        shakerand_memzero(buffer, 2 * len);
        PyMem_Free(buffer);
    }
    Py_DECREF(exact);
    return result;
}

static int method_of(PyObject *name, shakerand_method *method)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "method must be a str, not %.100s", Py_TYPE(name)->tp_name);
        return -1;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(name, &len);
    if (s == NULL)
        return -1;
    if (strlen(s) != (size_t)len || shakerand_method_from_name(s, method) != SHAKERAND_OK) {
        PyErr_Format(PyExc_ValueError,
                     "unknown method %R: rng-bc-1, rng-bc-8, simple-discard or simple-modular",
                     name);
        return -1;
    }
    return 0;
}

/* below(r, method="rng-bc-1") -> (value, bits drawn) */
PyObject *pyext_below_counted_of(EngineObject *owner, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"r", "method", NULL};
    PyObject *r, *name = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:below_counted", keywords, &r, &name))
        return NULL;
    shakerand_method method = SHAKERAND_RNG_BC_1;
    if (name != NULL && method_of(name, &method) < 0)
        return NULL;
    uint64_t bits = 0;
    PyObject *value = below_method(owner, r, method, &bits);
    if (value == NULL)
        return NULL;
    return Py_BuildValue("(NK)", value, (unsigned long long)bits);
}

/* ---- UUIDs -------------------------------------------------------------- */

/* A uuid.UUID, built as the class's own constructor would leave it (the
 * slots int and is_safe), or by the constructor when the class lacks them. */
static PyObject *uuid_object(core_state *st, const uint8_t bytes[UUID_BYTES])
{
    PyObject *value = long_from_bytes(bytes, UUID_BYTES, 0);
    if (value == NULL)
        return NULL;
    if (!st->uuid_fast) {
        PyObject *kw = Py_BuildValue("{s:N}", "int", value);
        if (kw == NULL)
            return NULL;
        PyObject *empty = PyTuple_New(0);
        PyObject *u = empty != NULL ? PyObject_Call(st->uuid_type, empty, kw) : NULL;
        Py_XDECREF(empty);
        Py_DECREF(kw);
        return u;
    }
    PyTypeObject *type = (PyTypeObject *)st->uuid_type;
    PyObject *u = type->tp_alloc(type, 0);
    if (u == NULL || PyObject_GenericSetAttr(u, st->str_int, value) < 0 ||
        PyObject_GenericSetAttr(u, st->str_is_safe, st->uuid_safe_unknown) < 0) {
        Py_XDECREF(u);
        Py_DECREF(value);
        return NULL;
    }
    Py_DECREF(value);
    return u;
}

PyObject *pyext_uuid_of(core_state *st, EngineObject *owner, int version)
{
    struct uuid_ctx ctx = {version, {0}};
    if (pyext_draw(owner, draw_uuid, &ctx) < 0)
        return NULL;
    return uuid_object(st, ctx.bytes);
}

int pyext_uuid_init(core_state *st)
{
    PyObject *module = PyImport_ImportModule("uuid");
    if (module == NULL)
        return -1;
    st->uuid_type = PyObject_GetAttrString(module, "UUID");
    PyObject *safe = PyObject_GetAttrString(module, "SafeUUID");
    Py_DECREF(module);
    if (st->uuid_type == NULL || safe == NULL) {
        Py_XDECREF(safe);
        return -1;
    }
    st->uuid_safe_unknown = PyObject_GetAttrString(safe, "unknown");
    Py_DECREF(safe);
    st->str_int = PyUnicode_InternFromString("int");
    st->str_is_safe = PyUnicode_InternFromString("is_safe");
    if (st->uuid_safe_unknown == NULL || st->str_int == NULL || st->str_is_safe == NULL)
        return -1;
    PyObject *slots = PyObject_GetAttrString(st->uuid_type, "__slots__");
    if (slots == NULL) {
        PyErr_Clear();
        return 0;
    }
    const int has_int = PySequence_Contains(slots, st->str_int);
    const int has_safe = PySequence_Contains(slots, st->str_is_safe);
    Py_DECREF(slots);
    if (has_int < 0 || has_safe < 0)
        PyErr_Clear();
    st->uuid_fast = PyType_Check(st->uuid_type) && has_int == 1 && has_safe == 1;
    return 0;
}
