/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * shakerand: cryptographically secure random numbers from Keccak and ChaCha8.
 *
 * Everything here is C11 and callable from C++ and from other languages'
 * foreign-function interfaces. Every size macro has a function twin for FFI
 * users who cannot read the header.
 *
 * Conventions: functions that can fail return an int, SHAKERAND_OK (0) on
 * success or a negative SHAKERAND_E* code, and change nothing when they fail.
 * Once an object is initialised, producing output cannot fail. Misuse that
 * cannot be reported through a return value (output from an object that was
 * never initialised, or was wiped) goes to one handler that prints a line
 * and aborts: a secure generator never hands out weak output silently.
 */
#ifndef SHAKERAND_H
#define SHAKERAND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SHAKERAND_BUILDING) && defined(__GNUC__)
#define SHAKERAND_API __attribute__((visibility("default")))
#else
#define SHAKERAND_API
#endif

#if defined(__cplusplus)
#define SHAKERAND_ALIGN64 alignas(64)
#else
#define SHAKERAND_ALIGN64 _Alignas(64)
#endif

#define SHAKERAND_VERSION_MAJOR 0
#define SHAKERAND_VERSION_MINOR 1
#define SHAKERAND_VERSION_PATCH 0
#define SHAKERAND_VERSION_STRING "0.1.0"

/* The library's version, e.g. "0.1.0". */
SHAKERAND_API const char *shakerand_version(void);

/* ---- Status codes ------------------------------------------------------ */

#define SHAKERAND_OK 0
#define SHAKERAND_EINVAL (-1)   /* an argument is out of range or NULL */
#define SHAKERAND_ESTATE (-2)   /* the call does not fit the object's state */
#define SHAKERAND_EENTROPY (-3) /* the operating system gave no entropy */
#define SHAKERAND_ENOMEM (-4)   /* memory could not be allocated */

/* A one-line English description of a status code (never NULL). */
SHAKERAND_API const char *shakerand_strerror(int status);

/* ---- Kernels ------------------------------------------------------------ */

/* The name of the kernel set in use (Keccak-p[1600] and chacha8rand code
 * for one instruction set): "portable", "avx2", "avx512", "neon", ...
 * Chosen once per process from what the CPU and OS support; the environment
 * variable SHAKERAND_KERNEL=<name> forces one (if the CPU supports it). */
SHAKERAND_API const char *shakerand_kernel_name(void);

/* ---- Extendable-output functions --------------------------------------- */
/*
 * TurboSHAKE128/256 (RFC 9861) and SHAKE128/256 (FIPS 202), incremental:
 * init, absorb any number of times in any slicing, then squeeze any number of
 * times in any slicing (the first squeeze finalises). Absorbing after the
 * first squeeze is SHAKERAND_ESTATE and changes nothing.
 */
typedef struct shakerand_xof {
    uint64_t state_[25];
    uint16_t rate_;
    uint16_t pos_;
    uint8_t rounds_;
    uint8_t domain_;
    uint8_t squeezing_;
    uint8_t reserved_;
} shakerand_xof;

/* domain: the domain-separation byte, 0x01..0x7F (RFC 9861 default 0x1F). */
SHAKERAND_API int shakerand_turboshake128_init(shakerand_xof *xof, unsigned domain);
SHAKERAND_API int shakerand_turboshake256_init(shakerand_xof *xof, unsigned domain);
SHAKERAND_API int shakerand_shake128_init(shakerand_xof *xof);
SHAKERAND_API int shakerand_shake256_init(shakerand_xof *xof);
SHAKERAND_API int shakerand_xof_absorb(shakerand_xof *xof, const void *in, size_t len);
SHAKERAND_API int shakerand_xof_squeeze(shakerand_xof *xof, void *out, size_t len);
SHAKERAND_API void shakerand_xof_wipe(shakerand_xof *xof);

