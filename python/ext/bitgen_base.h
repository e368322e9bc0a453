/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The base class of shakerand.numpy's bit generators (bitgen_base.c). */
#ifndef SHAKERAND_PY_BITGEN_BASE_H
#define SHAKERAND_PY_BITGEN_BASE_H

#include "common.h"

/* numpy_base(numpy.random.BitGenerator), the module function. */
PyObject *pyext_numpy_base(PyObject *module, PyObject *numpy_type);

#endif
