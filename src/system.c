/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The system generator: one keyed engine per thread, chacha8rand unless
 * the build or the environment chose turboshake256x8 (docs/system.md).
 *
 * Each thread's state lives in pages of its own marked MADV_WIPEONFORK (a
 * child process sees them zeroed, so it cannot repeat the parent's stream
 * even after a raw clone that skips fork handlers) and MADV_DONTDUMP (kept
 * out of core dumps), or what the system has instead; the pages, the
 * thread-exit and fork hooks, the pid and the clock are the system's back
 * end (system_os.h). A fork handler moves the process's epoch, a counter
 * checked on every call, as does shakerand_system_new_epoch (a restore
 * hook's call); where the hypervisor keeps a VM generation counter (Linux's
 * vmclock device) every call compares it too, so a machine restored from a
 * snapshot reseeds each thread before its next byte. Where the kernel
 * refuses WIPEONFORK (before Linux 4.14, and always on macOS), every call
 * also compares the pid (a system call, so slower), which covers a raw
 * clone there too. Windows has no fork: its pages count as wiped. The
 * generator's other files (seeding, the epoch, the shared view) are listed
 * in system_state.h.
 *
 * Signal handlers: a per-thread marker (thread.h) says the thread is
 * inside the generator. A call that finds it set (a handler that interrupted a call
 * on its own thread) takes its bytes straight from the operating system
 * by the getrandom system call, which takes no lock and shares no state
 * with the interrupted call, so it can neither corrupt nor repeat it. The
 * interrupted call checks after its take that its state was not wiped or
 * replaced meanwhile (a handler that forked, and this is the child) and
 * serves the request again from a fresh seed if it was.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "engine.h"
#include "entropy.h"
#include "epoch.h"
#include "internal.h"
#include "policy.h"
#include "system.h"
#include "system_state.h"
#include "system_os.h"
#include "system_seed.h"
#include "testing.h"
#include "thread.h"

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

/* Not stored in the pages: WIPEONFORK would zero it in a child. */
static size_t mapping_size(void)
{
    const size_t page = shakerand_system_page_size();
    return (sizeof(struct system_state) + page - 1) & ~(page - 1);
}

/* Test hooks (src/testing.h), compiled into the testing library only;
 * elsewhere each of these macros is a constant or nothing. */
#if defined(SHAKERAND_TESTING)
static _Atomic uint64_t states_wiped;
static _Atomic int keep_exited_states, skip_wipeonfork;
static struct system_state *_Atomic last_exited_state;

uint64_t shakerand_system_states_wiped_for_testing(void) { return atomic_load(&states_wiped); }
void shakerand_system_keep_exited_states_for_testing(int keep)
{
    atomic_store(&keep_exited_states, keep);
}

const void *shakerand_system_last_exited_state_for_testing(size_t *mapped_len)
{
    *mapped_len = mapping_size();
    return atomic_load(&last_exited_state);
}

const void *shakerand_system_state_for_testing(void) { return tls_state_get(); }
const void *shakerand_system_engine_for_testing(void)
{
    const struct system_state *s = tls_state_get();
    return s != NULL ? &s->engine : NULL;
}
size_t shakerand_system_state_size_for_testing(void) { return mapping_size(); }
size_t shakerand_system_ahead_bytes_for_testing(void) { return AHEAD_BYTES; }

void shakerand_system_continuation_for_testing(const void *state_copy, void *out, size_t n)
{
    const struct system_state *s = state_copy;
    unsigned char *p = out;
    const size_t c = s->cursor < AHEAD_BYTES ? s->cursor : AHEAD_BYTES;
    const size_t from_ahead = n < AHEAD_BYTES - c ? n : AHEAD_BYTES - c;
    memcpy(p, s->ahead + c, from_ahead);
    if (n > from_ahead) {
        shakerand_engine copy;
        memcpy(&copy, &s->engine, sizeof copy);
        shakerand_engine_fill(&copy, p + from_ahead, n - from_ahead);
        shakerand_engine_wipe(&copy);
    }
}
void shakerand_system_skip_wipeonfork_for_testing(int skip)
{
    atomic_store(&skip_wipeonfork, skip);
}

