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
 * clone there too. Windows has no fork: its pages count as wiped.
 *
 * The reseed budget (bytes of output or seconds, whichever comes first),
 * the clock read once per SHAKERAND_CLOCK_CHECK_BYTES and the pieces of a
 * large request are the policy of src/policy.h, stated in docs/system.md;
 * the seed derivation's constants are there too. At bulk speed a reseed
 * (one getrandom call plus the hardware reads and one hash, a few
 * microseconds) per budget of bytes costs well under 0.1 %; the time budget
 * is the interval at which Linux reseeds its own generator. The clock (one
 * that counts time suspended: shakerand_system_clock_ns) is read only on
 * the slow path, so a small request costs no system call.
 *
 * A reseed on the byte or time budget that fails (a sandbox that forbids
 * getrandom after start-up, a full descriptor table) leaves the sound state
 * serving, is counted, and is tried again at the next check; a first seed,
 * or one after fork, that fails is an error: there is no sound state then.
 *
 * Signal handlers: a per-thread marker says the thread is inside the
 * generator. A call that finds it set (a handler that interrupted a call
 * on its own thread) takes its bytes straight from the operating system
 * by the getrandom system call, which takes no lock and shares no state
 * with the interrupted call, so it can neither corrupt nor repeat it. The
 * interrupted call checks after its take that its state was not wiped or
 * replaced meanwhile (a handler that forked, and this is the child) and
 * serves the request again from a fresh seed if it was.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "entropy.h"
#include "internal.h"
#include "policy.h"
#include "system_os.h"
#include "testing.h"

enum {
    SEED_BYTES = SHAKERAND_SEED_MATERIAL_BYTES,
    /* The material and the digest of a reseed's bytes. */
    MATERIAL_MAX = SHAKERAND_SEED_MATERIAL_BYTES + SHAKERAND_EXTRA_DIGEST_BYTES,
    /* Output made ahead for small requests: about three refills, so the
     * stack wipe after the kernels (some 6 KiB zeroed) is paid once per
     * three of them; with the state's other fields it fits two pages. */
    AHEAD_BYTES = 3072,
    /* A request up to this size (a quarter of AHEAD_BYTES) is served from
     * the output made ahead; a larger one straight from the engine. */
    AHEAD_MAX_REQUEST = SHAKERAND_SYSTEM_VIEW_TAKE_MAX,
};
#define STATE_MAGIC 0x73686b7273797374ULL    /* "shkrsyst" */
#define STATE_UNSEEDED 0x73686b72756e7364ULL /* "shkrunsd": mapped, to be seeded */
#define STATE_CANARY 0x73686b7263616c6cULL   /* "shkrcall" */

/* What the fast path reads comes first, in one cache line. */
struct system_state {
    uint64_t epoch;         /* the process's epoch the engine was seeded in;
                              0, never an epoch, in a page a fork wiped */
    uint64_t vm_generation; /* the VM generation counter then, if watched */
    size_t cursor;          /* bytes of `ahead` handed out (and zeroed) */
    size_t fast_end;        /* the fast path serves a take that ends at or
                              below this: AHEAD_BYTES, or 0 (every call
                              takes the general path) */
    size_t served_from;     /* the cursor when the general path last left:
                              the fast path served from there */
    uint64_t magic;         /* zero after fork where WIPEONFORK works */
    uint64_t since_clock;   /* bytes drawn since the clock was last read */
    uint64_t since_reseed;  /* bytes drawn since the last seed */
    uint64_t deadline_ns;   /* clock time of the next timed reseed */
    uint64_t canary;        /* set by every general-path call; zero after fork
                              where WIPEONFORK works */
    long pid;               /* the process the engine was seeded in */
    unsigned long owner;    /* the thread it belongs to (Windows: its id) */
    void *fiber;            /* the fiber that registered it (Windows), or NULL */
    int wiped_on_fork;      /* no child can see it: the kernel accepted
                              MADV_WIPEONFORK, or there is no fork */
    /* The engine's output for small requests, made AHEAD_BYTES at a time
     * (the engine writes whole iterations straight here) and zeroed as it
     * is handed out. */
    SHAKERAND_ALIGN64 unsigned char ahead[AHEAD_BYTES];
    shakerand_engine engine;
};

