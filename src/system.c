/*
 * The system generator: one turboshake256x8 engine per thread.
 *
 * Each thread's state lives in its own anonymous mapping marked
 * MADV_WIPEONFORK (a child process sees it zeroed, so it cannot repeat the
 * parent's stream even after a raw clone that skips fork handlers) and
 * MADV_DONTDUMP (kept out of core dumps). A pthread_atfork child handler
 * bumps a generation counter, checked on every call. Where the kernel
 * refuses WIPEONFORK (before Linux 4.14), every call also compares the pid
 * (a system call, so slower), which covers a raw clone there too.
 *
 * Reseed budget: 16 MiB of output or 60 seconds, whichever comes first. At
 * bulk speed a reseed (one getrandom call plus the hardware reads and one
 * hash, a few microseconds) every 16 MiB costs well under 0.1 %; 60 s is
 * the interval at which Linux reseeds its own generator. The clock
 * (CLOCK_BOOTTIME, which counts time suspended) is read only on the slow
 * path, once per 4 KiB drawn, so a small request costs no system call: a
 * thread that draws less than 4 KiB a minute reseeds at its next 4 KiB.
 * Large requests are served in pieces of at most 1 MiB, each through the
 * same checks.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "entropy.h"
#include "internal.h"

enum {
    SEED_BYTES = 64,
    CHECK_INTERVAL_BYTES = 4096,
    MAX_PIECE_BYTES = 1 << 20,
};
#define RESEED_BYTES ((uint64_t)16 << 20)
#define RESEED_NANOSECONDS ((uint64_t)60 * 1000000000u)
#define STATE_MAGIC 0x73686b7273797374ULL    /* "shkrsyst" */
#define STATE_UNSEEDED 0x73686b72756e7364ULL /* "shkrunsd": mapped, never seeded */

struct system_state {
    shakerand_engine engine;
    uint64_t magic;        /* zero after fork where WIPEONFORK works */
    uint64_t generation;   /* fork generation the engine was seeded in */
    uint64_t until_check;  /* bytes left before the slow path looks again */
    uint64_t granted;      /* until_check as the slow path last set it */
    uint64_t since_reseed; /* bytes drawn since the last seed */
    uint64_t deadline_ns;  /* CLOCK_BOOTTIME time of the next timed reseed */
    pid_t pid;
    int wiped_on_fork;     /* the kernel accepted MADV_WIPEONFORK */
};

#if defined(__GNUC__)
#define TLS_INITIAL_EXEC __attribute__((tls_model("initial-exec")))
#else
#define TLS_INITIAL_EXEC
#endif

/* One pointer of thread-local storage; the state itself is mapped. */
static _Thread_local struct system_state *tls_state TLS_INITIAL_EXEC;
static _Atomic uint64_t fork_generation;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;

static void on_fork_child(void)
{
    atomic_fetch_add_explicit(&fork_generation, 1, memory_order_relaxed);
}

/* Not stored in the mapping: WIPEONFORK would zero it in a child. */
static size_t mapping_size(void)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (sizeof(struct system_state) + page - 1) & ~(page - 1);
}

static _Atomic uint64_t states_wiped;
static _Atomic int keep_exited_states;
static struct system_state *_Atomic last_exited_state;

uint64_t shakerand_system_states_wiped_for_testing(void) { return atomic_load(&states_wiped); }
void shakerand_system_keep_exited_states_for_testing(int keep) { atomic_store(&keep_exited_states, keep); }

const void *shakerand_system_last_exited_state_for_testing(size_t *mapped_len)
{
    *mapped_len = mapping_size();
    return atomic_load(&last_exited_state);
}

const void *shakerand_system_state_for_testing(void) { return tls_state; }

static void wipe_and_unmap(struct system_state *s)
{
    shakerand_memzero(s, sizeof *s);
    if (atomic_load(&keep_exited_states))
        atomic_store(&last_exited_state, s); /* the test inspects, then unmaps */
    else
        munmap(s, mapping_size());
}

/* Thread exit: wipe the state so it does not outlive its thread. */
static void on_thread_exit(void *p)
{
    if (p != NULL) {
        wipe_and_unmap(p);
        tls_state = NULL;
        atomic_fetch_add(&states_wiped, 1);
    }
}

static void setup(void)
{
    pthread_atfork(NULL, NULL, on_fork_child);
    pthread_key_create(&exit_key, on_thread_exit);
}

static _Atomic uint64_t seed_count;
static _Atomic uint64_t clock_offset_ns;

