/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SystemBits (system_bits.c): numpy's bitgen_t over the system generator. */
#ifndef SHAKERAND_PY_SYSTEM_BITS_H
#define SHAKERAND_PY_SYSTEM_BITS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

extern PyType_Spec pyext_system_bits_spec;

#endif
