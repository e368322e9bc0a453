/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * numpy's bitgen_t (shakerand.numpy): the capsule over an Engine's, and
 * SystemBits, numpy's view of the system generator; the process's fork
 * handlers.
 *
 * numpy asks for one value per call, so SystemBits' values come from a
 * buffer filled from the system generator in SYSTEM_BITS_BYTES pieces
 * (whole chacha8rand iterations; 16 of them measured 4 % faster than 8 in
 * numpy's random(), the per-call costs of a fill spread thinner); each
 * value is zeroed in the buffer as it is handed out.
 *
 * A fork must leave the child none of the parent's buffered values. The
 * fork handler sets every live buffer's windows to empty in the child (they
 * are on a list), but a raw fork or clone system call runs no handler. So
 * the rule is the C core's (src/system.c): each buffer lives in a mapping
 * of its own, marked by the core's shakerand_system_page_mark (Linux's
 * MADV_WIPEONFORK, FreeBSD's INHERIT_ZERO), which the kernel zeroes in any
 * child; where it cannot be marked (a kernel that refuses, as Linux before
 * 4.14 does; the calloc fallback when mmap fails; macOS) the buffer is
 * pid_checked: its fast window (pos, end) stays empty, and every value is
 * taken by the out-of-line checked take, which compares the pid recorded at
 * the fill with the kernel's (shakerand_system_process_id, not a C
 * library's cached copy) after the take and drops the buffer on a
 * mismatch: a system call per value there, as the core makes one per call.
 * Where the kernel zeroes the pages the fast path compares no pid: checking
 * a fork generation on every value cost 0.3 ns a value, 15 % of numpy's
 * random(). A snapshot's restore is another matter: no
 * handler runs in the restored copies, so every value, once taken,
 * compares the system generator's epoch words (shakerand_system_epoch_words:
 * a restore hook's new_epoch, the VM generation counter where it is
 * watched) with those the buffer was filled under, and a value from a
 * buffer of an older epoch (or one a fork zeroed during the take) is thrown
 * away and the buffer filled again.
 * numpy holds the bit generator's lock around every call.
 *
 * The list and the handlers are the process's, not an interpreter's: a
 * fork copies every interpreter's buffers. The list has its own mutex, so
 * interpreters with their own GILs may add to it at once.
 */
#include "_core.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine.h"    /* load_le; and internal.h: shakerand_stack_record_bounds */
#include "system_os.h" /* the core's page marking, so the fork rule is the core's */

unsigned long pyext_fork_generation;

void pyext_bitgen_init(numpy_bitgen *bitgen, void *state, uint64_t (*u64)(void *),
                       uint32_t (*u32)(void *), double (*dbl)(void *))
{
    bitgen->state = state;
    bitgen->next_uint64 = u64;
    bitgen->next_uint32 = u32;
    bitgen->next_double = dbl;
    bitgen->next_raw = u64;
}

/* The capsule named "BitGenerator" over bitgen, made once and kept in
 * *slot (the object owning bitgen keeps it, and numpy keeps the object). */
PyObject *pyext_bitgen_capsule(PyObject **slot, numpy_bitgen *bitgen)
{
#if defined(Py_GIL_DISABLED)
    /* Two threads asking at once make one capsule, not one each. */
    static pthread_mutex_t making = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&making);
#endif
    if (*slot == NULL)
        *slot = PyCapsule_New(bitgen, "BitGenerator", NULL);
    PyObject *capsule = *slot;
    Py_XINCREF(capsule);
#if defined(Py_GIL_DISABLED)
    pthread_mutex_unlock(&making);
#endif
    return capsule;
}

struct system_bits {
    size_t pos, end;               /* a word's width: its load waits for the last store */
    uint64_t epoch, vm_generation; /* the epoch words when it was filled */
    unsigned char buffer[SYSTEM_BITS_BYTES];
    /* Set where a child could see these bytes (never in pages a fork
     * zeroed, which need no check): pos and end then stay 0, and values come
     * from at..limit, filled by the process pid. After the buffer, so the
     * fast path's offsets are as they were. */
    int pid_checked;
    long pid;
    size_t at, limit;
};

/* shakerand_system_epoch_words, asked once, before the first SystemBits
 * exists; the VM generation's word stays 0 when none is watched, so the
 * check has no branch for it. */
static const volatile uint64_t *epoch_word, *vm_generation_word;

static void epoch_words_once(void)
{
    shakerand_system_epoch_words(&epoch_word, &vm_generation_word);
}
static pthread_once_t epoch_words_ready = PTHREAD_ONCE_INIT;

typedef struct SystemBitsObject {
    PyObject_HEAD struct system_bits *bits;
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
    pyext_fork_generation++;
    for (SystemBitsObject *o = live_bits; o != NULL; o = o->next) {
        o->bits->end = o->bits->pos = 0;
        o->bits->limit = o->bits->at = 0;
    }
    pthread_mutex_unlock(&live_bits_lock);
}

