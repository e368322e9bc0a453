/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* EngineBits (engine_bits.c): numpy's bitgen_t over a seeded Engine. */
#ifndef SHAKERAND_PY_ENGINE_BITS_H
#define SHAKERAND_PY_ENGINE_BITS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

extern PyType_Spec pyext_engine_bits_spec;

#endif