static uint64_t now_ns(void)
{
    struct timespec ts;
#if defined(CLOCK_BOOTTIME)
    clock_gettime(CLOCK_BOOTTIME, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec +
           atomic_load_explicit(&clock_offset_ns, memory_order_relaxed);
}

uint64_t shakerand_system_seed_count_for_testing(void) { return atomic_load(&seed_count); }

void shakerand_system_clock_offset_for_testing(uint64_t ns) { atomic_store(&clock_offset_ns, ns); }

static _Atomic int skip_wipeonfork;

void shakerand_system_skip_wipeonfork_for_testing(int skip) { atomic_store(&skip_wipeonfork, skip); }

/* Seeds from the sources, followed by a digest of `extra` when given. */
static int seed_with(struct system_state *s, const void *extra, size_t extra_len)
{
    unsigned char material[SEED_BYTES + 32];
    size_t len = SEED_BYTES;
    const int status = shakerand_entropy_gather(material, SEED_BYTES);
    if (status != SHAKERAND_OK)
        return status;
    if (extra != NULL) {
        shakerand_turboshake256(material + SEED_BYTES, 32, extra, extra_len, 0x23);
        len += 32;
    }
    SHAKERAND_SECRET(material, len);
    shakerand_engine_init(&s->engine, SHAKERAND_TURBOSHAKE256X8, material, len);
    shakerand_memzero(material, sizeof material);
    s->magic = STATE_MAGIC;
    s->generation = atomic_load_explicit(&fork_generation, memory_order_relaxed);
    s->pid = getpid();
    s->since_reseed = 0;
    s->deadline_ns = now_ns() + RESEED_NANOSECONDS;
    atomic_fetch_add_explicit(&seed_count, 1, memory_order_relaxed);
    return SHAKERAND_OK;
}

static int seed(struct system_state *s) { return seed_with(s, NULL, 0); }

static struct system_state *allocate(void)
{
    pthread_once(&setup_once, setup);
    const size_t size = mapping_size();
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    int wiped = 0;
#if defined(MADV_WIPEONFORK)
    wiped = !atomic_load(&skip_wipeonfork) && madvise(p, size, MADV_WIPEONFORK) == 0;
#endif
#if defined(MADV_DONTDUMP)
    (void)madvise(p, size, MADV_DONTDUMP);
#endif
    struct system_state *s = p;
    s->magic = STATE_UNSEEDED; /* zero would mean "wiped by a fork" */
    s->wiped_on_fork = wiped;
    pthread_setspecific(exit_key, s);
    return s;
}

/* How many bytes the fast path may serve before the slow path looks again:
 * without WIPEONFORK none, so every call comes to compare the pid. */
static void grant(struct system_state *s)
{
    s->until_check = s->granted = s->wiped_on_fork ? CHECK_INTERVAL_BYTES : 0;
}

/* Everything that is not the common case: first use, after fork, on the
 * byte or time budget. Returns the state ready to produce, or the status. */
static int prepare(size_t len, struct system_state **out)
{
    struct system_state *s = tls_state;
    if (s == NULL) {
        s = allocate();
        if (s == NULL)
            return SHAKERAND_ENOMEM;
        tls_state = s;
    }
    if (s->magic == 0)
        s->wiped_on_fork = 1; /* only the kernel zeroes a mapped page */
    int reseed = s->magic != STATE_MAGIC ||
                 s->generation != atomic_load_explicit(&fork_generation, memory_order_relaxed);
    if (!reseed) {
        s->since_reseed += (s->granted - s->until_check) + len;
        reseed = s->since_reseed >= RESEED_BYTES || now_ns() >= s->deadline_ns ||
                 s->pid != getpid();
    }
    if (reseed) {
        /* After a fork the page may have been wiped, flag included. */
        const int wiped = s->wiped_on_fork;
        const int status = seed(s);
        s->wiped_on_fork = wiped;
        if (status != SHAKERAND_OK)
            return status;
        s->since_reseed = len;
    }
    grant(s);
    *out = s;
    return SHAKERAND_OK;
}

static inline struct system_state *ready(size_t len)
{
    struct system_state *s = tls_state;
    if (__builtin_expect(s != NULL && s->magic == STATE_MAGIC &&
                             s->generation == atomic_load_explicit(&fork_generation,
                                                                   memory_order_relaxed) &&
                             s->until_check >= len,
                         1)) {
        s->until_check -= len;
        return s;
    }
    const int status = prepare(len, &s);
    if (status == SHAKERAND_ENOMEM)
        shakerand_fatal("the system generator cannot map memory for its state");
    if (status != SHAKERAND_OK)
        shakerand_fatal("the system generator cannot be seeded: the operating system's "
                        "entropy source failed");
    return s;
}

int shakerand_system_init(void)
{
    struct system_state *s;
    return prepare(0, &s);
}

void shakerand_system_fill(void *out, size_t len)
{
    if (out == NULL && len > 0)
        shakerand_fatal("shakerand_system_fill: out is NULL");
    if (len <= 16) {
        struct system_state *s = ready(len);
        if (!shakerand_x8_take_small(&s->engine, out, len))
            shakerand_engine_fill(&s->engine, out, len);
        return;
    }
    unsigned char *p = out;
    while (len > MAX_PIECE_BYTES) {
        shakerand_engine_fill(&ready(MAX_PIECE_BYTES)->engine, p, MAX_PIECE_BYTES);
        p += MAX_PIECE_BYTES;
        len -= MAX_PIECE_BYTES;
    }
    shakerand_engine_fill(&ready(len)->engine, p, len);
}

/* The next n (4 or 8) bytes as a little-endian word. */
static inline uint64_t system_word(unsigned n)
{
    shakerand_engine *e = &ready(n)->engine;
    unsigned char b[8];
    if (!shakerand_x8_take_small(e, b, n))
        return n == 8 ? shakerand_engine_u64(e) : shakerand_engine_u32(e);
    uint64_t v = 0;
    memcpy(&v, b, n); /* the fast path runs only on little-endian hosts */
    return v;
}

int shakerand_system_try_fill(void *out, size_t len)
{
    if (out == NULL && len > 0)
        return SHAKERAND_EINVAL;
    struct system_state *s;
    const int status = prepare(0, &s);
    if (status != SHAKERAND_OK)
        return status;
    shakerand_system_fill(out, len);
    return SHAKERAND_OK;
}

uint64_t shakerand_system_reseed_failures(void) { return 0; }

uint64_t shakerand_system_u64(void) { return system_word(8); }

uint32_t shakerand_system_u32(void) { return (uint32_t)system_word(4); }

int shakerand_system_reseed_with(const void *data, size_t len)
{
    if (data == NULL && len > 0)
        return SHAKERAND_EINVAL;
    struct system_state *s = NULL;
    int status = prepare(0, &s);
    if (status != SHAKERAND_OK)
        return status;
    status = seed_with(s, data, len);
    grant(s);
    return status;
}

int shakerand_system_reseed(void) { return shakerand_system_reseed_with(NULL, 0); }