/* RandomSHAKE's ratchet, for a squeezing XOF: zero state bytes [0, n) and
 * apply the permutation, so the state cannot be run back to the output
 * before it; squeezing goes on at the same offset in the block. A block
 * squeezed to its end is first permuted, as the next squeeze would, so the
 * step is the one RandomSHAKE's XOF takes (docs/engines.md, step 3, is this
 * with n = 32 after every 8 blocks). SHAKERAND_ESTATE before the first
 * squeeze, SHAKERAND_EINVAL for n > 200 (nothing changes then). */
SHAKERAND_API int shakerand_xof_ratchet(shakerand_xof *xof, size_t n);

/* One-shot forms: out = XOF(in)[0, out_len). */
SHAKERAND_API int shakerand_turboshake128(void *out, size_t out_len, const void *in, size_t in_len,
                                          unsigned domain);
SHAKERAND_API int shakerand_turboshake256(void *out, size_t out_len, const void *in, size_t in_len,
                                          unsigned domain);
SHAKERAND_API int shakerand_shake128(void *out, size_t out_len, const void *in, size_t in_len);
SHAKERAND_API int shakerand_shake256(void *out, size_t out_len, const void *in, size_t in_len);

/* ---- Engines (deterministic random bit generators) ---------------------- */
/*
 * An engine turns a seed of any length (empty included; exactly 32 bytes
 * for chacha8rand) into a stream of bytes. The stream is fixed by the kind
 * and the seed: the same on every platform, kernel and version, however it
 * is sliced into requests.
 *
 *   SHAKERAND_TURBOSHAKE256  RandomSHAKE's TurboSHAKE256 stream (for its
 *                            136-byte seeds byte-identical to RandomSHAKE).
 *   SHAKERAND_SHAKE256       the same construction over SHAKE256.
 *   SHAKERAND_TURBOSHAKE256X8  8 TurboSHAKE256 sponges per 8-way
 *                            permutation, key erased every 1056 bytes.
 *   SHAKERAND_CHACHA8RAND    C2SP chacha8rand: for a 32-byte seed, the
 *                            bytes of Go's math/rand/v2 NewChaCha8(seed)
 *                            (its Uint64 words, little-endian), key erased
 *                            every 992 bytes; the fastest engine.
 *
 * The first two output periods of 1088 bytes with a ratchet between them
 * (bytes 0..31 zeroed, then permuted), so a state captured later cannot be
 * run backwards to earlier periods; the keyed engines (turboshake256x8,
 * chacha8rand) rekey from their own output every 1056 (992) bytes and wipe
 * the old state. docs/engines.md has the
 * exact definitions.
 */
typedef enum shakerand_kind {
    SHAKERAND_TURBOSHAKE256 = 1,
    SHAKERAND_SHAKE256 = 2,
    SHAKERAND_TURBOSHAKE256X8 = 3,
    SHAKERAND_CHACHA8RAND = 4,
} shakerand_kind;

#define SHAKERAND_ENGINE_SIZE 4096

/* Caller-allocated (stack, static, or any memory aligned to 64 bytes). */
typedef struct shakerand_engine {
    SHAKERAND_ALIGN64 unsigned char opaque_[SHAKERAND_ENGINE_SIZE];
} shakerand_engine;

/* sizeof(shakerand_engine); its alignment is 64. */
SHAKERAND_API size_t shakerand_engine_size(void);

/* Seed the engine. SHAKERAND_EINVAL for a NULL engine, an unknown kind, a
 * NULL seed with seed_len > 0 or a chacha8rand seed that is not 32 bytes
 * (the engine is then left as it was). */
SHAKERAND_API int shakerand_engine_init(shakerand_engine *engine, shakerand_kind kind,
                                        const void *seed, size_t seed_len);

/* The next len bytes of the stream. */
SHAKERAND_API void shakerand_engine_fill(shakerand_engine *engine, void *out, size_t len);

/* The next 8 (4) bytes of the stream, read little-endian. */
SHAKERAND_API uint64_t shakerand_engine_u64(shakerand_engine *engine);
SHAKERAND_API uint32_t shakerand_engine_u32(shakerand_engine *engine);