static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;
static int fork_handlers_status;

static void register_fork_handlers_once(void)
{
    fork_handlers_status = pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

/* Once per process, whatever the number of module objects: each
 * registration would run the handlers again at every fork. */
int pyext_register_fork_handlers(void)
{
    pthread_once(&fork_handlers_once, register_fork_handlers_once);
    if (fork_handlers_status != 0) {
        PyErr_SetString(PyExc_ImportError, "shakerand: cannot register a fork handler");
        return -1;
    }
    return 0;
}

/* Filled again, the rest of the old buffer wiped by the fill; the epoch
 * words read before the fill, so a new epoch during it shows. */
__attribute__((noinline)) static void system_bits_refill(struct system_bits *b)
{
    b->end = 0;
    b->epoch = *epoch_word;
    b->vm_generation = *vm_generation_word;
    shakerand_system_fill(b->buffer, sizeof b->buffer);
    b->pos = 0;
    b->end = sizeof b->buffer;
}

/* Whether the buffer was filled in the system generator's epoch (one
 * branch for both words). */
static inline int system_bits_current(const struct system_bits *b)
{
    return ((b->epoch ^ *epoch_word) | (b->vm_generation ^ *vm_generation_word)) == 0;
}

/* n (4 or 8) bytes of buffer at *cursor (before limit) as a little-endian
 * word in *v, zeroed there, the cursor moved on first; 0 if fewer are
 * left. SystemBits' and EngineBits' takes. */
static inline int take_word(unsigned char *buffer, size_t *cursor, size_t limit, size_t n,
                            uint64_t *v)
{
    const size_t pos = *cursor;
    if (__builtin_expect(limit - pos < n, 0))
        return 0;
    *cursor = pos + n;
    atomic_signal_fence(memory_order_seq_cst);
    unsigned char *p = buffer + pos;
    if (n == 8) {
        memcpy(v, p, 8);
    } else {
        uint32_t h;
        memcpy(&h, p, 4);
        *v = h;
    }
    memset(p, 0, n);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    *v = n == 8 ? __builtin_bswap64(*v) : __builtin_bswap32((uint32_t)*v);
#endif
    atomic_signal_fence(memory_order_seq_cst);
    return 1;
}

/* The fast window's take: 0 if the buffer holds fewer than n bytes, or if
 * after the take it is of an older epoch (a restore) or was wiped (a fork
 * from a signal handler during the take: a wiped buffer's epoch is 0, never
 * the system generator's, which starts at 1), and the word is then thrown
 * away. */
static inline int system_bits_take(struct system_bits *b, size_t n, uint64_t *v)
{
    return take_word(b->buffer, &b->pos, b->end, n, v) && system_bits_current(b);
}

/* A pid_checked buffer's take: from at..limit, and after the take the pid
 * compared too (a raw fork at any point before the comparison leaves the
 * child with another pid), as the core's still_sound does where its pages
 * are not zeroed in a child. */
static int system_bits_checked_take(struct system_bits *b, size_t n, uint64_t *v)
{
    return take_word(b->buffer, &b->at, b->limit, n, v) && system_bits_current(b) &&
           b->pid == shakerand_system_process_id();
}

/* Filled again, what is left of it dropped: the parent's bytes in a child,
 * wiped by the fill. The pid and epoch words read before the fill, so a
 * fork or a new epoch during it shows. */
static void system_bits_checked_refill(struct system_bits *b)
{
    b->limit = 0;
    b->pid = shakerand_system_process_id();
    b->epoch = *epoch_word;
    b->vm_generation = *vm_generation_word;
    shakerand_system_fill(b->buffer, sizeof b->buffer);
    b->at = 0;
    b->limit = sizeof b->buffer;
}

/* Every value of a pid_checked buffer comes here: its fast window is
 * always empty. */
__attribute__((noinline)) static uint64_t system_bits_checked_value(struct system_bits *b, size_t n)
{
    uint64_t v;
    while (!system_bits_checked_take(b, n, &v))
        system_bits_checked_refill(b);
    return v;
}

/* The take after a refill, out of line and reached by a tail call, so the
 * common case needs no stack frame. */
__attribute__((noinline)) static uint64_t system_bits_refill_take(struct system_bits *b, size_t n)
{
    if (b->pid_checked)
        return system_bits_checked_value(b, n);
    uint64_t v;
    do /* again if a new epoch began during the fill */
        system_bits_refill(b);
    while (!system_bits_take(b, n, &v));
    return v;
}

__attribute__((noinline)) static double system_bits_refill_double(struct system_bits *b)
{
    return pyext_double_of(system_bits_refill_take(b, 8));
}

static uint64_t system_bits_u64(void *st)
{
    uint64_t v;
    if (__builtin_expect(system_bits_take(st, 8, &v), 1))
        return v;
    return system_bits_refill_take(st, 8);
}

static uint32_t system_bits_u32(void *st)
{
    uint64_t v;
    if (__builtin_expect(system_bits_take(st, 4, &v), 1))
        return (uint32_t)v;
    return (uint32_t)system_bits_refill_take(st, 4);
}

static double system_bits_double(void *st)
{
    uint64_t v;
    if (__builtin_expect(system_bits_take(st, 8, &v), 1))
        return pyext_double_of(v);
    return system_bits_refill_double(st);
}

static PyObject *SystemBits_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) != 0 || (kwds != NULL && PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_SetString(PyExc_TypeError, "SystemBits() takes no arguments");
        return NULL;
    }
    if (pyext_system_ready() < 0)
        return NULL;
    pthread_once(&epoch_words_ready, epoch_words_once);
    SystemBitsObject *self = (SystemBitsObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    struct system_bits *b = NULL;
    int wiped = 0;
#if defined(MAP_ANONYMOUS)
    /* The exact size, not rounded to pages (the kernel does that): a length
     * only this mapping asks for, which the tests refuse (--refuse-mmap). */
    const size_t size = sizeof *b;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
        b = p;
        self->mapped = size;
        wiped = shakerand_system_page_mark(p, size, 1);
    }
