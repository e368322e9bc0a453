/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The draws the module functions and Engine's methods share (draw.c): owner
 * is the Engine drawn from, or NULL for the calling thread's system
 * generator.
 */
#ifndef SHAKERAND_PY_DRAW_H
#define SHAKERAND_PY_DRAW_H

#include "engine_object.h"

/* One draw, the same for every caller. draw(engine, ctx) runs on owner's
 * engine, or with engine NULL (the system generator, as the core's
 * functions take it) when owner is NULL: the thread's generator seeded
 * first if it is not yet, a fill running without the GIL waited for. 0, or
 * -1 with an exception and draw not run. */
int pyext_draw(EngineObject *owner, pyext_draw_fn *draw, void *ctx);

/* What the module functions and Engine's methods return. */
PyObject *pyext_bytes_of(EngineObject *owner, Py_ssize_t n);
PyObject *pyext_getrandbits_of(EngineObject *owner, PyObject *k);
PyObject *pyext_double_result(EngineObject *owner);
PyObject *pyext_randbelow_of(EngineObject *owner, PyObject *n, int zero_ok);
PyObject *pyext_below_counted_of(EngineObject *owner, PyObject *args, PyObject *kwds);
PyObject *pyext_uuid_of(core_state *st, EngineObject *owner, int version);
/* st's uuid fields, from the uuid module; 0, or -1 with an exception. */
int pyext_uuid_init(core_state *st);

#endif