/* Zeroise the engine; it must be initialised again before use. */
SHAKERAND_API void shakerand_engine_wipe(shakerand_engine *engine);

/* The kinds, as one table every front end asks instead of listing them:
 * shakerand_kind_count() of them, the i-th being shakerand_kind_at(i)
 * (0, no kind, for i >= the count). */
SHAKERAND_API size_t shakerand_kind_count(void);
SHAKERAND_API shakerand_kind shakerand_kind_at(size_t index);

/* "turboshake256", "shake256", "turboshake256x8", "chacha8rand"; NULL for
 * an unknown kind. */
SHAKERAND_API const char *shakerand_kind_name(shakerand_kind kind);

/* The kind called `name`; SHAKERAND_EINVAL (and *kind untouched) if none. */
SHAKERAND_API int shakerand_kind_from_name(const char *name, shakerand_kind *kind);

/* The seed length the kind requires (32 for chacha8rand), or 0 if it takes
 * a seed of any length, the empty one included (0 for an unknown kind). */
SHAKERAND_API size_t shakerand_kind_seed_size(shakerand_kind kind);

/* The bytes the kind hands out between two ratchets or rekeys (1088,
 * 1088, 1056, 992 in the order above; 0 for an unknown kind): a front end
 * that buffers output sizes its buffer by it. */
SHAKERAND_API size_t shakerand_kind_block_size(shakerand_kind kind);

/* ---- Entropy and the system generator ---------------------------------- */
/*
 * The system generator is the default, non-deterministic generator: one
 * chacha8rand engine per thread (turboshake256x8 where the build option or
 * the environment variable SHAKERAND_SYSTEM_ENGINE, read once, says so), seeded on first use from the entropy
 * sources, reseeded on a budget of output bytes and of time, after fork()
 * in the child, and on request; its state is wiped when the thread exits
 * and kept out of core dumps. No locks on the hot path. docs/system.md has
 * the policy (the reseed budget and the seed derivation), the failure
 * modes and the limits of fork detection.
 *
 * Seed material is TurboSHAKE256 of bytes from the operating system (the
 * vDSO getrandom of Linux 6.11+, else getrandom, else getentropy, else
 * /dev/urandom, accepted only as the kernel's character device), bytes from
 * each hardware source that passed its start-up health check (RDSEED,
 * RDRAND, DARN, RNDRRS, RNDR), and a counter (docs/system.md). Hardware is
 * mixed in, never used alone; without the operating system there is no
 * seed.
 *
 * Signal handlers. shakerand_system_fill, shakerand_system_try_fill,
 * shakerand_system_u64 and shakerand_system_u32 (and, with a NULL engine,
 * shakerand_uniform_*, shakerand_range_*, shakerand_double, shakerand_float
 * and shakerand_uuid4, which draw only through them) are
 * async-signal-safe on a thread that has already drawn or called
 * shakerand_system_init (a thread's very first call maps its state and
 * registers a thread key, which a handler should not do). A handler that
 * interrupts a call of its own thread into the library is served by the
 * getrandom system call instead of the thread's generator: it neither
 * disturbs nor repeats the interrupted call (shakerand_entropy and
 * shakerand_sources mark the thread too, so such a handler never waits for
 * the lock they hold). Not async-signal-safe: seeded engines shared with
 * the interrupted code, shakerand_below (it allocates), shakerand_uuid7 (a
 * mutex), and the reseed functions (which return SHAKERAND_ESTATE from
 * inside a call of their own thread).
 */

/* The engine kind every thread's generator runs: SHAKERAND_CHACHA8RAND
 * unless the build (CMake option SHAKERAND_SYSTEM_ENGINE) or the
 * environment variable SHAKERAND_SYSTEM_ENGINE=turboshake256x8, read once
 * at the first use, chose SHAKERAND_TURBOSHAKE256X8. */
