/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* An engine on the heap, for the JNI libraries (the shipped one and the test-only samplers). */
#ifndef SHAKERAND_JNI_ENGINE_ALLOC_H
#define SHAKERAND_JNI_ENGINE_ALLOC_H

#include <stdlib.h>
#ifdef _WIN32
#include <malloc.h>
#endif

#include "shakerand.h"

/* Engines want 64-byte alignment. The Windows C runtime has no aligned_alloc, and what its
 * _aligned_malloc returns must be released by _aligned_free. */
static inline shakerand_engine *engine_alloc(void)
{
#ifdef _WIN32
    return _aligned_malloc(sizeof(shakerand_engine), 64);
#else
    return aligned_alloc(64, sizeof(shakerand_engine));
#endif
}

static inline void engine_release(shakerand_engine *e)
{
#ifdef _WIN32
    _aligned_free(e);
#else
    free(e);
#endif
}

#endif