#define TESTING_COUNT(counter) atomic_fetch_add_explicit(&(counter), 1, memory_order_relaxed)
#define TESTING_SKIP_WIPEONFORK() atomic_load(&skip_wipeonfork)
/* While a test keeps exited states, the last one is left mapped for it. */
#define TESTING_KEEP_EXITED(s) \
    (atomic_load(&keep_exited_states) ? (atomic_store(&last_exited_state, (s)), 1) : 0)
#else
#define TESTING_COUNT(counter) ((void)0)
#define TESTING_SKIP_WIPEONFORK() 0
#define TESTING_KEEP_EXITED(s) 0
#endif

static void wipe_and_unmap(struct system_state *s)
{
    SHAKERAND_TEST_STEP();
    shakerand_memzero(s, sizeof *s);
    SHAKERAND_TEST_STEP();
    if (!TESTING_KEEP_EXITED(s))
        shakerand_system_pages_free(s, mapping_size());
}

/* Thread exit: wipe the state so it does not outlive its thread. The
 * marker stays set and the pointer cleared from here on, so a signal
 * handler (or a later destructor) that draws on this thread is served by
 * the operating system and never touches the page being wiped.
 *
 * Windows calls the hook for a fiber's value: at thread exit for the fiber
 * running then, and whenever a fiber is deleted (docs/system.md, "Other
 * systems"). Only the calling thread's own state is wiped: a fiber deleted
 * from another thread leaves the state in use by the thread it belongs to.
 * A fiber deleted on its own thread while another fiber runs is no thread
 * exit: the state is wiped and the pointer alone cleared, so the thread's
 * next draw seeds a new state (registered in the fiber running then)
 * rather than leaving the thread on the operating system's bytes for good.
 * Told apart by the fiber that registered the state: a thread no longer
 * made of fibers (ConvertFiberToThread) is exiting, or taken to be. */
static void on_thread_exit(void *p)
{
    struct system_state *s = p;
    if (s == NULL || s->owner != shakerand_system_thread_id())
        return;
    void *const running = shakerand_system_fiber();
    if (s->fiber != NULL && running != NULL && running != s->fiber) {
        if (tls_state_get() == s)
            tls_state_set(NULL);
    } else {
        tls_inside_set(1);
        tls_state_set(NULL);
    }
    SHAKERAND_SIGNAL_FENCE();
    wipe_and_unmap(s);
    TESTING_COUNT(states_wiped);
}

static int setup_status = SHAKERAND_ENOMEM;

/* Set when setup has run: shakerand_system_view_get reads it without
 * pthread_once (which a signal handler must not enter: the thread it
 * interrupted may be inside setup). */
static atomic_int setup_done;

/* A thread's state is registered for the thread-exit hook so its exit
 * wipes it; the fork hook is the fall-back where WIPEONFORK is refused.
 * Without either the generator cannot keep its promises, so it refuses to
 * start. */
static void setup(void)
{
    shakerand_system_choose_kind();
    shakerand_epoch_watch_vm_counter(shakerand_system_vm_generation_map(NULL));
    setup_status = shakerand_system_hooks_install(on_thread_exit, shakerand_epoch_fork_child);
    atomic_store_explicit(&setup_done, 1, memory_order_release);
}

void shakerand_system_setup(void) { pthread_once(&setup_once, setup); }

int shakerand_system_setup_done(void)
{
    return atomic_load_explicit(&setup_done, memory_order_acquire);
}

#if defined(SHAKERAND_TESTING)
void shakerand_system_vmclock_path_for_testing(const char *path)
{
    pthread_once(&setup_once, setup);
    shakerand_epoch_watch_vm_counter(shakerand_system_vm_generation_map(path));
}
#endif

/* Not a status of the API: this thread may hold no state of its own, and
 * the call is served by the operating system (allocate). */
enum { NO_STATE = 1 };

/* A new state for this thread, registered for the thread-exit hook. A
 * registration is never replaced: on Windows the running fiber may already
 * hold one (a fiber that first drew on another thread), which only that
 * registration's callback will wipe; the call is then NO_STATE. */
