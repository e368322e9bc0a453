/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * shakerand._core: the C core for Python. The package's Python modules
 * (shakerand/__init__.py, shakerand/numpy.py) put the public API together
 * from what is here; python/README.md and docs/python.md say what each
 * function promises.
 *
 * Three things are defined here:
 *  - module functions on the calling thread's system generator (random,
 *    getrandbits, randbytes, randbelow, below, uuid4, uuid7, ...);
 *  - Engine: one seeded engine, with the same methods;
 *  - SystemBits: the numpy bit generator state for the system generator,
 *    a buffer of its output that a fork in this process empties.
 *
 * Every function checks its arguments before it draws, so an error changes
 * nothing. Fills of at least RELEASE_GIL_BYTES run without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "shakerand.h"

enum {
    RELEASE_GIL_BYTES = 1 << 16,
    SYSTEM_BITS_BYTES = 15872, /* output a SystemBits holds at most: 16 chacha8rand iterations */
    UUID_BYTES = 16,
};

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

static double double_of(uint64_t v) { return (double)(v >> 11) * 0x1.0p-53; }

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

/* ---- The calling thread's system generator ----------------------------- */

/* Whether this thread's generator was set up by us; a thread's first seed
 * is made here, where a failure can be raised, rather than in a draw,
 * where it would be fatal. */
static _Thread_local int thread_ready __attribute__((tls_model("initial-exec")));

static int raise_status(int status)
{
    if (status == SHAKERAND_ENOMEM)
        PyErr_NoMemory();
    else
        PyErr_Format(PyExc_OSError, "shakerand: %s", shakerand_strerror(status));
    return -1;
}

static int system_ready(void)
{
    if (__builtin_expect(thread_ready, 1))
        return 0;
    const int status = shakerand_system_init();
    if (status != SHAKERAND_OK)
        return raise_status(status);
    thread_ready = 1;
    return 0;
}

/* ---- Engine: one seeded engine ---------------------------------------- */

/* numpy's bitgen_t (numpy/random/bitgen.h), a stable ABI: numpy copies it
 * out of the capsule named "BitGenerator" and calls it without the GIL,
 * under the bit generator's lock. */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} numpy_bitgen;

typedef struct {
    PyObject_HEAD
    shakerand_engine *engine; /* 64-byte aligned, wiped and freed with the object */
    shakerand_kind kind;
    /* A fill that runs without the GIL holds the lock and sets busy (both
     * under the GIL); other calls on the engine wait for the lock while
     * busy is set. */
    PyThread_type_lock lock;
    int busy;
    unsigned long generation; /* the fork_generation of the last use */
    numpy_bitgen bitgen;
    PyObject *capsule;
} EngineObject;

static PyTypeObject Engine_Type;

/* Forks this process has come through, counted in the child's fork handler:
 * an engine last used in an earlier generation may hold a parent thread's
 * lock or a half-done fill (engine_revive). */
static unsigned long fork_generation;

static uint64_t engine_next_u64(void *st) { return shakerand_engine_u64(st); }
static uint32_t engine_next_u32(void *st) { return shakerand_engine_u32(st); }
static double engine_next_double(void *st) { return shakerand_double(st); }

static EngineObject *engine_alloc(PyTypeObject *type, shakerand_kind kind)
{
    EngineObject *self = (EngineObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    void *memory = NULL;
    if (posix_memalign(&memory, 64, sizeof(shakerand_engine)) != 0) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    self->engine = memory;
    memset(self->engine, 0, sizeof(shakerand_engine));
    self->kind = kind;
    self->generation = fork_generation;
    self->lock = PyThread_allocate_lock();
    if (self->lock == NULL) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    self->bitgen.state = self->engine;
    self->bitgen.next_uint64 = engine_next_u64;
    self->bitgen.next_uint32 = engine_next_u32;
    self->bitgen.next_double = engine_next_double;
    self->bitgen.next_raw = engine_next_u64;
    return self;
}

static void Engine_dealloc(EngineObject *self)
{
    if (self->engine != NULL) {
        shakerand_engine_wipe(self->engine);
        free(self->engine);
    }
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    Py_XDECREF(self->capsule);
    Py_TYPE(self)->tp_free((PyObject *)self);
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
        PyErr_Format(PyExc_ValueError,
                     "unknown engine kind %R: turboshake256, shake256, turboshake256x8 or "
                     "chacha8rand",
                     name);
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
    if (kind == SHAKERAND_CHACHA8RAND && seed.len != 32) {
        PyErr_Format(PyExc_ValueError, "a chacha8rand seed is exactly 32 bytes, not %zd",
                     seed.len);
        goto done;
    }
    self = engine_alloc(type, kind);
    if (self == NULL)
        goto done;
    const int status = shakerand_engine_init(self->engine, kind, seed.buf, (size_t)seed.len);
    if (status != SHAKERAND_OK) {
        Py_CLEAR(self);
        raise_status(status);
    }
done:
    PyBuffer_Release(&seed);
    return (PyObject *)self;
}

/* The first use of an engine in a child forked since its last use. A fill
 * running without the GIL in another thread at the fork left the state
 * half-written in the child (busy stays set; every call fails). A thread
 * that no longer exists may hold the lock: it is replaced (and leaked, as
 * freeing a held lock is not allowed everywhere). */
static int engine_revive(EngineObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this shakerand engine was filling in another thread when the process "
                        "forked, so its state here is undefined: seed a new one");
        return -1;
    }
    if (PyThread_acquire_lock(self->lock, NOWAIT_LOCK)) {
        PyThread_release_lock(self->lock);
    } else {
        PyThread_type_lock fresh = PyThread_allocate_lock();
        if (fresh == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        self->lock = fresh;
    }
    self->generation = fork_generation;
    return 0;
}