SHAKERAND_API shakerand_kind shakerand_system_kind(void);

/* Seed the calling thread's generator now. SHAKERAND_EENTROPY if the
 * operating system gave no entropy, SHAKERAND_ENOMEM if the thread's state
 * could not be mapped or registered (nothing is produced then). Optional:
 * the first use seeds implicitly, and a failure there is fatal. */
SHAKERAND_API int shakerand_system_init(void);

/* len bytes from the calling thread's generator. Cannot fail once seeded;
 * if the thread's first seed, or its first after fork(), fails (no entropy
 * from the operating system, no memory for its state) the fatal handler
 * runs. */
SHAKERAND_API void shakerand_system_fill(void *out, size_t len);
SHAKERAND_API uint64_t shakerand_system_u64(void);
SHAKERAND_API uint32_t shakerand_system_u32(void);

/* shakerand_system_fill that returns a seeding failure instead of calling
 * the fatal handler: SHAKERAND_EENTROPY (no seed could be drawn) or
 * SHAKERAND_ENOMEM (no memory for the thread's state), with out untouched
 * (unless a signal handler forked during the call and this child then
 * could not seed: the part already written stays).
 * Only a thread's first seed, or its first after fork(), can fail this
 * way; a later reseed that fails
 * is counted (shakerand_system_reseed_failures) and retried, and the
 * generator keeps serving from its sound state meanwhile. For front ends
 * that raise an error (Java's JNI path). */
SHAKERAND_API int shakerand_system_try_fill(void *out, size_t len);

/* How many automatic reseeds (byte or time budget) have failed in this
 * process, in all threads. Non-zero means the operating system stopped
 * giving entropy after start-up (a sandbox, a full descriptor table): the
 * generators keep serving from their last sound seed and retry at the next
 * check. */
SHAKERAND_API uint64_t shakerand_system_reseed_failures(void);

/* Reseed the calling thread's generator from the sources now. On failure
 * the generator is left as it was: SHAKERAND_EENTROPY (no entropy),
 * SHAKERAND_ENOMEM (no state could be set up), SHAKERAND_ESTATE (called
 * from a signal handler inside a call of its own thread). */
SHAKERAND_API int shakerand_system_reseed(void);

/* The same, also mixing in len caller bytes (Java's setSeed): the new seed
 * is the sources' material followed by a digest of data (docs/system.md),
 * so the bytes add to the entropy and never replace it. SHAKERAND_EINVAL
 * (nothing changes) if data is NULL and len > 0. */
SHAKERAND_API int shakerand_system_reseed_with(const void *data, size_t len);

/* Starts a new epoch: every thread's generator seeds again from the sources
 * before it hands out another byte, bytes it had computed and not handed
 * out included. For a restore hook (a VM or process restored from a
 * snapshot, perhaps many times: AWS Lambda SnapStart, CRaC, Firecracker),
 * a SIGCONT handler, or anything else that may have copied this process's
 * memory. Async-signal-safe (one atomic increment); the reseeds happen in
 * each thread's next call. Where the hypervisor keeps a VM generation
 * counter that this library watches (shakerand_system_watches_vm_generation),
 * a restore starts a new epoch without this call. docs/system.md,
 * "Snapshots and clones". */
SHAKERAND_API void shakerand_system_new_epoch(void);

/* 1 if every call compares a word of the hypervisor's that a restore from
 * a snapshot changes (Linux's vmclock device, /dev/vmclock0: its VM
 * generation counter where its flags say the hypervisor keeps one, else
 * its clock disruption marker), so that a restored snapshot reseeds by
 * itself; 0 if only shakerand_system_new_epoch starts a new epoch here. */
SHAKERAND_API int shakerand_system_watches_vm_generation(void);