static int allocate(struct system_state **out)
{
    pthread_once(&setup_once, setup);
    if (setup_status != SHAKERAND_OK)
        return setup_status;
    const size_t size = mapping_size();
    void *p = shakerand_system_pages_alloc(size);
    if (p == NULL)
        return SHAKERAND_ENOMEM;
    const int wiped = shakerand_system_page_mark(p, size, !TESTING_SKIP_WIPEONFORK());
    struct system_state *s = p;
    s->magic = STATE_UNSEEDED; /* zero would mean "wiped by a fork" */
    s->owner = shakerand_system_thread_id();
    s->fiber = shakerand_system_fiber();
    s->wiped_on_fork = wiped;
    const int registered = shakerand_system_thread_register(s);
    if (registered != 0) {
        shakerand_system_pages_free(p, size);
        return registered > 0 ? NO_STATE : SHAKERAND_ENOMEM;
    }
    *out = s;
    return SHAKERAND_OK;
}

/* The fast path may serve what is left of the output made ahead (never
 * make more: that takes the general path, which counts what was served
 * and looks at the budget); without WIPEONFORK nothing, so every call
 * comes to compare the pid. */
static void open_fast_path(struct system_state *s)
{
    s->served_from = s->cursor;
    s->fast_end = s->wiped_on_fork ? AHEAD_BYTES : 0;
}

/* The general path's small take: n <= AHEAD_MAX_REQUEST bytes of the
 * output made ahead, made again first if too little is left (the rest is
 * zeroed, never handed out). The cursor is committed before the bytes are
 * copied. Returns whether a kernel ran. */
static int take_ahead(struct system_state *s, unsigned char *out, size_t n)
{
    if (n == 0) /* out may be NULL */
        return 0;
    int computed = 0;
    size_t c = s->cursor;
    if (c > AHEAD_BYTES || AHEAD_BYTES - c < n) {
        if (c < AHEAD_BYTES)
            shakerand_memzero(s->ahead + c, AHEAD_BYTES - c);
        s->cursor = AHEAD_BYTES;
        SHAKERAND_SIGNAL_FENCE();
        computed = shakerand_keyed_fill_unchecked(&s->engine, shakerand_system_engine_kind,
                                                  s->ahead, AHEAD_BYTES);
        SHAKERAND_SIGNAL_FENCE();
        c = 0;
    }
    s->cursor = c + n;
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    memcpy(out, s->ahead + c, n);
    SHAKERAND_TEST_STEP();
    shakerand_memzero(s->ahead + c, n);
    return computed;
}

/* The general path's start: first use, after fork or a new epoch, the
 * byte or time budget (with what the fast path served since the general
 * path last ran). Returns the state ready to produce len bytes, or the
 * status; a seed is recorded in *used. */
static int ready(size_t len, struct system_state **out, int *used)
{
    struct system_state *s = tls_state_get();
    if (s == NULL) {
        const int status = allocate(&s);
        if (status != SHAKERAND_OK)
            return status;
        tls_state_set(s);
        SHAKERAND_TEST_STEP();
    }
    s->canary = STATE_CANARY;
    SHAKERAND_SIGNAL_FENCE();
    const int status = shakerand_system_seed_if_due(s, len, used);
    if (status != SHAKERAND_OK)
        return status;
    *out = s;
    return SHAKERAND_OK;
}

/* After a take: the state is the one the call began with, not wiped or
 * replaced by a fork made in a signal handler meanwhile (then this is the
 * child), and its epoch has not moved (a restore, or a call of
 * shakerand_system_new_epoch): else the bytes must be drawn again from a
 * fresh seed. The canary catches a wipe that the rest of a seed wrote
 * over; the epoch, VM generation and pid, read before the seed's sources,
 * a child that WIPEONFORK did not zero and a restored snapshot. */
static inline int still_sound(const struct system_state *s)
{
    SHAKERAND_TEST_STEP();
    SHAKERAND_SIGNAL_FENCE();
    return s->canary == STATE_CANARY && seeded_here(s);
}

/* A state still_sound rejected: seeded again by the next ready. Not zero,
 * which would say the kernel wiped the page. */
static void discard(struct system_state *s)
{
    note_fork_wipe(s);
    s->fast_end = 0;
    s->magic = STATE_UNSEEDED;
}