#endif
    if (b == NULL) {
        b = calloc(1, sizeof *b);
        if (b == NULL) {
            Py_DECREF(self);
            return PyErr_NoMemory();
        }
    }
    /* Both windows empty: the first draw fills it. */
    b->pid_checked = !wiped;
    self->bits = b;
    pyext_bitgen_init(&self->bitgen, b, system_bits_u64, system_bits_u32, system_bits_double);
    pthread_mutex_lock(&live_bits_lock);
    self->next = live_bits;
    if (live_bits != NULL)
        live_bits->prev = self;
    live_bits = self;
    pthread_mutex_unlock(&live_bits_lock);
    return (PyObject *)self;
}

static int SystemBits_traverse(SystemBitsObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->capsule);
    return 0;
}

static int SystemBits_clear(SystemBitsObject *self)
{
    Py_CLEAR(self->capsule);
    return 0;
}

static void SystemBits_dealloc(SystemBitsObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
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
    (void)SystemBits_clear(self);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);
}

static PyObject *SystemBits_capsule(SystemBitsObject *self, PyObject *unused)
{
    (void)unused;
    return pyext_bitgen_capsule(&self->capsule, &self->bitgen);
}

/* How many bytes the buffer holds for numpy now (for the fork and
 * snapshot tests): none after a fork or a new epoch. */
static PyObject *SystemBits_buffered(SystemBitsObject *self, PyObject *unused)
{
    (void)unused;
    const struct system_bits *b = self->bits;
    if (!system_bits_current(b))
        return PyLong_FromLong(0);
    if (b->pid_checked)
        return PyLong_FromSize_t(b->pid == shakerand_system_process_id() ? b->limit - b->at : 0);
    return PyLong_FromSize_t(b->end - b->pos);
}

/* (bytes of the buffer's own mapping, 0 for the calloc fallback; whether a
 * child sees it zeroed, else the pid is compared before every value), for
 * the raw-fork tests. */
static PyObject *SystemBits_storage(SystemBitsObject *self, PyObject *unused)
{
    (void)unused;
    return Py_BuildValue("(nO)", (Py_ssize_t)self->mapped,
                         self->bits->pid_checked ? Py_False : Py_True);
}

static PyMethodDef SystemBits_methods[] = {
    {"capsule", (PyCFunction)SystemBits_capsule, METH_NOARGS,
     "capsule() -> the numpy bitgen_t capsule."},
    {"buffered", (PyCFunction)SystemBits_buffered, METH_NOARGS,
     "buffered() -> bytes of output held for numpy now (0 after a fork or a new epoch)."},
    {"storage", (PyCFunction)SystemBits_storage, METH_NOARGS,
     "storage() -> (bytes of the buffer's own mapping, 0 if calloc'd; whether a child sees it "
     "zeroed, else the pid is compared before every value)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot SystemBits_slots[] = {
    {Py_tp_new, SystemBits_new},
    {Py_tp_dealloc, SystemBits_dealloc},
    {Py_tp_traverse, SystemBits_traverse},
    {Py_tp_clear, SystemBits_clear},
    {Py_tp_methods, SystemBits_methods},
    {Py_tp_doc, "SystemBits(): the system generator as a numpy bitgen_t "
                "(use shakerand.numpy.SystemBitGenerator)."},
    {0, NULL},
};

PyType_Spec pyext_system_bits_spec = {
    .name = "shakerand._core.SystemBits",
    .basicsize = sizeof(SystemBitsObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC
#if PY_VERSION_HEX >= 0x030A0000
             | Py_TPFLAGS_IMMUTABLETYPE
#endif
    ,
    .slots = SystemBits_slots,
};

/* ---- EngineBits: numpy's view of a seeded Engine ------------------------
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
    return take_word(b->ahead, &b->pos, b->end, n, v);
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
     * bounds known, each refill's wipe asks no sigaltstack (engine.c's
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