/* Waits (without the GIL) for a fill that runs without it; returns 1 if the
 * caller now holds the lock and must release it, 0 if not, -1 with an
 * exception if a fork left the engine unusable. */
static int engine_enter(EngineObject *self)
{
    if (__builtin_expect(!self->busy && self->generation == fork_generation, 1))
        return 0;
    if (self->generation != fork_generation && engine_revive(self) < 0)
        return -1;
    if (!self->busy)
        return 0;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    Py_END_ALLOW_THREADS
    return 1;
}

static void engine_leave(EngineObject *self, int locked)
{
    if (locked > 0)
        PyThread_release_lock(self->lock);
}

/* ---- Shared draws: engine == NULL is the system generator --------------- */

static int source_ready(shakerand_engine *engine) { return engine != NULL ? 0 : system_ready(); }

static void fill_from(shakerand_engine *engine, void *out, size_t len)
{
    if (engine != NULL)
        shakerand_engine_fill(engine, out, len);
    else
        shakerand_system_fill(out, len);
}

static uint64_t u64_from(shakerand_engine *engine)
{
    return engine != NULL ? shakerand_engine_u64(engine) : shakerand_system_u64();
}

static Py_ssize_t count_arg(PyObject *arg, const char *what)
{
    Py_ssize_t n = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be non-negative", what);
        return -1;
    }
    return n;
}

/* n bytes of the stream, the GIL released for large n (the engine then
 * held busy under its lock). */
