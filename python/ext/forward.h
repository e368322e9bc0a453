/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* shakerand.Random's methods that call its engine's (forward.c). */
#ifndef SHAKERAND_PY_FORWARD_H
#define SHAKERAND_PY_FORWARD_H

#include "common.h"

extern PyType_Spec pyext_forward_spec;
/* install_engine_methods(cls), the module function, with st its state. */
PyObject *pyext_install_engine_methods(core_state *st, PyObject *cls);

#endif
