/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The samplers' and the UUIDs' source (private). */
#ifndef SHAKERAND_DRAW_H
#define SHAKERAND_DRAW_H

#include "shakerand.h"

/* n bytes from `engine`, or from the calling thread's system generator when
 * it is NULL. */
static inline void shakerand_draw(shakerand_engine *engine, void *out, size_t n)
{
    if (engine != NULL)
        shakerand_engine_fill(engine, out, n);
    else
        shakerand_system_fill(out, n);
}

#endif