SHAKERAND_NORETURN static void seeding_failed(int status)
{
    shakerand_fatal(status == SHAKERAND_ENOMEM
                        ? "the system generator cannot be set up: out of memory or "
                          "thread-specific data keys"
                        : "the system generator cannot be seeded: the operating "
                          "system's entropy source failed");
}

/* A call made while this thread is inside the generator (from a signal
 * handler): the operating system's bytes, no lock, no shared state. */
__attribute__((noinline, cold)) static void reentrant_fill(void *out, size_t len)
{
    if (shakerand_entropy_os_signal_safe(out, len) != SHAKERAND_OK)
        shakerand_fatal("a call from a signal handler found no operating-system entropy");
}

__attribute__((noinline, cold)) static uint64_t reentrant_word(unsigned n)
{
    unsigned char b[8];
    reentrant_fill(b, n);
    return load_le(b, n);
}

/* The common case, inlined: n bytes of the output made ahead (small ones
 * copied without a call), on a thread whose state the general path left
 * open to it (open_fast_path: seeded, with WIPEONFORK), on a little-endian
 * host (where the bytes made ahead lie in order). The marker is set before the state is read. Returns 0 if
 * the case does not apply, or if the state was wiped under the take (a
 * signal handler forked and this is the child) or is of an earlier epoch:
 * out is then written again by the general path. A page a fork wiped has
 * no fast_end and epoch 0, which is never the process's; the fork
 * handler's epoch covers a kernel or emulator that accepts WIPEONFORK and
 * does nothing (qemu-user before 8.1); a restore moves the epoch or the VM
 * generation. All are checked after the take: a take from a state they
 * reject is thrown away and the general path reseeds. */
static inline int fast_take(void *out, size_t n)
{
    if (__builtin_expect(tls_inside_get() != 0, 0))
        return 0;
    tls_inside_set(1);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    struct system_state *s = tls_state_get();
    int done = 0;
    if (__builtin_expect(s != NULL, 1)) {
        const size_t c = s->cursor;
        if (__builtin_expect(
                c <= s->fast_end && n <= s->fast_end - c && shakerand_host_is_little_endian(), 1)) {
            unsigned char *src = s->ahead + c;
            s->cursor = c + n;
            SHAKERAND_SIGNAL_FENCE();
            SHAKERAND_TEST_STEP();
            if (n <= 16) {
                static const unsigned char zeros[16] = {0};
                copy_small(out, src, n);
                SHAKERAND_TEST_STEP();
                copy_small(src, zeros, n);
            } else {
                memcpy(out, src, n);
                SHAKERAND_TEST_STEP();
                memset(src, 0, n);
            }
            SHAKERAND_SIGNAL_FENCE();
            done = in_epoch(s);
        }
    }
    SHAKERAND_TEST_STEP();
    SHAKERAND_SIGNAL_FENCE();
    tls_inside_set(0);
    return done;
}

/* len bytes, or the status of a failed first seed; what the work used of
 * the stack in *used. */
__attribute__((noinline)) static int system_fill(void *out, size_t len, int *used)
{
    if (!thread_enter()) {
        reentrant_fill(out, len);
        return SHAKERAND_OK;
    }
    unsigned char *p = out;
    const size_t total = len;
    int status = SHAKERAND_OK;
    do {
        const size_t piece = len < SHAKERAND_MAX_PIECE_BYTES ? len : SHAKERAND_MAX_PIECE_BYTES;
        struct system_state *s;
        status = ready(piece, &s, used);
        if (status == NO_STATE) {
            if (len > 0)
                reentrant_fill(p, len);
            status = SHAKERAND_OK;
            break;
        }
        if (status != SHAKERAND_OK)
            break;
        if (piece <= AHEAD_MAX_REQUEST ? take_ahead(s, p, piece)
                                       : shakerand_keyed_fill_unchecked(
                                             &s->engine, shakerand_system_engine_kind, p, piece))
            shakerand_stack_used(used, SHAKERAND_STACK_KERNEL);
        if (still_sound(s)) {
            open_fast_path(s);
            len -= piece;
            if (len > 0) /* p may be NULL when len is 0 */
                p += piece;
        } else {
            /* A fork or a restore during the call: the whole request again
             * from a fresh seed, so that no two copies return a buffer
             * that begins with the same pieces. */
            discard(s);
            p = out;
            len = total;
        }
    } while (len > 0);
    thread_leave();
    return status;
}

