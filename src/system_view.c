/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What the system generator shares with callers that read its words
 * themselves: the view of include/shakerand.h that inlined takes use
 * (docs/system.md, "Inlined takes"), held to the state's layout
 * (system_state.h) and the thread's words (thread.h) at compile time, and the
 * epoch words the front ends and UUIDs compare.
 */
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>

#include "epoch.h"
#include "internal.h"
#include "system.h"
#include "system_state.h"
#include "thread.h"

int shakerand_system_watches_vm_generation(void)
{
    shakerand_system_setup();
    return shakerand_epoch_watched_vm_counter() != NULL;
}

void shakerand_system_epoch_words(const volatile uint64_t **epoch_word,
                                  const volatile uint64_t **vm_generation)
{
    if (vm_generation != NULL)
        shakerand_system_setup();
    /* A lock-free 64-bit atomic has the representation of the plain word. */
    _Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "the epoch is read as a plain word");
    if (epoch_word != NULL)
        *epoch_word = (const volatile uint64_t *)&shakerand_epoch;
    if (vm_generation != NULL)
        *vm_generation = atomic_load_explicit(&shakerand_vm_counter, memory_order_relaxed);
}

/* What shakerand_system_view_get shares is the core's own layout. */
_Static_assert(AHEAD_MAX_REQUEST * 4 == AHEAD_BYTES,
               "a take is a quarter of the output made ahead");
#define SAME_FIELD(a, b, field) \
    (offsetof(a, field) == offsetof(b, field) && sizeof(((a *)0)->field) == sizeof(((b *)0)->field))
_Static_assert(SAME_FIELD(struct system_state, shakerand_system_view_state, epoch) &&
                   SAME_FIELD(struct system_state, shakerand_system_view_state, vm_generation) &&
                   SAME_FIELD(struct system_state, shakerand_system_view_state, cursor) &&
                   SAME_FIELD(struct system_state, shakerand_system_view_state, fast_end) &&
                   offsetof(struct system_state, ahead) == SHAKERAND_SYSTEM_VIEW_AHEAD_OFFSET,
               "the state's head is shakerand_system_view_state");
#if !defined(_WIN32)
_Static_assert(SAME_FIELD(struct thread_words, shakerand_system_view_thread, state) &&
                   offsetof(struct thread_words, inside) ==
                       offsetof(shakerand_system_view_thread, inside),
               "the thread's words are shakerand_system_view_thread");
/* An inline take writes the header's `inside` over the core's marker: the
 * same width wherever a view is shared (sig_atomic_t an int; where it is
 * not, shakerand_system_view_get refuses at run time). */
_Static_assert(SAME_FIELD(struct thread_words, shakerand_system_view_thread, inside) ||
                   sizeof(sig_atomic_t) != sizeof(int),
               "the header's inside is as wide as the core's marker");
#endif
#undef SAME_FIELD

/* Windows keeps the thread's words in a TlsAlloc slot (no address to
 * share); on a big-endian host the bytes made ahead are not the stream's
 * order, and macOS (src/system_os_other.c) has no WIPEONFORK, so the
 * core's fast path never runs there either. */
int shakerand_system_view_get(shakerand_system_view *view, unsigned layout)
{
    if (view == NULL)
        return SHAKERAND_EINVAL;
#if defined(_WIN32) || (!defined(__linux__) && !defined(__FreeBSD__))
    (void)layout;
    return SHAKERAND_ESTATE;
#else
    if (layout != SHAKERAND_SYSTEM_VIEW_LAYOUT || !shakerand_host_is_little_endian() ||
        sizeof(sig_atomic_t) != sizeof(int))
        return SHAKERAND_ESTATE;
    if (!shakerand_system_setup_done()) {
        /* Set up as the first draw does: marked inside the generator, so
         * that a handler drawing meanwhile is served by the operating
         * system rather than waiting in pthread_once for the setup it
         * interrupted. Asked from such a handler (the thread below it is
         * inside, perhaps in setup): no view. */
        if (tls_inside_get())
            return SHAKERAND_ESTATE;
        tls_inside_set(1);
        SHAKERAND_SIGNAL_FENCE();
        shakerand_system_setup();
        SHAKERAND_SIGNAL_FENCE();
        tls_inside_set(0);
    }
    view->thread = (shakerand_system_view_thread *)(void *)&shakerand_thread_words;
    view->epoch = (const volatile uint64_t *)&shakerand_epoch;
    view->vm_generation = atomic_load_explicit(&shakerand_vm_counter, memory_order_relaxed);
    return SHAKERAND_OK;
#endif
}
