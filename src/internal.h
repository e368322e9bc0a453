/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Private declarations shared by the library's translation units. */
#ifndef SHAKERAND_INTERNAL_H
#define SHAKERAND_INTERNAL_H

#include "arch.h"
#include "shakerand.h"

#if defined(__GNUC__)
#define SHAKERAND_NORETURN __attribute__((noreturn))
#else
#define SHAKERAND_NORETURN _Noreturn
#endif

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
#define SHAKERAND_TEST_STEP()                                  \
    do {                                                       \
        void (*hook_)(void) = shakerand_step_hook_for_testing; \
        if (hook_ != NULL)                                     \
            hook_();                                           \
    } while (0)
#else
#define SHAKERAND_TEST_STEP() ((void)0)
#endif

/* Windows has no fork: the fork handlers compile out there, and their
 * installation succeeds with nothing to install. */
#if defined(_WIN32)
#define SHAKERAND_HAVE_FORK 0
#else
#define SHAKERAND_HAVE_FORK 1
#endif

/* Orders stores against a signal handler on the same thread (no CPU
 * fence: only the compiler may not move them across). */
#define SHAKERAND_SIGNAL_FENCE() __atomic_signal_fence(__ATOMIC_SEQ_CST)

/* No key material outlives a public call (docs/system.md, "Stack and
 * registers"): each public entry point that computes any runs that work in
 * a frame of its own below it and, on the way out, zeroes the stack below
 * its own frame as deep as that work, and a signal frame saved during it,
 * can reach (src/stack_wipe.c); the work reports what it did: nothing
 * secret, a permutation or refill (the kernels' frames), or a seed (the
 * entropy sources, the C library, the dynamic linker's first binding of a
 * symbol, the hashes). tests/test_stack.cpp checks on every kernel and
 * architecture that nothing is left. */
enum shakerand_stack_use {
    SHAKERAND_STACK_CLEAN = 0,
    SHAKERAND_STACK_KERNEL = 1,
    SHAKERAND_STACK_SEED = 2,
};
#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
/* The vector registers the CPU and the OS have: 512 (zmm0-31), 256
 * (ymm0-15, AVX2) or 128 (xmm0-15); for the wipe's register clearing. */
int shakerand_x86_vector_registers(void);
/* The bytes an XSAVE of every register state the OS enabled takes (FXSAVE's
 * 512 without XSAVE): what the dynamic linker's lazy binding saves on the
 * stack (stack_wipe.c). */
size_t shakerand_x86_register_save_bytes(void);
#endif
/* Records the calling thread's stack bounds for the wipe (stack_wipe.c),
 * once; called after the system generator's seeds, outside its in-use
 * marker. */
void shakerand_stack_record_bounds(void);
void shakerand_wipe_stack_kernel(void);
void shakerand_wipe_stack_seed(void);

/* Inlined, so the wipe's frame starts right below the entry's own. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void shakerand_wipe_stack(int use)
{
    if (use == SHAKERAND_STACK_SEED)
        shakerand_wipe_stack_seed();
    else if (use == SHAKERAND_STACK_KERNEL)
        shakerand_wipe_stack_kernel();
}

/* The XOF calls without the wipe, for the library's own use inside a
 * public entry point that wipes. */
int shakerand_xof_absorb_unwiped(shakerand_xof *xof, const void *in, size_t len);
int shakerand_xof_squeeze_unwiped(shakerand_xof *xof, void *out, size_t len);
int shakerand_turboshake256_unwiped(void *out, size_t out_len, const void *in, size_t in_len,
                                    unsigned domain);

/* Records that work reached at least `use` (the deeper of two wins). */
static inline void shakerand_stack_used(int *used, int use)
{
    if (*used < use)
        *used = use;
}

/* Unrecoverable misuse: print one line and abort. */
SHAKERAND_NORETURN void shakerand_fatal(const char *message);

#endif