/* Per thread: a pointer (the state itself has pages of its own) and the
 * marker, read and written only through these accessors. */
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
 * address (a shared library's initial-exec access loads the offset once). */
static _Thread_local struct thread_words {
    struct system_state *state;
    volatile sig_atomic_t inside;
} tls SHAKERAND_TLS_INITIAL_EXEC;
static inline struct system_state *tls_state_get(void) { return tls.state; }
static inline void tls_state_set(struct system_state *s) { tls.state = s; }
static inline int tls_inside_get(void) { return tls.inside; }
static inline void tls_inside_set(int inside) { tls.inside = inside; }
#endif
/* Moved by a fork (in the child) and by shakerand_system_new_epoch: a
 * state seeded in an earlier epoch is seeded again before it serves. It
 * starts at 1, so a page a fork wiped (epoch 0) is of no epoch. */
static _Atomic uint64_t epoch = 1;
/* The hypervisor's VM generation counter (system_os.h), mapped by setup,
 * which every thread with a state has been through; where none is watched,
 * a word that stays 0, so the check needs no branch of its own for that. */
static const uint64_t no_vm_counter;
static const volatile uint64_t *_Atomic vm_counter = &no_vm_counter;

/* The counter the generator watches, or NULL. */
static const volatile uint64_t *watched_vm_counter(void)
{
    const volatile uint64_t *vm = atomic_load_explicit(&vm_counter, memory_order_relaxed);
    return vm != &no_vm_counter ? vm : NULL;
}

/* The counter's word when this process began to watch it: a seed under
 * another word follows a restore the process saw. */
static _Atomic uint64_t vm_generation_at_start;

static void watch_vm_counter(const volatile uint64_t *vm)
{
    atomic_store_explicit(&vm_generation_at_start,
                          vm != NULL ? shakerand_system_vm_generation_read(vm) : 0,
                          memory_order_relaxed);
    atomic_store_explicit(&vm_counter, vm != NULL ? vm : &no_vm_counter, memory_order_relaxed);
}
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

static void on_fork_child(void) { atomic_fetch_add_explicit(&epoch, 1, memory_order_relaxed); }

/* Moved by shakerand_system_new_epoch alone (a restore hook's call, not a
 * fork): with the VM generation it names the restore a seed follows. */
static _Atomic uint64_t restores;

void shakerand_system_new_epoch(void)
{
    atomic_fetch_add_explicit(&restores, 1, memory_order_relaxed);
    /* Release: a seed that reads this epoch (acquire) reads this restore. */
    atomic_fetch_add_explicit(&epoch, 1, memory_order_release);
}

/* Whether s was seeded in this epoch and VM generation (0 where none is
 * watched), in one branch (the counter's 8 bytes as a word: an aligned
 * word's load is whole on 64-bit hosts, and a torn one on a 32-bit host
 * only costs a needless reseed). */
static inline int in_epoch(const struct system_state *s)
{
    const volatile uint64_t *vm = atomic_load_explicit(&vm_counter, memory_order_relaxed);
    return ((s->epoch ^ atomic_load_explicit(&epoch, memory_order_relaxed)) |
            (*vm ^ s->vm_generation)) == 0;
}

/* Not stored in the pages: WIPEONFORK would zero it in a child. */
static size_t mapping_size(void)
{
    const size_t page = shakerand_system_page_size();
    return (sizeof(struct system_state) + page - 1) & ~(page - 1);
}

/* Test hooks (src/testing.h), compiled into the testing library only;
 * elsewhere each of these macros is a constant or nothing. */
#if defined(SHAKERAND_TESTING)
static _Atomic uint64_t states_wiped, seed_count, clock_offset_ns;
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
uint64_t shakerand_system_seed_count_for_testing(void) { return atomic_load(&seed_count); }
void shakerand_system_clock_offset_for_testing(uint64_t ns) { atomic_store(&clock_offset_ns, ns); }
void shakerand_system_skip_wipeonfork_for_testing(int skip)
{
    atomic_store(&skip_wipeonfork, skip);
}

#define TESTING_COUNT(counter) atomic_fetch_add_explicit(&(counter), 1, memory_order_relaxed)
#define TESTING_CLOCK_OFFSET() atomic_load_explicit(&clock_offset_ns, memory_order_relaxed)
#define TESTING_SKIP_WIPEONFORK() atomic_load(&skip_wipeonfork)
/* While a test keeps exited states, the last one is left mapped for it. */
#define TESTING_KEEP_EXITED(s) \
    (atomic_load(&keep_exited_states) ? (atomic_store(&last_exited_state, (s)), 1) : 0)
#else
#define TESTING_COUNT(counter) ((void)0)
#define TESTING_CLOCK_OFFSET() 0
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

/* The build's choice, else chacha8rand (the faster engine where the two
 * were measured: BENCHMARKS.md). */
#if !defined(SHAKERAND_SYSTEM_ENGINE_DEFAULT)
#define SHAKERAND_SYSTEM_ENGINE_DEFAULT SHAKERAND_CHACHA8RAND
#endif

/* The engine every thread's generator runs, fixed by setup. */
static shakerand_kind system_kind = SHAKERAND_SYSTEM_ENGINE_DEFAULT;

/* SHAKERAND_SYSTEM_ENGINE, read once: a keyed engine's name replaces the
 * build's choice; anything else is reported and ignored. */
static void choose_kind(void)
{
    const char *name = getenv("SHAKERAND_SYSTEM_ENGINE");
    if (name == NULL || name[0] == '\0')
        return;
    shakerand_kind kind;
    if (shakerand_kind_from_name(name, &kind) == SHAKERAND_OK &&
        (kind == SHAKERAND_TURBOSHAKE256X8 || kind == SHAKERAND_CHACHA8RAND)) {
        system_kind = kind;
        return;
    }
    fprintf(stderr,
            "shakerand: SHAKERAND_SYSTEM_ENGINE=%s is not chacha8rand or turboshake256x8; "
            "using %s\n",
            name, shakerand_kind_name(system_kind));
}

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
    choose_kind();
    watch_vm_counter(shakerand_system_vm_generation_map(NULL));
    setup_status = shakerand_system_hooks_install(on_thread_exit, on_fork_child);
    atomic_store_explicit(&setup_done, 1, memory_order_release);
}

