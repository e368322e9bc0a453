/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* EngineObject, the C object behind Engine (engine_object.h). */
#include "engine_object.h"

#include "fork.h"
#include "internal.h" /* shakerand_stack_record_bounds */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

EngineObject *pyext_engine_alloc(PyTypeObject *type, shakerand_kind kind)
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
    self->generation = pyext_fork_generation;
    self->lock = PyThread_allocate_lock();
    if (self->lock == NULL) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    return self;
}

void pyext_engine_dealloc(EngineObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (self->engine != NULL) {
        shakerand_engine_wipe(self->engine);
        free(self->engine);
    }
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);
}

int pyext_is_engine(PyObject *o)
{
    /* By its deallocator, not its type object: every import of the
     * module makes a type of its own, and an engine of one is an engine
     * for the others too. */
    return Py_TYPE(o)->tp_dealloc == (destructor)pyext_engine_dealloc;
}

/* Whether the engine was used in this process since its last fork. Built
 * for a free-threaded CPython, the generation is published with release
 * order after a revived engine's lock (and read with acquire order), so a
 * thread that sees the new generation also sees the new lock. */
static int engine_is_current(EngineObject *self)
{
#if defined(Py_GIL_DISABLED)
    return __atomic_load_n(&self->generation, __ATOMIC_ACQUIRE) == pyext_fork_generation;
#else
    return self->generation == pyext_fork_generation;
#endif
}

#if defined(Py_GIL_DISABLED)
/* Two threads may make their first calls on one engine in a child at once:
 * one revives it at a time. */
static pthread_mutex_t revive_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

/* The first use of an engine in a child forked since its last use. A fill
 * running without the GIL in another thread at the fork left the state
 * half-written in the child (busy stays set; every call fails). A thread
 * that no longer exists may hold the lock: it is replaced (and leaked, as
 * freeing a held lock is not allowed everywhere). */
static int engine_revive(EngineObject *self)
{
#if defined(Py_GIL_DISABLED)
    pthread_mutex_lock(&revive_lock);
    if (engine_is_current(self)) { /* another thread did it */
        pthread_mutex_unlock(&revive_lock);
        return 0;
    }
#endif
    int result = 0;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this shakerand engine was filling in another thread when the process "
                        "forked, so its state here is undefined: seed a new one");
        result = -1;
    } else if (PyThread_acquire_lock(self->lock, NOWAIT_LOCK)) {
        PyThread_release_lock(self->lock);
    } else {
        PyThread_type_lock fresh = PyThread_allocate_lock();
        if (fresh == NULL) {
            PyErr_NoMemory();
            result = -1;
        } else {
            self->lock = fresh;
        }
    }
    if (result == 0) {
#if defined(Py_GIL_DISABLED)
        __atomic_store_n(&self->generation, pyext_fork_generation, __ATOMIC_RELEASE);
#else
        self->generation = pyext_fork_generation;
#endif
    }
#if defined(Py_GIL_DISABLED)
    pthread_mutex_unlock(&revive_lock);
#endif
    return result;
}

int pyext_engine_lock(EngineObject *self)
{
    if (!engine_is_current(self) && engine_revive(self) < 0)
        return -1;
    if (!PyThread_acquire_lock(self->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(self->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
    return 0;
}

int pyext_engine_enter(EngineObject *self)
{
    /* The thread's stack bounds, known from here on (once per thread; a
     * method of this module never runs in a C signal handler, where the
     * recording's allocation would not be safe): without them each of the
     * engine's refills asks sigaltstack whether it runs on the alternate
     * stack, a system call per 992 bytes of chacha8rand. */
    shakerand_stack_record_bounds();
#if defined(Py_GIL_DISABLED)
    /* No GIL orders the calls on one engine: every call holds its lock. */
    return pyext_engine_lock(self) < 0 ? -1 : 1;
#else
    if (__builtin_expect(!self->busy && engine_is_current(self), 1))
        return 0;
    if (!engine_is_current(self) && engine_revive(self) < 0)
        return -1;
    if (!self->busy)
        return 0;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    Py_END_ALLOW_THREADS
    return 1;
#endif
}

void pyext_engine_leave(EngineObject *self, int locked)
{
    if (locked > 0)
        PyThread_release_lock(self->lock);
}

/* Both engines' locks, taken in address order (a.load(b) beside b.load(a)
 * cannot each hold one and wait for the other), in every build: a fill
 * that runs without the GIL holds its engine's lock, so none runs in
 * either while both are held. */
int pyext_engine_lock_pair(EngineObject *a, EngineObject *b)
{
    EngineObject *first = a < b ? a : b, *second = a < b ? b : a;
    if (pyext_engine_lock(first) < 0)
        return -1;
    if (pyext_engine_lock(second) < 0) {
        PyThread_release_lock(first->lock);
        return -1;
    }
    return 0;
}

void pyext_engine_unlock_pair(EngineObject *a, EngineObject *b)
{
    PyThread_release_lock(a->lock);
    PyThread_release_lock(b->lock);
}

int pyext_run_without_gil(EngineObject *owner, pyext_draw_fn *draw, void *ctx)
{
    if (pyext_engine_lock(owner) < 0)
        return -1;
    /* Set and cleared under the lock; with a GIL, also read under it by
     * callers that do not take the lock (pyext_engine_enter). */
    owner->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    draw(owner->engine, ctx);
    Py_END_ALLOW_THREADS
    owner->busy = 0;
    PyThread_release_lock(owner->lock);
    return 0;
}

PyObject *pyext_engine_reduce(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyErr_SetString(PyExc_TypeError,
                    "a shakerand engine is not pickled: its state is the generator's key; "
                    "keep the seed, or copy the generator within the process");
    return NULL;
}
