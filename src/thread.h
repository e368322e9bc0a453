/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The calling thread's words (private, thread.c): the address of its
 * system generator state (system_state.h) and the in-use marker, which says the
 * thread is inside the library. Every entry point that takes a lock or a
 * state a signal handler's call could need (the system generator, the
 * entropy sources' lock) enters first; a call that finds the marker set
 * (a handler that interrupted a call on its own thread) takes its bytes
 * from the operating system instead, sharing nothing with the call it
 * interrupted.
 */
#ifndef SHAKERAND_THREAD_H
#define SHAKERAND_THREAD_H

/* Out of line, for the other entry points (the entropy sources:
 * src/entropy/conditioner.c) and the tests: thread_enter, thread_leave. */
int shakerand_thread_enter(void);
void shakerand_thread_leave(void);

#ifndef __cplusplus
#include <signal.h>
#include <stdint.h>

#include "arch.h"
#include "internal.h"
#if defined(_WIN32)
#include "system_os.h"
#endif

struct system_state;

#if defined(_WIN32)
/* Windows: one word in a TlsAlloc slot (shakerand_system_tls_get), not
 * _Thread_local. MinGW's GCC emulates _Thread_local, and the C runtime
 * frees that storage during thread exit while callbacks that may still
 * draw (winpthreads' key destructors, other libraries' fiber-local
 * callbacks) are yet to run: a draw there would find a NULL or freed
 * pointer, and seed a state that no exit wipes. The slot lives as long as
 * the thread. The state is page aligned,
 * so the marker is the word's bit 0; after the exit wipe the word is the
 * marker alone, so every later draw on the thread is served by the
 * operating system and none makes a new state. */
#define WORD_INSIDE ((uintptr_t)1)
static inline struct system_state *tls_state_get(void)
{
    return (struct system_state *)(shakerand_system_tls_get() & ~WORD_INSIDE);
}
static inline void tls_state_set(struct system_state *s)
{
    shakerand_system_tls_set((uintptr_t)s | (shakerand_system_tls_get() & WORD_INSIDE));
}
static inline int tls_inside_get(void) { return (int)(shakerand_system_tls_get() & WORD_INSIDE); }
static inline void tls_inside_set(int inside)
{
    shakerand_system_tls_set((shakerand_system_tls_get() & ~WORD_INSIDE) |
                             (uintptr_t)(inside != 0));
}
#else
/* One thread-local object, so the fast path finds both members from one
 * address (a shared library's initial-exec access loads the offset once).
 * Its layout is shared with the public header's inlined take
 * (system_view.c checks it). */
struct thread_words {
    struct system_state *state;
    volatile sig_atomic_t inside;
};
extern _Thread_local struct thread_words shakerand_thread_words SHAKERAND_TLS_INITIAL_EXEC
    SHAKERAND_HIDDEN;
static inline struct system_state *tls_state_get(void) { return shakerand_thread_words.state; }
static inline void tls_state_set(struct system_state *s) { shakerand_thread_words.state = s; }
static inline int tls_inside_get(void) { return shakerand_thread_words.inside; }
static inline void tls_inside_set(int inside) { shakerand_thread_words.inside = inside; }
#endif

/* The marker: 0 when this thread is already inside the library, else 1
 * with the marker set until thread_leave. */
static inline int thread_enter(void)
{
#if defined(_WIN32)
    /* The marker lives in a slot the process's first call makes before
     * marking, so that its seed is marked too. */
    if (__builtin_expect(!shakerand_system_tls_ready(), 0))
        shakerand_system_tls_setup();
#endif
    if (__builtin_expect(tls_inside_get() != 0, 0))
        return 0;
    tls_inside_set(1);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    return 1;
}

static inline void thread_leave(void)
{
    SHAKERAND_TEST_STEP();
    SHAKERAND_SIGNAL_FENCE();
    tls_inside_set(0);
}

#endif /* __cplusplus */

#endif
