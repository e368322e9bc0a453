/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * EngineObject (engine_object.c): the C object behind Engine, which
 * EngineBits keeps too: its aligned memory, its lock, and how a call
 * enters it. The Engine type's constructor and methods are engine_type.c.
 */
#ifndef SHAKERAND_PY_ENGINE_OBJECT_H
#define SHAKERAND_PY_ENGINE_OBJECT_H

#include "common.h"

typedef struct {
    PyObject_HEAD shakerand_engine *engine; /* 64-byte aligned, wiped and freed with the object */
    shakerand_kind kind;
    /* A fill that runs without the GIL holds the lock and sets busy (both
     * under the GIL); other calls on the engine wait for the lock while
     * busy is set. Built for a free-threaded CPython, every call holds the
     * lock (pyext_engine_enter). */
    PyThread_type_lock lock;
    int busy;
    unsigned long generation; /* the pyext_fork_generation of the last use */
} EngineObject;

/* A new engine of type (an Engine type), all zero until it is seeded or
 * given a state; NULL with an exception. */
EngineObject *pyext_engine_alloc(PyTypeObject *type, shakerand_kind kind);
/* The Engine type's tp_dealloc: the state wiped. */
void pyext_engine_dealloc(EngineObject *self);
/* Whether o is an Engine, of this import of the module or another. */
int pyext_is_engine(PyObject *o);
/* __reduce__ of Engine and EngineBits: a TypeError (an engine's state is
 * its key). */
PyObject *pyext_engine_reduce(PyObject *self, PyObject *unused);

/* Waits (without the GIL) for a fill that runs without it; returns 1 if
 * the caller now holds the lock and must release it (pyext_engine_leave),
 * 0 if not, -1 with an exception if a fork left the engine unusable. */
int pyext_engine_enter(EngineObject *self);
void pyext_engine_leave(EngineObject *self, int locked);
/* Takes the engine's lock, waiting without the GIL; -1 with an exception
 * if a fork left the engine unusable. */
int pyext_engine_lock(EngineObject *self);
/* Two distinct engines' locks, in address order; -1 with an exception
 * (and neither held) if a fork left one unusable. */
int pyext_engine_lock_pair(EngineObject *a, EngineObject *b);
void pyext_engine_unlock_pair(EngineObject *a, EngineObject *b);

/* A draw on an engine: draw(engine, ctx). */
typedef void pyext_draw_fn(shakerand_engine *engine, void *ctx);
/* draw(owner->engine, ctx) without the GIL (a large fill), the engine held
 * busy under its lock meanwhile; 0, or -1 with an exception and draw not
 * run. */
int pyext_run_without_gil(EngineObject *owner, pyext_draw_fn *draw, void *ctx);

#endif
