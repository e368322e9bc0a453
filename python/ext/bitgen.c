/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* numpy's bitgen_t and its capsule, for SystemBits and EngineBits. */
#include "bitgen.h"

#include <pthread.h>

void pyext_bitgen_init(numpy_bitgen *bitgen, void *state, uint64_t (*u64)(void *),
                       uint32_t (*u32)(void *), double (*dbl)(void *))
{
    bitgen->state = state;
    bitgen->next_uint64 = u64;
    bitgen->next_uint32 = u32;
    bitgen->next_double = dbl;
    bitgen->next_raw = u64;
}

PyObject *pyext_bitgen_capsule(PyObject **slot, numpy_bitgen *bitgen)
{
#if defined(Py_GIL_DISABLED)
    /* Two threads asking at once make one capsule, not one each. */
    static pthread_mutex_t making = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&making);
#endif
    if (*slot == NULL)
        *slot = PyCapsule_New(bitgen, "BitGenerator", NULL);
    PyObject *capsule = *slot;
    Py_XINCREF(capsule);
#if defined(Py_GIL_DISABLED)
    pthread_mutex_unlock(&making);
#endif
    return capsule;
}
