/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The bottom of shakerand._core (common.h). */
#include "common.h"

#include "arch.h" /* SHAKERAND_TLS_INITIAL_EXEC */

/* Whether this thread's generator was set up by us. Per thread, so shared
 * by every interpreter the thread runs. */
static _Thread_local int thread_ready SHAKERAND_TLS_INITIAL_EXEC;

int pyext_raise_status(int status)
{
    if (status == SHAKERAND_ENOMEM)
        PyErr_NoMemory();
    else
        PyErr_Format(PyExc_OSError, "shakerand: %s", shakerand_strerror(status));
    return -1;
}

Py_ssize_t pyext_count_arg(PyObject *arg, const char *what)
{
    Py_ssize_t n = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be non-negative", what);
        return -1;
    }
    return n;
}

int pyext_system_ready(void)
{
    if (__builtin_expect(thread_ready, 1))
        return 0;
    const int status = shakerand_system_init();
    if (status != SHAKERAND_OK)
        return pyext_raise_status(status);
    thread_ready = 1;
    return 0;
}

void pyext_system_mark_ready(void) { thread_ready = 1; }