/* For a front end that keeps system-generator output in a buffer of its
 * own (numpy's bit generator, Go's streams, Java's per-thread buffer): the
 * words that say whether a buffer is still of this epoch. *epoch is the
 * process's epoch; *vm_generation the VM generation counter's word, a word
 * that stays 0 when none is watched (never NULL). Read both (as atomic 64-bit loads) before filling
 * the buffer, and compare both before handing out each value from it: a
 * change means the buffer is of an older epoch, to be dropped and filled
 * again. The addresses stay valid for the life of the process. Asking for
 * vm_generation sets the system generator up (as its first use does: the
 * environment is read then); asking for the epoch alone does not. */
SHAKERAND_API void shakerand_system_epoch_words(const volatile uint64_t **epoch,
                                                const volatile uint64_t **vm_generation);

/* For a front end that inlines the system generator's small takes (the Rust
 * crate does): the words the core's own fast path reads, in layout
 * SHAKERAND_SYSTEM_VIEW_LAYOUT. A take follows the core's fast path
 * exactly (docs/system.md, "Inlined takes"): if thread->inside is 0, set it
 * to 1; read thread->state; if it is not NULL and n <= fast_end - cursor
 * (with cursor <= fast_end), advance cursor by n, then copy the n bytes at
 * SHAKERAND_SYSTEM_VIEW_AHEAD_OFFSET + the old cursor from the state's
 * start and zero them there; the take counts only if the state's epoch and
 * vm_generation still equal *epoch and *vm_generation; set inside to 0.
 * Each step is separated from the next by a compiler (signal) fence, since
 * a signal handler on the same thread may run between any two. A take that
 * does not count, or finds inside set or too little made ahead, is served
 * by shakerand_system_u64, _u32 or _fill instead. Takes are at most
 * SHAKERAND_SYSTEM_VIEW_TAKE_MAX bytes.
 *
 * Fills *view for the calling thread and returns SHAKERAND_OK; the thread
 * word stays valid for the thread's life, the others for the process's.
 * SHAKERAND_ESTATE (view untouched) where the core has no fast path to
 * share (Windows, macOS, big-endian hosts), its marker is not an int
 * (FreeBSD's sig_atomic_t is a long), or its layout is not `layout`: every
 * value then comes from a call; also from a signal handler that interrupted
 * this thread's first use of the generator. Sets the system generator up
 * (as a first draw does) but seeds nothing. */
#define SHAKERAND_SYSTEM_VIEW_LAYOUT 1u
#define SHAKERAND_SYSTEM_VIEW_AHEAD_OFFSET 128
#define SHAKERAND_SYSTEM_VIEW_TAKE_MAX 768

typedef struct shakerand_system_view_state {
    uint64_t epoch;         /* the process's epoch the state was seeded in */
    uint64_t vm_generation; /* the VM generation counter's word then */
    size_t cursor;          /* bytes made ahead that were handed out */
    size_t fast_end;        /* a take may end at or below this (0: none may) */
} shakerand_system_view_state;

typedef struct shakerand_system_view_thread {
    shakerand_system_view_state *state; /* NULL until the thread's first draw */
    volatile int inside;                /* the thread is inside the generator */
} shakerand_system_view_thread;

typedef struct shakerand_system_view {
    shakerand_system_view_thread *thread;   /* the calling thread's */
    const volatile uint64_t *epoch;         /* the process's epoch */
    const volatile uint64_t *vm_generation; /* never NULL */
} shakerand_system_view;

SHAKERAND_API int shakerand_system_view_get(shakerand_system_view *view, unsigned layout);

/* Opt-in: with SHAKERAND_INLINE_SYSTEM defined before this header is first
 * included, shakerand_system_u64_inline, _u32_inline and _fill_inline do
 * the take above in the caller's own code (no call, unless too little is
 * made ahead or the library shares no view of this layout) and are
 * otherwise shakerand_system_u64, _u32 and _fill, with the same guarantees
 * (docs/system.md, "Inlined takes"); the C++ header then also offers
 * shakerand::inline_system_rng. GCC and Clang; elsewhere, and on Windows,
 * they are the calls. The view is asked after a thread's first value, and
 * kept in a thread-local of the caller's: in a module loaded by dlopen a
 * thread's first use of that thread-local may allocate, so let a thread draw
 * once outside signal handlers before its handlers draw. */
