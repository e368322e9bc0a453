/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Private declarations shared by the library's translation units. */
#ifndef SHAKERAND_INTERNAL_H
#define SHAKERAND_INTERNAL_H

#include "shakerand.h"

#if defined(__GNUC__)
#define SHAKERAND_NORETURN __attribute__((noreturn))
#else
#define SHAKERAND_NORETURN _Noreturn
#endif

/* n bytes from `engine`, or from the calling thread's system generator when
 * it is NULL: the samplers' source. */
static inline void shakerand_draw(shakerand_engine *engine, void *out, size_t n)
{
    if (engine != NULL)
        shakerand_engine_fill(engine, out, n);
    else
        shakerand_system_fill(out, n);
}

/* Marks seed material secret for the constant-time check (verification/
 * ctgrind.c): under valgrind memcheck, any branch or address computed from
 * it is reported. Compiled in only with -DSHAKERAND_CTGRIND. */
#if defined(SHAKERAND_CTGRIND)
#include <valgrind/memcheck.h>
#define SHAKERAND_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#else
#define SHAKERAND_SECRET(p, n) ((void)0)
#endif

/* Test builds call a hook at every step of a take, a refill and a seed, so
 * a test can deliver a signal at each one; other builds compile it away. */
#if defined(SHAKERAND_TESTING) && !defined(SHAKERAND_NO_TEST_STEPS)
#include "testing.h"
#define SHAKERAND_TEST_STEP()                                                  \
    do {                                                                       \
        void (*hook_)(void) = shakerand_step_hook_for_testing;                 \
        if (hook_ != NULL)                                                     \
            hook_();                                                           \
    } while (0)
#else
#define SHAKERAND_TEST_STEP() ((void)0)
#endif

/* Orders stores against a signal handler on the same thread (no CPU
 * fence: only the compiler may not move them across). */
#define SHAKERAND_SIGNAL_FENCE() __atomic_signal_fence(__ATOMIC_SEQ_CST)

/* The system generator's per-thread in-use marker (system.c), for the
 * other entry points that take a lock a signal handler's call could need:
 * 0 if this thread is already inside the library (the caller is a handler
 * that interrupted it), else 1 with the marker set until leave. */
int shakerand_thread_enter(void);
void shakerand_thread_leave(void);

/* Unrecoverable misuse: print one line and abort. */
SHAKERAND_NORETURN void shakerand_fatal(const char *message);

#endif
