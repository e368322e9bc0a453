/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * shakerand._core, shared between its files:
 *  - module.c: the module (multi-phase init, its state) and its functions
 *    on the calling thread's system generator;
 *  - draw.c:   the draws both the functions and Engine make (an owner of
 *    NULL is the system generator), and pyext_draw, the one way a draw
 *    enters an engine;
 *  - engine.c: Engine, one seeded engine;
 *  - fork.c: the process's fork handlers;
 *  - bitgen.c: numpy's bitgen_t, shared by SystemBits and EngineBits;
 *  - system_bits.c: SystemBits, a buffer of system generator output that a
 *    fork empties;
 *  - engine_bits.c: EngineBits, a buffer of a seeded engine's stream;
 *  - bitgen_base.c: the base class of shakerand.numpy's bit generators,
 *    made over numpy's own, holding the SystemBits or EngineBits for the
 *    bit generator's whole life;
 *  - forward.c: shakerand.Random's methods that call its engine's.
 *
 * Every function checks its arguments before it draws, so an error changes
 * nothing. Fills of at least RELEASE_GIL_BYTES run without the GIL.
 */
#ifndef SHAKERAND_PY_CORE_H
#define SHAKERAND_PY_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "shakerand.h"

#include "bitgen.h"
#include "engine_bits.h"
#include "fork.h"
#include "system_bits.h"

enum {
    RELEASE_GIL_BYTES = 1 << 16,
    SYSTEM_BITS_BYTES = 15872, /* output a SystemBits holds at most: 16 chacha8rand iterations */
    UUID_BYTES = 16,
};

/* Per module object (one per interpreter, and one per re-import). */
typedef struct {
    PyTypeObject *engine_type;
    PyTypeObject *system_bits_type;
    PyTypeObject *engine_bits_type;
    PyTypeObject *forward_type;    /* forward.c's method descriptors */
    PyTypeObject *numpy_base_type; /* bitgen_base.c's, once shakerand.numpy asked for it */
    /* uuid.UUID, uuid.SafeUUID.unknown and the slot names set on a UUID */
    PyObject *uuid_type, *uuid_safe_unknown, *str_int, *str_is_safe;
    /* uuid.UUID has the slots int and is_safe: build it without its
     * constructor's argument parsing, most of uuid.uuid4()'s time */
    int uuid_fast;
} core_state;

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

/* module.c */
core_state *pyext_state_of_type(PyTypeObject *type);

/* draw.c: errors and the system generator */
int pyext_raise_status(int status);
/* The engine kinds' names, in the core's table order (a new tuple). */
PyObject *pyext_kind_names(void);
int pyext_system_ready(void);
void pyext_system_mark_ready(void);
/* A double in [0, 1) from the top 53 bits (numpy's and CPython's rule);
 * inline: numpy's random() calls it once a value. */
static inline double pyext_double_of(uint64_t v) { return (double)(v >> 11) * 0x1.0p-53; }

/* draw.c: one draw, the same for every caller. draw(engine, ctx) runs on
 * owner's engine, or with engine NULL (the system generator, as the core's
 * functions take it) when owner is NULL: the thread's generator seeded
 * first if it is not yet, a fill running without the GIL waited for. 0, or
 * -1 with an exception and draw not run. */
typedef void pyext_draw_fn(shakerand_engine *engine, void *ctx);
int pyext_draw(EngineObject *owner, pyext_draw_fn *draw, void *ctx);
/* draw(owner->engine, ctx) without the GIL (a large fill), the engine held
 * busy under its lock meanwhile; 0, or -1 with an exception and draw not
 * run. */
int pyext_run_without_gil(EngineObject *owner, pyext_draw_fn *draw, void *ctx);

/* draw.c: what the module functions and Engine's methods return */
Py_ssize_t pyext_count_arg(PyObject *arg, const char *what);
PyObject *pyext_bytes_of(EngineObject *owner, Py_ssize_t n);
PyObject *pyext_getrandbits_of(EngineObject *owner, PyObject *k);
PyObject *pyext_double_result(EngineObject *owner);
PyObject *pyext_randbelow_of(EngineObject *owner, PyObject *n, int zero_ok);
PyObject *pyext_below_counted_of(EngineObject *owner, PyObject *args, PyObject *kwds);
PyObject *pyext_uuid_of(core_state *st, EngineObject *owner, int version);
int pyext_uuid_init(core_state *st);

/* engine.c */
extern PyType_Spec pyext_engine_spec;
/* __reduce__ of Engine and EngineBits: a TypeError (an engine's state is
 * its key). */
PyObject *pyext_engine_reduce(PyObject *self, PyObject *unused);
/* Whether o is an Engine, of this import of the module or another. */
int pyext_is_engine(PyObject *o);
int pyext_engine_enter(EngineObject *self);
void pyext_engine_leave(EngineObject *self, int locked);
/* Takes the engine's lock, waiting without the GIL; -1 with an exception
 * if a fork left the engine unusable. */
int pyext_engine_lock(EngineObject *self);
/* Two distinct engines' locks, in address order; -1 with an exception
 * (and neither held) if a fork left one unusable. */
int pyext_engine_lock_pair(EngineObject *a, EngineObject *b);
void pyext_engine_unlock_pair(EngineObject *a, EngineObject *b);

/* forward.c: shakerand.Random's methods that call its engine's */
extern PyType_Spec pyext_forward_spec;
PyObject *pyext_install_engine_methods(core_state *st, PyObject *cls);

/* bitgen.c */
extern PyType_Spec pyext_system_bits_spec;
extern PyType_Spec pyext_engine_bits_spec;
/* Forks this process has come through, counted in the child's fork handler:
 * an engine last used in an earlier generation may hold a parent thread's
 * lock or a half-done fill (engine.c, engine_revive). */
extern unsigned long pyext_fork_generation;
int pyext_register_fork_handlers(void);
void pyext_bitgen_init(numpy_bitgen *bitgen, void *state, uint64_t (*u64)(void *),
                       uint32_t (*u32)(void *), double (*dbl)(void *));
PyObject *pyext_bitgen_capsule(PyObject **slot, numpy_bitgen *bitgen);

/* bitgen_base.c: numpy_base(numpy.random.BitGenerator), the module function */
PyObject *pyext_numpy_base(PyObject *module, PyObject *numpy_type);

#endif
