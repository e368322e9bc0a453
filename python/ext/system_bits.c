/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SystemBits, numpy's view of the system generator (shakerand.numpy's
 * SystemBitGenerator).
 *
 * Its values come from a buffer filled from the system generator in
 * SYSTEM_BITS_BYTES pieces (whole chacha8rand iterations; 16 of them
 * measured 4 % faster than 8 in numpy's random(), the per-call costs of a
 * fill spread thinner); each value is zeroed in the buffer as it is handed
 * out.
 *
 * A fork must leave the child none of the parent's buffered values. The
 * fork handler sets every live buffer's windows to empty in the child (they
 * are linked into fork.c's list), but a raw fork or clone system call runs
 * no handler. So the rule is the C core's (src/system.c): each buffer lives in a mapping
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
 */
#include "system_bits.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bitgen.h"
#include "common.h"
#include "fork.h"
#include "system_os.h" /* the core's page marking, so the fork rule is the core's */

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

typedef struct {
    PyObject_HEAD struct system_bits *bits;
    size_t mapped; /* bytes mapped, 0 if calloc'd */
    numpy_bitgen bitgen;
    PyObject *capsule;
    pyext_fork_link link; /* in fork.c's list while the buffer lives */
} SystemBitsObject;

/* In the child's fork handler: both windows empty. */
static void system_bits_empty_in_child(pyext_fork_link *link)
{
    SystemBitsObject *o = (SystemBitsObject *)((char *)link - offsetof(SystemBitsObject, link));
    o->bits->end = o->bits->pos = 0;
    o->bits->limit = o->bits->at = 0;
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

/* The fast window's take: 0 if the buffer holds fewer than n bytes, or if
 * after the take it is of an older epoch (a restore) or was wiped (a fork
 * from a signal handler during the take: a wiped buffer's epoch is 0, never
 * the system generator's, which starts at 1), and the word is then thrown
 * away. */
static inline int system_bits_take(struct system_bits *b, size_t n, uint64_t *v)
{
    return pyext_take_word(b->buffer, &b->pos, b->end, n, v) && system_bits_current(b);
}

/* A pid_checked buffer's take: from at..limit, and after the take the pid
 * compared too (a raw fork at any point before the comparison leaves the
 * child with another pid), as the core's still_sound does where its pages
 * are not zeroed in a child. */
static int system_bits_checked_take(struct system_bits *b, size_t n, uint64_t *v)
{
    return pyext_take_word(b->buffer, &b->at, b->limit, n, v) && system_bits_current(b) &&
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
    self->link.empty_in_child = system_bits_empty_in_child;
    pyext_fork_link_add(&self->link);
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
        pyext_fork_link_remove(&self->link);
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