#if defined(SHAKERAND_INLINE_SYSTEM)
#define SHAKERAND_SYSTEM_INLINE_DEFINED 1
#if defined(__cplusplus)
#define SHAKERAND_INLINE_FN_ inline
#define SHAKERAND_PTR_CAST_(type, p) reinterpret_cast<type>(p)
#define SHAKERAND_NULL_ nullptr
#else
#define SHAKERAND_INLINE_FN_ static inline
#define SHAKERAND_PTR_CAST_(type, p) ((type)(p))
#define SHAKERAND_NULL_ NULL
#endif
/* shakerand's own tests define it to land a handler at each step. */
#if !defined(SHAKERAND_INLINE_STEP_FOR_TESTING)
#define SHAKERAND_INLINE_STEP_FOR_TESTING(step) ((void)0)
#endif
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#if defined(__cplusplus)
#define SHAKERAND_THREAD_LOCAL_ thread_local
#else
#define SHAKERAND_THREAD_LOCAL_ _Thread_local
#endif
/* The calling thread's view (a NULL thread until it is asked, and where
 * the library shares none), and whether it was asked. */
typedef struct shakerand_system_view_cache_ {
    shakerand_system_view view;
    int asked;
} shakerand_system_view_cache_;

SHAKERAND_INLINE_FN_ shakerand_system_view_cache_ *shakerand_system_view_cache_inline_(void)
{
    static SHAKERAND_THREAD_LOCAL_ shakerand_system_view_cache_ cache;
    return &cache;
}

/* Asked once per thread, after a value from a call (the thread is set up
 * then); the thread word is stored last, as a take reads it first. */