shakerand_kind shakerand_system_kind(void)
{
    pthread_once(&setup_once, setup);
    return shakerand_system_engine_kind;
}

/* system_fill, then the stack wipe its work asks for. */
static int system_fill_and_wipe(void *out, size_t len)
{
    int used = SHAKERAND_STACK_CLEAN;
    const int status = system_fill(out, len, &used);
    if (used == SHAKERAND_STACK_SEED)
        shakerand_stack_record_bounds();
    shakerand_wipe_stack(used);
    return status;
}

int shakerand_system_init(void) { return system_fill_and_wipe(NULL, 0); }

void shakerand_system_fill(void *out, size_t len)
{
    if (out == NULL && len > 0)
        shakerand_fatal("shakerand_system_fill: out is NULL");
    if (__builtin_expect(len > 0 && len <= AHEAD_MAX_REQUEST && fast_take(out, len), 1))
        return;
    const int status = system_fill_and_wipe(out, len);
    if (status != SHAKERAND_OK)
        seeding_failed(status);
}

int shakerand_system_try_fill(void *out, size_t len)
{
    if (out == NULL && len > 0)
        return SHAKERAND_EINVAL;
    return system_fill_and_wipe(out, len);
}

/* The next n (4 or 8) bytes as a little-endian word, by the general path;
 * what the work used of the stack in *used. */
__attribute__((noinline)) static uint64_t system_word(unsigned n, int *used)
{
    if (!thread_enter())
        return reentrant_word(n);
    for (;;) {
        struct system_state *s;
        const int status = ready(n, &s, used);
        if (__builtin_expect(status != SHAKERAND_OK, 0)) {
            thread_leave();
            if (status == NO_STATE)
                return reentrant_word(n);
            seeding_failed(status);
        }
        unsigned char b[8];
        if (take_ahead(s, b, n))
            shakerand_stack_used(used, SHAKERAND_STACK_KERNEL);
        if (__builtin_expect(still_sound(s), 1)) {
            open_fast_path(s);
            thread_leave();
            return load_le(b, n);
        }
        discard(s);
    }
}

/* The general path's word, then the stack wipe its work asks for. */
static uint64_t system_word_and_wipe(unsigned n)
{
    int used = SHAKERAND_STACK_CLEAN;
    const uint64_t v = system_word(n, &used);
    if (used == SHAKERAND_STACK_SEED)
        shakerand_stack_record_bounds();
    shakerand_wipe_stack(used);
    return v;
}

uint64_t shakerand_system_u64(void)
{
    uint64_t v;
    if (__builtin_expect(fast_take(&v, 8), 1))
        return v; /* a little-endian host: the bytes in order are the word */
    return system_word_and_wipe(8);
}

uint32_t shakerand_system_u32(void)
{
    uint32_t v;
    if (__builtin_expect(fast_take(&v, 4), 1))
        return v;
    return (uint32_t)system_word_and_wipe(4);
}

__attribute__((noinline)) static int reseed_with(const void *data, size_t len)
{
    if (!thread_enter())
        return SHAKERAND_ESTATE;
    struct system_state *s = NULL;
    int used = SHAKERAND_STACK_SEED;
    int status = ready(0, &s, &used);
    if (status == NO_STATE)
        status = SHAKERAND_ESTATE;
    if (status == SHAKERAND_OK) {
        status = shakerand_system_seed_with(s, data, len);
        open_fast_path(s);
    }
    thread_leave();
    return status;
}

/* Not for signal handlers: from inside the generator it is SHAKERAND_ESTATE;
 * so it is on a thread that may hold no state (NO_STATE, and on Windows
 * after the thread-exit wipe). */
int shakerand_system_reseed_with(const void *data, size_t len)
{
    if (data == NULL && len > 0)
        return SHAKERAND_EINVAL;
    const int status = reseed_with(data, len);
    shakerand_stack_record_bounds();
    shakerand_wipe_stack(SHAKERAND_STACK_SEED);
    return status;
}

int shakerand_system_reseed(void) { return shakerand_system_reseed_with(NULL, 0); }