int shakerand_system_watches_vm_generation(void)
{
    pthread_once(&setup_once, setup);
    return watched_vm_counter() != NULL;
}

void shakerand_system_epoch_words(const volatile uint64_t **epoch_word,
                                  const volatile uint64_t **vm_generation)
{
    if (vm_generation != NULL)
        pthread_once(&setup_once, setup);
    /* A lock-free 64-bit atomic has the representation of the plain word. */
    _Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "the epoch is read as a plain word");
    if (epoch_word != NULL)
        *epoch_word = (const volatile uint64_t *)&epoch;
    if (vm_generation != NULL)
        *vm_generation = atomic_load_explicit(&vm_counter, memory_order_relaxed);
}

/* What shakerand_system_view_get shares is this file's own layout. */
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
    if (!atomic_load_explicit(&setup_done, memory_order_acquire)) {
        /* Set up as the first draw does: marked inside the generator, so
         * that a handler drawing meanwhile is served by the operating
         * system rather than waiting in pthread_once for the setup it
         * interrupted. Asked from such a handler (the thread below it is
         * inside, perhaps in setup): no view. */
        if (tls_inside_get())
            return SHAKERAND_ESTATE;
        tls_inside_set(1);
        SHAKERAND_SIGNAL_FENCE();
        pthread_once(&setup_once, setup);
        SHAKERAND_SIGNAL_FENCE();
        tls_inside_set(0);
    }
    view->thread = (shakerand_system_view_thread *)(void *)&tls;
    view->epoch = (const volatile uint64_t *)&epoch;
    view->vm_generation = atomic_load_explicit(&vm_counter, memory_order_relaxed);
    return SHAKERAND_OK;
#endif
}

#if defined(SHAKERAND_TESTING)
void shakerand_system_vmclock_path_for_testing(const char *path)
{
    pthread_once(&setup_once, setup);
    watch_vm_counter(shakerand_system_vm_generation_map(path));
}
#endif

static uint64_t now_ns(void) { return shakerand_system_clock_ns() + TESTING_CLOCK_OFFSET(); }

/* The seed derivation after the conditioner (src/policy.h): `material`
 * holds the conditioner's SEED_BYTES; the digest of `extra` is appended
 * when it is given. Returns the material's length. */
