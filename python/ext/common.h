/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The bottom of shakerand._core (common.c), which every other file uses and
 * which takes nothing from them: the sizes the module exports, the module
 * state and its accessor, the core's statuses as exceptions, the argument
 * check of a count, and the calling thread's first seed.
 *
 * Every function of the module checks its arguments before it draws, so
 * an error changes nothing. Fills of at least RELEASE_GIL_BYTES run
 * without the GIL.
 */
#ifndef SHAKERAND_PY_COMMON_H
#define SHAKERAND_PY_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "shakerand.h"

enum {
    RELEASE_GIL_BYTES = 1 << 16,
    SYSTEM_BITS_BYTES = 15872, /* output a SystemBits holds at most: 16 chacha8rand iterations */
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

/* The state of the module object that made type (one of its types, or a
 * subclass made from its spec). */
static inline core_state *pyext_state_of_type(PyTypeObject *type)
{
    return PyType_GetModuleState(type);
}

/* A double in [0, 1) from the top 53 bits (numpy's and CPython's rule);
 * inline: numpy's random() calls it once a value. */
static inline double pyext_double_of(uint64_t v) { return (double)(v >> 11) * 0x1.0p-53; }

/* -1, with the exception for a core status that is not SHAKERAND_OK. */
int pyext_raise_status(int status);
/* A non-negative count (a number of bytes or bits), or -1 with an
 * exception; what names it in the message. */
Py_ssize_t pyext_count_arg(PyObject *arg, const char *what);
/* The calling thread's system generator seeded (where a failure can be
 * raised, rather than in a draw, where it would be fatal): 0, or -1 with
 * an exception. */
int pyext_system_ready(void);
/* The thread's generator is seeded (a reseed succeeded). */
void pyext_system_mark_ready(void);

#endif