static PyObject *bytes_of(EngineObject *owner, Py_ssize_t n)
{
    shakerand_engine *engine = owner != NULL ? owner->engine : NULL;
    if (source_ready(engine) < 0)
        return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL)
        return NULL;
    char *p = PyBytes_AS_STRING(out);
    if (n < RELEASE_GIL_BYTES) {
        const int locked = owner != NULL ? engine_enter(owner) : 0;
        if (locked < 0) {
            Py_DECREF(out);
            return NULL;
        }
        fill_from(engine, p, (size_t)n);
        if (owner != NULL)
            engine_leave(owner, locked);
        return out;
    }
    if (owner == NULL) {
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = shakerand_system_try_fill(p, (size_t)n);
        Py_END_ALLOW_THREADS
        if (status != SHAKERAND_OK) {
            Py_DECREF(out);
            raise_status(status);
            return NULL;
        }
        return out;
    }
    if (owner->generation != fork_generation && engine_revive(owner) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    if (!PyThread_acquire_lock(owner->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(owner->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
    owner->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    shakerand_engine_fill(engine, p, (size_t)n);
    Py_END_ALLOW_THREADS
    owner->busy = 0;
    PyThread_release_lock(owner->lock);
    return out;
}

/* getrandbits(k): k <= 64 is the top k bits of one word; more is
 * ceil(k / 64) words, the first the least significant, the last keeping
 * its top bits (docs/python.md). */
static PyObject *getrandbits_of(EngineObject *owner, PyObject *arg)
{
    shakerand_engine *engine = owner != NULL ? owner->engine : NULL;
    const Py_ssize_t k = count_arg(arg, "number of bits");
    if (k < 0 || source_ready(engine) < 0)
        return NULL;
    if (k == 0)
        return PyLong_FromLong(0);
    if (k <= 64) {
        const int locked = owner != NULL ? engine_enter(owner) : 0;
        if (locked < 0)
            return NULL;
        const uint64_t v = u64_from(engine);
        if (owner != NULL)
            engine_leave(owner, locked);
        return PyLong_FromUnsignedLongLong(v >> (64 - k));
    }
    if (k > PY_SSIZE_T_MAX - 63)
        return PyErr_NoMemory();
    const size_t words = ((size_t)k + 63) / 64;
    if (words > (size_t)PY_SSIZE_T_MAX / 8)
        return PyErr_NoMemory();
    PyObject *raw = bytes_of(owner, (Py_ssize_t)(words * 8));
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

static PyObject *double_result(EngineObject *owner)
{
    shakerand_engine *engine = owner != NULL ? owner->engine : NULL;
    if (source_ready(engine) < 0)
        return NULL;
    const int locked = owner != NULL ? engine_enter(owner) : 0;
    if (locked < 0)
        return NULL;
    const uint64_t v = u64_from(engine);
    if (owner != NULL)
        engine_leave(owner, locked);
    return PyFloat_FromDouble(double_of(v));
}

/* Uniform in [0, r) for a Python int r >= 1, of any size: Lemire's method
 * below 2^64 (shakerand_uniform_u64), RNG-BC-1 above. */
static PyObject *below_method(EngineObject *owner, PyObject *r, shakerand_method method,
                              uint64_t *bits_drawn);

static PyObject *randbelow_of(EngineObject *owner, PyObject *n, int zero_ok)
{
    shakerand_engine *engine = owner != NULL ? owner->engine : NULL;
    if (!PyLong_Check(n)) {
        PyErr_Format(PyExc_TypeError, "the bound must be an int, not %.100s",
                     Py_TYPE(n)->tp_name);
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
    if (overflow > 0) {
        const uint64_t big = PyLong_AsUnsignedLongLong(n);
        if (big == (uint64_t)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            return below_method(owner, n, SHAKERAND_RNG_BC_1, NULL);
        }
        /* 2^63 <= n < 2^64 */
        if (source_ready(engine) < 0)
            return NULL;
        const int locked = owner != NULL ? engine_enter(owner) : 0;
        if (locked < 0)
            return NULL;
        uint64_t v = 0;
        (void)shakerand_uniform_u64(engine, big, &v);
        if (owner != NULL)
            engine_leave(owner, locked);
        return PyLong_FromUnsignedLongLong(v);
    }
    if (source_ready(engine) < 0)
        return NULL;
    const int locked = owner != NULL ? engine_enter(owner) : 0;
    if (locked < 0)
        return NULL;
    uint64_t v = 0;
    (void)shakerand_uniform_u64(engine, (uint64_t)small, &v);
    if (owner != NULL)
        engine_leave(owner, locked);
    return PyLong_FromUnsignedLongLong(v);
}

static PyObject *below_method(EngineObject *owner, PyObject *r, shakerand_method method,
                              uint64_t *bits_drawn)
{
    shakerand_engine *engine = owner != NULL ? owner->engine : NULL;
    if (!PyLong_Check(r)) {
        PyErr_Format(PyExc_TypeError, "the bound must be an int, not %.100s",
                     Py_TYPE(r)->tp_name);
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
    if (bits < 0 || source_ready(engine) < 0)
        goto done;
    len = ((size_t)bits + 7) / 8;
    buffer = PyMem_Malloc(2 * len);
    if (buffer == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    unsigned char *bound = buffer, *out = buffer + len;
    if (long_to_be_bytes(exact, bound, len) == 0) {
        const int locked = owner != NULL ? engine_enter(owner) : 0;
        if (locked >= 0) {
            const int status = shakerand_below(engine, method, bound, len, out, bits_drawn);
            if (owner != NULL)
                engine_leave(owner, locked);
            if (status == SHAKERAND_OK)
                result = long_from_bytes(out, len, 0);
            else
                raise_status(status);
        }
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
static PyObject *below_counted_of(EngineObject *owner, PyObject *args, PyObject *kwds)
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

static PyObject *uuid_type, *uuid_safe_unknown, *str_int, *str_is_safe;

/* A uuid.UUID, built as the class's own constructor would leave it (the
 * slots int and is_safe) without its argument parsing, which costs most
 * of uuid.uuid4()'s time. Checked at import that the class has those
 * slots; else the constructor is called. */
static int uuid_fast;

static PyObject *uuid_object(const uint8_t bytes[UUID_BYTES])
{
    PyObject *value = long_from_bytes(bytes, UUID_BYTES, 0);
    if (value == NULL)
        return NULL;
    if (!uuid_fast) {
        PyObject *kw = Py_BuildValue("{s:N}", "int", value);
        if (kw == NULL)
            return NULL;
        PyObject *empty = PyTuple_New(0);
        PyObject *u = empty != NULL ? PyObject_Call(uuid_type, empty, kw) : NULL;
        Py_XDECREF(empty);
        Py_DECREF(kw);
        return u;
    }
    PyTypeObject *type = (PyTypeObject *)uuid_type;
    PyObject *u = type->tp_alloc(type, 0);
    if (u == NULL || PyObject_GenericSetAttr(u, str_int, value) < 0 ||
        PyObject_GenericSetAttr(u, str_is_safe, uuid_safe_unknown) < 0) {
        Py_XDECREF(u);
        Py_DECREF(value);
        return NULL;
    }
    Py_DECREF(value);
    return u;
}

static PyObject *uuid_of(EngineObject *owner, int version)
{
    shakerand_engine *engine = owner != NULL ? owner->engine : NULL;
    if (source_ready(engine) < 0)
        return NULL;
    uint8_t b[UUID_BYTES];
    const int locked = owner != NULL ? engine_enter(owner) : 0;
    if (locked < 0)
        return NULL;
    if (version == 4)
        shakerand_uuid4(engine, b);
    else
        shakerand_uuid7(engine, b);
    if (owner != NULL)
        engine_leave(owner, locked);
    return uuid_object(b);
}

static int init_uuid(void)
{
    PyObject *module = PyImport_ImportModule("uuid");
    if (module == NULL)
        return -1;
    uuid_type = PyObject_GetAttrString(module, "UUID");
    PyObject *safe = PyObject_GetAttrString(module, "SafeUUID");
    Py_DECREF(module);
    if (uuid_type == NULL || safe == NULL) {
        Py_XDECREF(safe);
        return -1;
    }
    uuid_safe_unknown = PyObject_GetAttrString(safe, "unknown");
    Py_DECREF(safe);
    str_int = PyUnicode_InternFromString("int");
    str_is_safe = PyUnicode_InternFromString("is_safe");
    if (uuid_safe_unknown == NULL || str_int == NULL || str_is_safe == NULL)
        return -1;
    PyObject *slots = PyObject_GetAttrString(uuid_type, "__slots__");
    if (slots == NULL) {
        PyErr_Clear();
        return 0;
    }
    const int has_int = PySequence_Contains(slots, str_int);
    const int has_safe = PySequence_Contains(slots, str_is_safe);
    Py_DECREF(slots);
    if (has_int < 0 || has_safe < 0)
        PyErr_Clear();
    uuid_fast = PyType_Check(uuid_type) && has_int == 1 && has_safe == 1;
    return 0;
}

/* ---- Engine methods ----------------------------------------------------- */

static PyObject *Engine_random(EngineObject *self, PyObject *unused)
{
    (void)unused;
    return double_result(self);
}

static PyObject *Engine_getrandbits(EngineObject *self, PyObject *k) { return getrandbits_of(self, k); }

static PyObject *Engine_randbytes(EngineObject *self, PyObject *arg)
{
    const Py_ssize_t n = count_arg(arg, "number of bytes");
    return n < 0 ? NULL : bytes_of(self, n);
}

static PyObject *Engine_randbelow(EngineObject *self, PyObject *n) { return randbelow_of(self, n, 1); }

static PyObject *Engine_below_counted(EngineObject *self, PyObject *args, PyObject *kwds)
{
    return below_counted_of(self, args, kwds);
}

static PyObject *Engine_u64(EngineObject *self, PyObject *unused)
{
    (void)unused;
    const int locked = engine_enter(self);
    if (locked < 0)
        return NULL;
    const uint64_t v = shakerand_engine_u64(self->engine);
    engine_leave(self, locked);
    return PyLong_FromUnsignedLongLong(v);
}

static PyObject *Engine_u32(EngineObject *self, PyObject *unused)
{
    (void)unused;
    const int locked = engine_enter(self);
    if (locked < 0)
        return NULL;
    const uint32_t v = shakerand_engine_u32(self->engine);
    engine_leave(self, locked);
    return PyLong_FromUnsignedLong(v);
}

static PyObject *Engine_uuid4(EngineObject *self, PyObject *unused)
{
    (void)unused;
    return uuid_of(self, 4);
}

static PyObject *Engine_uuid7(EngineObject *self, PyObject *unused)
{
    (void)unused;
    return uuid_of(self, 7);
}

/* A copy with the same state: it continues the stream exactly as this one
 * would (the state has no pointers). */
static PyObject *Engine_copy(EngineObject *self, PyObject *unused)
{
    (void)unused;
    EngineObject *copy = engine_alloc(Py_TYPE(self), self->kind);
    if (copy == NULL)
        return NULL;
    const int locked = engine_enter(self);
    if (locked < 0) {
        Py_DECREF(copy);
        return NULL;
    }
    memcpy(copy->engine, self->engine, sizeof(shakerand_engine));
    engine_leave(self, locked);
    return (PyObject *)copy;
}

/* load(other): this engine takes other's state (same kind), in place: a
 * numpy Generator holds a pointer to this engine's memory. */
static PyObject *Engine_load(EngineObject *self, PyObject *other)
{
    if (!PyObject_TypeCheck(other, &Engine_Type)) {
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
        const int locked = engine_enter(self);
        if (locked < 0)
            return NULL;
        const int source_locked = engine_enter(source);
        if (source_locked < 0) {
            engine_leave(self, locked);
            return NULL;
        }
        memcpy(self->engine, source->engine, sizeof(shakerand_engine));
        engine_leave(source, source_locked);
        engine_leave(self, locked);
    }
    Py_RETURN_NONE;
}

static PyObject *Engine_deepcopy(EngineObject *self, PyObject *memo)
{
    (void)memo;
    return Engine_copy(self, NULL);
}

static PyObject *Engine_reduce(EngineObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyErr_SetString(PyExc_TypeError,
                    "a shakerand engine is not pickled: its state is the generator's key; "
                    "keep the seed, or copy the generator within the process");
    return NULL;
}

/* The capsule named "BitGenerator" over bitgen, made once and kept in
 * *slot (the object owning bitgen keeps it, and numpy keeps the object). */
static PyObject *bitgen_capsule(PyObject **slot, numpy_bitgen *bitgen)
{
    if (*slot == NULL) {
        *slot = PyCapsule_New(bitgen, "BitGenerator", NULL);
        if (*slot == NULL)
            return NULL;
    }
    Py_INCREF(*slot);
    return *slot;
}

static PyObject *Engine_capsule(EngineObject *self, PyObject *unused)
{
    (void)unused;
    return bitgen_capsule(&self->capsule, &self->bitgen);
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
    {"__reduce__", (PyCFunction)Engine_reduce, METH_NOARGS, NULL},
    {"capsule", (PyCFunction)Engine_capsule, METH_NOARGS,
     "capsule() -> the numpy bitgen_t capsule over this engine."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"kind", (getter)Engine_kind, NULL, "the engine kind's name", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Engine_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "shakerand._core.Engine",
    .tp_basicsize = sizeof(EngineObject),
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(kind, seed): one seeded shakerand engine (use shakerand.Random).",
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
    .tp_new = Engine_new,
};

/* ---- SystemBits: numpy's view of the system generator ------------------- */

/*
 * numpy asks for one value per call, so the values come from a buffer
 * filled from the system generator in SYSTEM_BITS_BYTES pieces (whole
 * chacha8rand iterations; 16 of them measured 4 % faster than 8 in numpy's
 * random(), the per-call costs of a fill spread thinner); each value is
 * zeroed in the buffer as it is handed out. A fork empties every buffer in the child, so the child draws
 * from its own reseeded generator: the fork handler sets end to 0 in every
 * live buffer (they are on a list), and each buffer lives in its own
 * mapping marked MADV_WIPEONFORK, which the kernel zeroes in a child even
 * after a raw clone that skips fork handlers. Checking a fork generation
 * on every value instead cost 0.3 ns a value, 15 % of numpy's random().
 * numpy holds the bit generator's lock around every call.
 */
struct system_bits {
    uint32_t pos, end;
    unsigned char buffer[SYSTEM_BITS_BYTES];
};

typedef struct SystemBitsObject {
    PyObject_HEAD
    struct system_bits *bits;
    size_t mapped; /* bytes mapped, 0 if calloc'd */
    numpy_bitgen bitgen;
    PyObject *capsule;
    struct SystemBitsObject *prev, *next; /* the list of live buffers */
} SystemBitsObject;

static pthread_mutex_t live_bits_lock = PTHREAD_MUTEX_INITIALIZER;
static SystemBitsObject *live_bits;

static void before_fork(void) { pthread_mutex_lock(&live_bits_lock); }

static void after_fork_parent(void) { pthread_mutex_unlock(&live_bits_lock); }

static void after_fork_child(void)
{
    fork_generation++;
    for (SystemBitsObject *o = live_bits; o != NULL; o = o->next) {
        o->bits->end = 0;
        o->bits->pos = 0;
    }
    pthread_mutex_unlock(&live_bits_lock);
}

__attribute__((noinline)) static void system_bits_refill(struct system_bits *b)
{
    b->end = 0;
    shakerand_system_fill(b->buffer, sizeof b->buffer);
    b->pos = 0;
    b->end = sizeof b->buffer;
}

static inline unsigned char *system_bits_take(struct system_bits *b, uint32_t n)
{
    if (__builtin_expect(b->end - b->pos < n, 0))
        system_bits_refill(b);
    unsigned char *p = b->buffer + b->pos;
    b->pos += n;
    return p;
}

static uint64_t system_bits_u64(void *st)
{
    struct system_bits *b = st;
    unsigned char *p = system_bits_take(b, 8);
    uint64_t v;
    memcpy(&v, p, 8);
    memset(p, 0, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static uint32_t system_bits_u32(void *st)
{
    struct system_bits *b = st;
    unsigned char *p = system_bits_take(b, 4);
    uint32_t v;
    memcpy(&v, p, 4);
    memset(p, 0, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

static double system_bits_double(void *st) { return double_of(system_bits_u64(st)); }

static PyObject *SystemBits_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) != 0 || (kwds != NULL && PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_SetString(PyExc_TypeError, "SystemBits() takes no arguments");
        return NULL;
    }
    if (system_ready() < 0)
        return NULL;
    SystemBitsObject *self = (SystemBitsObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    struct system_bits *b = NULL;
#if defined(MAP_ANONYMOUS)
    const size_t size = (sizeof *b + 4095) & ~(size_t)4095;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
        b = p;
        self->mapped = size;
# if defined(MADV_WIPEONFORK)
        (void)madvise(p, size, MADV_WIPEONFORK);
# endif
# if defined(MADV_DONTDUMP)
        (void)madvise(p, size, MADV_DONTDUMP);
# endif
    }
#endif
    if (b == NULL) {
        b = calloc(1, sizeof *b);
        if (b == NULL) {
            Py_DECREF(self);
            return PyErr_NoMemory();
        }
    }
    self->bits = b; /* pos == end == 0: the first draw fills it */
    self->bitgen.state = b;
    self->bitgen.next_uint64 = system_bits_u64;
    self->bitgen.next_uint32 = system_bits_u32;
    self->bitgen.next_double = system_bits_double;
    self->bitgen.next_raw = system_bits_u64;
    pthread_mutex_lock(&live_bits_lock);
    self->next = live_bits;
    if (live_bits != NULL)
        live_bits->prev = self;
    live_bits = self;
    pthread_mutex_unlock(&live_bits_lock);
    return (PyObject *)self;
}

static void SystemBits_dealloc(SystemBitsObject *self)
{
    if (self->bits != NULL) {
        pthread_mutex_lock(&live_bits_lock);
        if (self->prev != NULL)
            self->prev->next = self->next;
        else
            live_bits = self->next;
        if (self->next != NULL)
            self->next->prev = self->prev;
        pthread_mutex_unlock(&live_bits_lock);
        shakerand_memzero(self->bits, sizeof *self->bits);
        if (self->mapped)
            munmap(self->bits, self->mapped);
        else
            free(self->bits);
    }
    Py_XDECREF(self->capsule);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *SystemBits_capsule(SystemBitsObject *self, PyObject *unused)
{
    (void)unused;
    return bitgen_capsule(&self->capsule, &self->bitgen);
}

/* How many bytes the buffer holds now (for the fork test). */
static PyObject *SystemBits_buffered(SystemBitsObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLong(self->bits->end - self->bits->pos);
}

static PyMethodDef SystemBits_methods[] = {
    {"capsule", (PyCFunction)SystemBits_capsule, METH_NOARGS,
     "capsule() -> the numpy bitgen_t capsule."},
    {"buffered", (PyCFunction)SystemBits_buffered, METH_NOARGS,
     "buffered() -> bytes of output held for numpy now (0 after a fork)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SystemBits_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "shakerand._core.SystemBits",
    .tp_basicsize = sizeof(SystemBitsObject),
    .tp_dealloc = (destructor)SystemBits_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "SystemBits(): the system generator as a numpy bitgen_t "
              "(use shakerand.numpy.SystemBitGenerator).",
    .tp_methods = SystemBits_methods,
    .tp_new = SystemBits_new,
};

/* ---- Module functions: the system generator --------------------------- */

/* The one argument of a METH_FASTCALL | METH_KEYWORDS function, given by
 * position or by name (as the Python functions it stands in for allow);
 * *out is NULL if it is optional and absent. */
static int one_arg(const char *function, const char *name, int required,
                   PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **out)
{
    const Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw > 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most 1 argument (%zd given)", function,
                     nargs + nkw);
        return -1;
    }
    if (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), name) != 0) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R", function,
                     PyTuple_GET_ITEM(kwnames, 0));
        return -1;
    }
    *out = nargs + nkw == 1 ? args[0] : NULL;
    if (required && *out == NULL) {
        PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos 1)", function,
                     name);
        return -1;
    }
    return 0;
}

static PyObject *mod_random(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return double_result(NULL);
}

/* These take any first argument (the module, or a SystemRandom instance
 * when they are its methods). */
static PyObject *mod_getrandbits(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames)
{
    (void)self;
    PyObject *k;
    if (one_arg("getrandbits", "k", 1, args, nargs, kwnames, &k) < 0)
        return NULL;
    return getrandbits_of(NULL, k);
}

static PyObject *mod_randbytes(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    (void)self;
    PyObject *arg;
    if (one_arg("randbytes", "n", 1, args, nargs, kwnames, &arg) < 0)
        return NULL;
    const Py_ssize_t n = count_arg(arg, "number of bytes");
    return n < 0 ? NULL : bytes_of(NULL, n);
}

/* secrets.token_bytes: None means 32 bytes. */
static PyObject *mod_token_bytes(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames)
{
    (void)module;
    PyObject *arg;
    if (one_arg("token_bytes", "nbytes", 0, args, nargs, kwnames, &arg) < 0)
        return NULL;
    if (arg == NULL || arg == Py_None)
        return bytes_of(NULL, 32);
    const Py_ssize_t n = count_arg(arg, "nbytes");
    return n < 0 ? NULL : bytes_of(NULL, n);
}

static PyObject *mod_randbelow(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    (void)module;
    PyObject *n;
    if (one_arg("randbelow", "exclusive_upper_bound", 1, args, nargs, kwnames, &n) < 0)
        return NULL;
    return randbelow_of(NULL, n, 0);
}

static PyObject *sysrandom_randbelow(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames)
{
    (void)self;
    PyObject *n;
    if (one_arg("_randbelow", "n", 1, args, nargs, kwnames, &n) < 0)
        return NULL;
    return randbelow_of(NULL, n, 1);
}

static PyObject *mod_randbelow_internal(PyObject *module, PyObject *n)
{
    (void)module;
    return randbelow_of(NULL, n, 1);
}

static PyObject *mod_below_counted(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    return below_counted_of(NULL, args, kwds);
}

static PyObject *mod_uuid4(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return uuid_of(NULL, 4);
}

static PyObject *mod_uuid7(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return uuid_of(NULL, 7);
}

static PyObject *mod_kernel(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyUnicode_FromString(shakerand_kernel_name());
}

static PyObject *mod_system_kind(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyUnicode_FromString(shakerand_kind_name(shakerand_system_kind()));
}

static PyObject *optional_str(const char *s)
{
    if (s == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

static PyObject *mod_sources(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    shakerand_source_info info[16];
    size_t n;
    Py_BEGIN_ALLOW_THREADS
    n = shakerand_sources(info, 16);
    Py_END_ALLOW_THREADS
    if (n > 16)
        n = 16;
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (list == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        PyObject *entry = Py_BuildValue("{s:N,s:N,s:O,s:O,s:N}", "name", optional_str(info[i].name),
                                        "method", optional_str(info[i].method), "present",
                                        info[i].present ? Py_True : Py_False, "used",
                                        info[i].used ? Py_True : Py_False, "reason",
                                        optional_str(info[i].reason));
        if (entry == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, entry);
    }
    return list;
}

/* reseed(data=None): the calling thread's generator reseeded from the
 * sources, data mixed in (it adds, never replaces). */
static PyObject *mod_reseed(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames)
{
    (void)module;
    PyObject *arg, *copy = NULL;
    if (one_arg("reseed", "data", 0, args, nargs, kwnames, &arg) < 0)
        return NULL;
    if (arg != NULL && arg != Py_None) {
        if (!PyObject_CheckBuffer(arg)) {
            PyErr_Format(PyExc_TypeError, "reseed() takes a bytes-like object or None, not %.100s",
                         Py_TYPE(arg)->tp_name);
            return NULL;
        }
        /* A copy, so any buffer serves (a strided array too) and none can change meanwhile;
         * a buffer that cannot be read (a released view) raises its own error. */
        copy = PyBytes_FromObject(arg);
        if (copy == NULL)
            return NULL;
    }
    const char *data = copy != NULL ? PyBytes_AS_STRING(copy) : NULL;
    size_t len = copy != NULL ? (size_t)PyBytes_GET_SIZE(copy) : 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = shakerand_system_reseed_with(data, len);
    Py_END_ALLOW_THREADS
    Py_XDECREF(copy); /* not wiped: for a bytes argument it is the caller's own object */
    if (status != SHAKERAND_OK)
        return raise_status(status), NULL;
    thread_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *mod_reseed_failures(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyLong_FromUnsignedLongLong(shakerand_system_reseed_failures());
}

#define FASTCALL_KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* SystemRandom's methods: method descriptors of the class, so that
 * SystemRandom.random(r) and super().random() work as in random.Random. */
static PyMethodDef system_random_methods[] = {
    {"random", mod_random, METH_NOARGS,
     "random($self, /)\n--\n\nA float in [0, 1) from the system generator (53 random bits)."},
    {"getrandbits", FASTCALL_KW(mod_getrandbits),
     "getrandbits($self, /, k)\n--\n\nAn int with k random bits from the system generator."},
    {"randbytes", FASTCALL_KW(mod_randbytes),
     "randbytes($self, /, n)\n--\n\nn bytes from the system generator."},
    {"_randbelow", FASTCALL_KW(sysrandom_randbelow),
     "_randbelow($self, /, n)\n--\n\nAn int in [0, n) (0 for n == 0): random.Random's hook."},
    {NULL, NULL, 0, NULL},
};

static PyObject *install_system_methods(PyObject *module, PyObject *cls)
{
    (void)module;
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "install_system_methods() takes a class");
        return NULL;
    }
    for (PyMethodDef *def = system_random_methods; def->ml_name != NULL; def++) {
        PyObject *method = PyDescr_NewMethod((PyTypeObject *)cls, def);
        if (method == NULL)
            return NULL;
        const int status = PyObject_SetAttrString(cls, def->ml_name, method);
        Py_DECREF(method);
        if (status < 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"random", mod_random, METH_NOARGS,
     "random($module, /)\n--\n\n"
     "A float in [0, 1) from the system generator (53 random bits)."},
    {"getrandbits", FASTCALL_KW(mod_getrandbits),
     "getrandbits($module, /, k)\n--\n\n"
     "An int with k random bits from the system generator."},
    {"randbytes", FASTCALL_KW(mod_randbytes),
     "randbytes($module, /, n)\n--\n\nn bytes from the system generator."},
    {"token_bytes", FASTCALL_KW(mod_token_bytes),
     "token_bytes($module, /, nbytes=None)\n--\n\n"
     "nbytes random bytes (32 if None), as secrets.token_bytes."},
    {"randbelow", FASTCALL_KW(mod_randbelow),
     "randbelow($module, /, exclusive_upper_bound)\n--\n\n"
     "An int in [0, exclusive_upper_bound), as secrets.randbelow."},
    {"_randbelow", mod_randbelow_internal, METH_O,
     "_randbelow(n) -> int in [0, n) (0 for n == 0): random.Random's hook."},
    {"below_counted", (PyCFunction)(void (*)(void))mod_below_counted,
     METH_VARARGS | METH_KEYWORDS,
     "below_counted(r, method='rng-bc-1') -> (int in [0, r), bits drawn)."},
    {"uuid4", mod_uuid4, METH_NOARGS, "uuid4() -> a random uuid.UUID (version 4)."},
    {"uuid7", mod_uuid7, METH_NOARGS,
     "uuid7() -> a time-ordered uuid.UUID (version 7), monotonic in this process."},
    {"kernel", mod_kernel, METH_NOARGS, "kernel() -> the name of the kernel set in use."},
    {"system_kind", mod_system_kind, METH_NOARGS,
     "system_kind() -> the engine kind the system generator runs."},
    {"sources", mod_sources, METH_NOARGS, "sources() -> the entropy sources, one dict each."},
    {"reseed", FASTCALL_KW(mod_reseed),
     "reseed($module, /, data=None)\n--\n\n"
     "Reseed this thread's system generator from the sources, mixing the bytes-like data in."},
    {"install_system_methods", install_system_methods, METH_O,
     "install_system_methods($module, cls, /)\n--\n\n"
     "Give cls (shakerand.SystemRandom) its methods in C."},
    {"reseed_failures", mod_reseed_failures, METH_NOARGS,
     "reseed_failures() -> how many automatic reseeds have failed in this process."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "shakerand._core",
    .m_doc = "The shakerand C core (use the shakerand package).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&Engine_Type) < 0 || PyType_Ready(&SystemBits_Type) < 0)
        return NULL;
    if (init_uuid() < 0)
        return NULL;
    if (pthread_atfork(before_fork, after_fork_parent, after_fork_child) != 0) {
        PyErr_SetString(PyExc_ImportError, "shakerand: cannot register a fork handler");
        return NULL;
    }
    if (system_ready() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&Engine_Type);
    Py_INCREF(&SystemBits_Type);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&Engine_Type) < 0 ||
        PyModule_AddObject(m, "SystemBits", (PyObject *)&SystemBits_Type) < 0 ||
        PyModule_AddStringConstant(m, "core_version", shakerand_version()) < 0 ||
        PyModule_AddIntConstant(m, "RELEASE_GIL_BYTES", RELEASE_GIL_BYTES) < 0 ||
        PyModule_AddIntConstant(m, "SYSTEM_BITS_BYTES", SYSTEM_BITS_BYTES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
