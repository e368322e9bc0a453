/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The Engine type (engine_type.c): Engine(kind, seed), one seeded engine. */
#ifndef SHAKERAND_PY_ENGINE_TYPE_H
#define SHAKERAND_PY_ENGINE_TYPE_H

#include "engine_object.h"

extern PyType_Spec pyext_engine_spec;
/* The engine kinds' names, in the core's table order (a new tuple). */
PyObject *pyext_kind_names(void);

#endif