SHAKERAND_INLINE_FN_ void shakerand_system_view_ask_inline_(void)
{
    shakerand_system_view_cache_ *cache = shakerand_system_view_cache_inline_();
    shakerand_system_view got;
    if (cache->asked)
        return;
    if (shakerand_system_view_get(&got, SHAKERAND_SYSTEM_VIEW_LAYOUT) == SHAKERAND_OK) {
        cache->view.epoch = got.epoch;
        cache->view.vm_generation = got.vm_generation;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        cache->view.thread = got.thread;
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    cache->asked = 1;
}

/* n <= SHAKERAND_SYSTEM_VIEW_TAKE_MAX bytes of the thread's output made
 * ahead, zeroed there; 0 if the library must serve them (out may then hold
 * bytes to be overwritten). */
SHAKERAND_INLINE_FN_ int shakerand_system_take_inline_(void *out, size_t n)
{
    const shakerand_system_view *v = &shakerand_system_view_cache_inline_()->view;
    shakerand_system_view_thread *t = v->thread;
    shakerand_system_view_state *s;
    size_t c, end;
    unsigned char *src;
    int done = 0;
    if (t == SHAKERAND_NULL_ || t->inside)
        return 0;
    t->inside = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    SHAKERAND_INLINE_STEP_FOR_TESTING(0);
    s = t->state;
    if (s != SHAKERAND_NULL_) {
        c = s->cursor;
        end = s->fast_end;
        if (c <= end && n <= end - c) {
            s->cursor = c + n;
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            SHAKERAND_INLINE_STEP_FOR_TESTING(1);
            src = SHAKERAND_PTR_CAST_(unsigned char *, s) + SHAKERAND_SYSTEM_VIEW_AHEAD_OFFSET + c;
            __builtin_memcpy(out, src, n);
            SHAKERAND_INLINE_STEP_FOR_TESTING(2);
            __builtin_memset(src, 0, n);
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            SHAKERAND_INLINE_STEP_FOR_TESTING(3);
            done = ((s->epoch ^ *v->epoch) | (s->vm_generation ^ *v->vm_generation)) == 0;
        }
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    SHAKERAND_INLINE_STEP_FOR_TESTING(4);
    t->inside = 0;
    return done;
}

SHAKERAND_INLINE_FN_ uint64_t shakerand_system_u64_inline(void)
{
    uint64_t v;
    if (__builtin_expect(shakerand_system_take_inline_(&v, sizeof v), 1))
        return v;
    v = shakerand_system_u64();
    shakerand_system_view_ask_inline_();
    return v;
}

SHAKERAND_INLINE_FN_ uint32_t shakerand_system_u32_inline(void)
{
    uint32_t v;
    if (__builtin_expect(shakerand_system_take_inline_(&v, sizeof v), 1))
        return v;
    v = shakerand_system_u32();
    shakerand_system_view_ask_inline_();
    return v;
}

SHAKERAND_INLINE_FN_ void shakerand_system_fill_inline(void *out, size_t len)
{
    if (len > 0 && len <= SHAKERAND_SYSTEM_VIEW_TAKE_MAX && out != SHAKERAND_NULL_ &&
        shakerand_system_take_inline_(out, len))
        return;
    shakerand_system_fill(out, len);
    shakerand_system_view_ask_inline_();
}
#undef SHAKERAND_THREAD_LOCAL_
#else
SHAKERAND_INLINE_FN_ uint64_t shakerand_system_u64_inline(void) { return shakerand_system_u64(); }
SHAKERAND_INLINE_FN_ uint32_t shakerand_system_u32_inline(void) { return shakerand_system_u32(); }
SHAKERAND_INLINE_FN_ void shakerand_system_fill_inline(void *out, size_t len)
{
    shakerand_system_fill(out, len);
}
#endif
#undef SHAKERAND_INLINE_FN_
#undef SHAKERAND_PTR_CAST_
#undef SHAKERAND_NULL_
#endif

/* len bytes of fresh conditioned entropy straight from the sources (for
 * seeding other generators, e.g. Java's generateSeed). Never blocks after
 * the kernel's pool is initialised. SHAKERAND_EENTROPY, out untouched, if
 * the operating system gives nothing. Called by a signal handler inside a
 * call of its own thread, it returns the operating system's bytes alone
 * (the sources' lock may be held). */
SHAKERAND_API int shakerand_entropy(void *out, size_t len);

/* The handler for unrecoverable failures (no entropy at a point where an
 * error cannot be returned, use of a wiped engine). It receives a one-line
 * message and must not return; if it does, abort() follows. NULL restores
 * the default, which prints the message to stderr and aborts. */
typedef void (*shakerand_fatal_handler)(const char *message);
SHAKERAND_API void shakerand_set_fatal_handler(shakerand_fatal_handler handler);

typedef struct shakerand_source_info {
    const char *name;   /* "os", "rdseed", "rdrand", "darn", "rndrrs", "rndr" */
    const char *method; /* for "os": "getrandom (vDSO)", "getrandom", "getentropy"
                           or "/dev/urandom" */
    int present;        /* the machine has it */
    int used;           /* it is mixed into seeds */
    const char *reason; /* why it is not used, else NULL */
} shakerand_source_info;

/* Fills up to max entries (OS first) and returns how many sources this
 * build knows; call with max 0 to count. */
SHAKERAND_API size_t shakerand_sources(shakerand_source_info *out, size_t max);

/* ---- Samplers ------------------------------------------------------------ */
/*
 * Every sampler draws from `engine`, or from the calling thread's system
 * generator when `engine` is NULL. Results are unbiased: every value of the
 * range is exactly equally likely. Functions that take a bound return
 * SHAKERAND_EINVAL (and write nothing) for an empty range.
 */

/* Uniform in [0, n). n == 0 is SHAKERAND_EINVAL. */
SHAKERAND_API int shakerand_uniform_u32(shakerand_engine *engine, uint32_t n, uint32_t *out);
SHAKERAND_API int shakerand_uniform_u64(shakerand_engine *engine, uint64_t n, uint64_t *out);

/* Uniform in [lo, hi], both included; the full range is allowed. lo > hi
 * is SHAKERAND_EINVAL. */
SHAKERAND_API int shakerand_range_u64(shakerand_engine *engine, uint64_t lo, uint64_t hi,
                                      uint64_t *out);
SHAKERAND_API int shakerand_range_i64(shakerand_engine *engine, int64_t lo, int64_t hi,
                                      int64_t *out);

/* A double in [0, 1) with 53 random bits (k / 2^53), a float with 24. */
SHAKERAND_API double shakerand_double(shakerand_engine *engine);
SHAKERAND_API float shakerand_float(shakerand_engine *engine);

/* Methods for big ranges. */
typedef enum shakerand_method {
    SHAKERAND_RNG_BC_1 = 1,       /* Optimized Simple Discard, bit by bit (default) */
    SHAKERAND_RNG_BC_8 = 2,       /* the same, a byte at a time */
    SHAKERAND_SIMPLE_DISCARD = 3, /* NIST SP 800-90A Rev. 1, A.5.1 */
    SHAKERAND_SIMPLE_MODULAR = 4, /* NIST SP 800-90A Rev. 1, A.5.3, s = 128 (bias < 2^-128) */
} shakerand_method;

/*
 * Uniform in [0, r), r given as r_len big-endian bytes (leading zero bytes
 * allowed); the result is written to out as r_len big-endian bytes. r == 0
 * (or r_len == 0) is SHAKERAND_EINVAL; r == 1 writes zero and draws
 * nothing. If bits_drawn is not NULL, the number of bits the method took
 * from the generator is added to it, counted as the Optimized Simple
 * Discard paper counts them: RNG-BC-1 counts every bit it generated
 * (m for the accepted candidate plus the bits regenerated after each
 * rejection); RNG-BC-8 counts each generated byte as 8 bits, except bytes
 * in the position of r's top byte, which count the m mod 8 bits kept after
 * masking (8 if m is a multiple of 8); Simple Discard counts m bits per
 * candidate and Simple Modular m + 128. m is r's bit length.
 * The methods branch on rejected candidates and on where an accepted one
 * first falls below r (docs/samplers.md says what that reveals).
 */
SHAKERAND_API int shakerand_below(shakerand_engine *engine, shakerand_method method,
                                  const uint8_t *r, size_t r_len, uint8_t *out,
                                  uint64_t *bits_drawn);

/* "rng-bc-1", "rng-bc-8", "simple-discard", "simple-modular"; NULL if unknown. */
SHAKERAND_API const char *shakerand_method_name(shakerand_method method);
SHAKERAND_API int shakerand_method_from_name(const char *name, shakerand_method *method);

/* UUIDs (RFC 9562), 16 bytes in network order. Version 4: 122 random bits.
 * Version 7: 48-bit Unix milliseconds, then a 42-bit counter (RFC 9562
 * section 6.2, method 1: randomly initialised each millisecond with its top
 * bit clear, incremented within one, and on overflow the timestamp moves
 * on), then 32 random bits; monotonic within the process even when the
 * clock stalls or steps back. */
SHAKERAND_API void shakerand_uuid4(shakerand_engine *engine, uint8_t uuid[16]);
SHAKERAND_API void shakerand_uuid7(shakerand_engine *engine, uint8_t uuid[16]);

/* The canonical text form: 36 characters, lower case, and a NUL. */
#define SHAKERAND_UUID_STRING_SIZE 37
SHAKERAND_API void shakerand_uuid_format(const uint8_t uuid[16],
                                         char text[SHAKERAND_UUID_STRING_SIZE]);

/* ---- Utilities ----------------------------------------------------------- */

/* Zeroise memory in a way the compiler cannot remove as a dead store. */
SHAKERAND_API void shakerand_memzero(void *p, size_t len);

#ifdef __cplusplus
}
#endif

#endif