static size_t add_extra(unsigned char material[MATERIAL_MAX], const void *extra, size_t extra_len)
{
    if (extra == NULL)
        return SEED_BYTES;
    shakerand_turboshake256_unwiped(material + SEED_BYTES, SHAKERAND_EXTRA_DIGEST_BYTES, extra,
                                    extra_len, SHAKERAND_EXTRA_DOMAIN);
    return MATERIAL_MAX;
}

/* Keys e of `kind` from the material: chacha8rand takes a 32-byte key, the
 * material's digest; turboshake256x8 takes the material itself. */
static void key_engine(shakerand_engine *e, shakerand_kind kind, const unsigned char *material,
                       size_t len)
{
    if (kind == SHAKERAND_CHACHA8RAND) {
        unsigned char key[CHACHA8_KEY_BYTES];
        shakerand_turboshake256_unwiped(key, sizeof key, material, len,
                                        SHAKERAND_CHACHA8_KEY_DOMAIN);
        shakerand_engine_init(e, SHAKERAND_CHACHA8RAND, key, sizeof key);
        shakerand_memzero(key, sizeof key);
    } else {
        shakerand_engine_init(e, SHAKERAND_TURBOSHAKE256X8, material, len);
    }
}

#if defined(SHAKERAND_TESTING)
int shakerand_system_key_engine_for_testing(shakerand_engine *engine, shakerand_kind kind,
                                            const unsigned char *material, const void *extra,
                                            size_t extra_len)
{
    if (kind != SHAKERAND_CHACHA8RAND && kind != SHAKERAND_TURBOSHAKE256X8)
        return SHAKERAND_EINVAL;
    unsigned char m[MATERIAL_MAX];
    memcpy(m, material, SEED_BYTES);
    key_engine(engine, kind, m, add_extra(m, extra, extra_len));
    shakerand_memzero(m, sizeof m);
    return SHAKERAND_OK;
}
#endif

/* Seeds from the sources, followed by a digest of `extra` when given. The
 * epoch, the VM generation and the pid are read before the sources: a
 * signal handler that forks or moves the epoch during the seed, or a
 * snapshot taken then and restored, leaves a state marked as older than it
 * is, which the check after the take (still_sound) rejects. */
static int seed_with(struct system_state *s, const void *extra, size_t extra_len)
{
    const uint64_t seeded_epoch = atomic_load_explicit(&epoch, memory_order_acquire);
    const uint64_t restored = atomic_load_explicit(&restores, memory_order_relaxed);
    const volatile uint64_t *vm = watched_vm_counter();
    const uint64_t vm_generation = vm != NULL ? shakerand_system_vm_generation_read(vm) : 0;
    const long pid = shakerand_system_process_id();
    SHAKERAND_TEST_STEP(); /* a move from here on leaves the state older than the epoch */
    /* After a restore this process saw (a restore hook's call, or the VM
     * generation moved since the process began to watch it), every seed
     * mixes in that restore's jitter digest (src/entropy.h). */
    const uint64_t restore[2] = {restored, vm_generation};
    const int after_restore =
        restored != 0 ||
        (vm != NULL &&
         vm_generation != atomic_load_explicit(&vm_generation_at_start, memory_order_relaxed));
    unsigned char material[MATERIAL_MAX];
    const int status =
        shakerand_entropy_gather(material, SEED_BYTES, after_restore ? restore : NULL);
    SHAKERAND_TEST_STEP();
    if (status != SHAKERAND_OK)
        return status;
    const size_t len = add_extra(material, extra, extra_len);
    SHAKERAND_SECRET(material, len);
    key_engine(&s->engine, system_kind, material, len);
    SHAKERAND_TEST_STEP();
    shakerand_memzero(material, sizeof material);
    s->magic = STATE_MAGIC;
    s->epoch = seeded_epoch;
    s->vm_generation = vm_generation;
    s->pid = pid;
    shakerand_memzero(s->ahead, sizeof s->ahead); /* an earlier seed's, or a snapshot's */
    s->cursor = s->served_from = AHEAD_BYTES;
    s->fast_end = 0; /* opened by the caller (open_fast_path) */
    s->since_reseed = 0;
    s->since_clock = 0;
    s->deadline_ns = now_ns() + SHAKERAND_RESEED_NANOSECONDS;
    TESTING_COUNT(seed_count);
    return SHAKERAND_OK;
}

static int seed(struct system_state *s) { return seed_with(s, NULL, 0); }

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
        computed = shakerand_keyed_fill_unchecked(&s->engine, system_kind, s->ahead, AHEAD_BYTES);
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

static _Atomic uint64_t reseed_failures;

uint64_t shakerand_system_reseed_failures(void)
{
    return atomic_load_explicit(&reseed_failures, memory_order_relaxed);
}

/* Only the kernel zeroes a mapped page: a state found zero was wiped by a
 * fork (WIPEONFORK works here), whatever the flag, zeroed too, says. */
static inline void note_fork_wipe(struct system_state *s)
{
    if (s->magic == 0)
        s->wiped_on_fork = 1;
}

/* Seeded, in this epoch and VM generation, and in this process: the pid
 * is compared only where the kernel refused WIPEONFORK (getpid is a system
 * call, about 200 ns; the general path runs once per refill of small
 * draws). */
static inline int seeded_here(const struct system_state *s)
{
    return s->magic == STATE_MAGIC && in_epoch(s) &&
           (s->wiped_on_fork || s->pid == shakerand_system_process_id());
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
    note_fork_wipe(s);
    const int sound = seeded_here(s);
    int due = !sound;
    if (sound) {
        const size_t c = s->cursor;
        const uint64_t drawn = (c > s->served_from ? c - s->served_from : 0) + len;
        s->served_from = c;
        s->since_reseed += drawn;
        s->since_clock += drawn;
        due = s->since_reseed >= SHAKERAND_RESEED_BYTES;
        if (!due && s->since_clock >= SHAKERAND_CLOCK_CHECK_BYTES) {
            s->since_clock = 0;
            due = now_ns() >= s->deadline_ns;
        }
    }
    if (due) {
        /* After a fork the page may have been wiped, flag included. */
        const int wiped = s->wiped_on_fork;
        shakerand_stack_used(used, SHAKERAND_STACK_SEED);
        const int status = seed(s);
        s->wiped_on_fork = wiped;
        if (status == SHAKERAND_OK)
            s->since_reseed = s->since_clock = len;
        else if (!sound)
            return status;
        else /* still due: tried again at the next check */
            atomic_fetch_add_explicit(&reseed_failures, 1, memory_order_relaxed);
    }
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

/* The marker: 0 when this thread is already inside the generator. */
static inline int enter(void)
{
#if defined(_WIN32)
    /* The marker lives in the slot setup makes: the process's first call
     * makes it before marking, so that its seed is marked too. */
    if (__builtin_expect(!shakerand_system_tls_ready(), 0))
        pthread_once(&setup_once, setup);
#endif
    if (__builtin_expect(tls_inside_get() != 0, 0))
        return 0;
    tls_inside_set(1);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    return 1;
}

static inline void leave(void)
{
    SHAKERAND_TEST_STEP();
    SHAKERAND_SIGNAL_FENCE();
    tls_inside_set(0);
}

int shakerand_thread_enter(void) { return enter(); }

void shakerand_thread_leave(void) { leave(); }

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
    if (!enter()) {
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
        if (piece <= AHEAD_MAX_REQUEST
                ? take_ahead(s, p, piece)
                : shakerand_keyed_fill_unchecked(&s->engine, system_kind, p, piece))
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
    leave();
    return status;
}

shakerand_kind shakerand_system_kind(void)
{
    pthread_once(&setup_once, setup);
    return system_kind;
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
    if (!enter())
        return reentrant_word(n);
    for (;;) {
        struct system_state *s;
        const int status = ready(n, &s, used);
        if (__builtin_expect(status != SHAKERAND_OK, 0)) {
            leave();
            if (status == NO_STATE)
                return reentrant_word(n);
            seeding_failed(status);
        }
        unsigned char b[8];
        if (take_ahead(s, b, n))
            shakerand_stack_used(used, SHAKERAND_STACK_KERNEL);
        if (__builtin_expect(still_sound(s), 1)) {
            open_fast_path(s);
            leave();
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
    if (!enter())
        return SHAKERAND_ESTATE;
    struct system_state *s = NULL;
    int used = SHAKERAND_STACK_SEED;
    int status = ready(0, &s, &used);
    if (status == NO_STATE)
        status = SHAKERAND_ESTATE;
    if (status == SHAKERAND_OK) {
        status = seed_with(s, data, len);
        open_fast_path(s);
    }
    leave();
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
