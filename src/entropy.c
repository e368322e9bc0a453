/*
 * Entropy sources and the conditioner.
 *
 * The operating system is the one source that is required: seed material
 * without it is an error, never a hardware-only or zero seed. Hardware
 * instructions are mixed in when present and healthy, never used alone.
 * Detection asks dispatch (CPUID, getauxval), never executes an instruction
 * to see whether it traps.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <elf.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#endif

#include "entropy.h"
#include "internal.h"
#include "keccakp1600.h"

enum {
    CONDITIONER_DOMAIN = 0x22,
    OS_BYTES = 32,
    HW_WORDS = 4,           /* 256 bits from each hardware source per seed */
    HEALTH_WORDS = 8,
};

/* ---- hardware reads ------------------------------------------------------ */

#if defined(__powerpc64__)
/* DARN L=1: a conditioned 64-bit random number; all-ones signals failure.
 * 10 tries, as for RDRAND. .machine lets a POWER8-targeted build assemble
 * it; it only runs where the kernel reports PPC_FEATURE2_DARN. */
static int darn64(uint64_t *out)
{
    for (int i = 0; i < 10; i++) {
        uint64_t v;
        __asm__ volatile(".machine push\n\t.machine power9\n\tdarn %0, 1\n\t.machine pop"
                         : "=r"(v));
        if (v != UINT64_MAX) {
            *out = v;
            return 0;
        }
    }
    return -1;
}
#endif

#if defined(__aarch64__)
/* RNDRRS (reseeded before the read, preferred for seeding) and RNDR; the
 * flags say whether a value was returned (Z clear on success). Written as
 * system registers so no -march=armv8.5-a+rng is needed to assemble. */
static int rndrrs64(uint64_t *out)
{
    for (int i = 0; i < 10; i++) {
        uint64_t v;
        int ok;
        __asm__ volatile("mrs %0, s3_3_c2_c4_1\n\tcset %w1, ne" : "=r"(v), "=r"(ok) : : "cc");
        if (ok) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

static int rndr64(uint64_t *out)
{
    for (int i = 0; i < 10; i++) {
        uint64_t v;
        int ok;
        __asm__ volatile("mrs %0, s3_3_c2_c4_0\n\tcset %w1, ne" : "=r"(v), "=r"(ok) : : "cc");
        if (ok) {
            *out = v;
            return 0;
        }
    }
    return -1;
}
#endif

/* ---- the source table ------------------------------------------------------ */

struct hw_source {
    const char *name;
    enum shakerand_cpu_rng cpu;
    int (*read64)(uint64_t *out);
    /* Set by the health check. */
    int present, used;
    const char *reason;
    enum shakerand_fault fault;
};

static struct hw_source hw_sources[] = {
#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
    {"rdseed", SHAKERAND_CPU_RDSEED, shakerand_rdseed64, 0, 0, NULL, SHAKERAND_FAULT_NONE},
    {"rdrand", SHAKERAND_CPU_RDRAND, shakerand_rdrand64, 0, 0, NULL, SHAKERAND_FAULT_NONE},
#endif
#if defined(__powerpc64__)
    {"darn", SHAKERAND_CPU_DARN, darn64, 0, 0, NULL, SHAKERAND_FAULT_NONE},
#endif
#if defined(__aarch64__)
    {"rndrrs", SHAKERAND_CPU_RNDR, rndrrs64, 0, 0, NULL, SHAKERAND_FAULT_NONE},
    {"rndr", SHAKERAND_CPU_RNDR, rndr64, 0, 0, NULL, SHAKERAND_FAULT_NONE},
#endif
    {NULL, 0, NULL, 0, 0, NULL, SHAKERAND_FAULT_NONE},
};
#define HW_SOURCE_COUNT (sizeof hw_sources / sizeof hw_sources[0] - 1)

static enum shakerand_fault os_fault = SHAKERAND_FAULT_NONE;
static const char *os_reason = NULL;
static const char *os_method = "getrandom";

/* Guards the source table, the health-check state and the fault settings;
 * never held across a read of the operating system. Fork handlers take it
 * so a child never inherits it locked by a thread that no longer exists. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;
static int health_checked;
static _Atomic uint64_t seed_counter;

static void lock_for_fork(void) { pthread_mutex_lock(&lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&lock); }
static void install_fork_handlers(void)
{
    pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
}

static void lock_sources(void)
{
    pthread_once(&fork_handlers_once, install_fork_handlers);
    pthread_mutex_lock(&lock);
}

static int health_checking; /* under lock: the start-up check is running */

static int hw_read(struct hw_source *s, uint64_t *out)
{
    switch (s->fault) {
    case SHAKERAND_FAULT_FAIL: return -1;
    case SHAKERAND_FAULT_STUCK: *out = 0x0123456789ABCDEFULL; return 0;
    case SHAKERAND_FAULT_ALL_ONES: *out = UINT64_MAX; return 0;
    case SHAKERAND_FAULT_ALL_ZEROS: *out = 0; return 0;
    case SHAKERAND_FAULT_LATER_ALL_ONES:
        if (health_checking)
            return s->read64(out);
        *out = UINT64_MAX;
        return 0;
    default: return s->read64(out);
    }
}

/* A source is used only if HEALTH_WORDS reads all succeed, none is all-zeros
 * or all-ones (AMD's RDRAND returned all-ones after resume on some
 * microcode), and no value repeats (a stuck source). */
static void health_check(struct hw_source *s)
{
    s->present = shakerand_cpu_has_rng(s->cpu);
    s->used = 0;
    s->reason = NULL;
    if (!s->present) {
        s->reason = "not supported by this CPU";
        return;
    }
    uint64_t v[HEALTH_WORDS];
    for (int i = 0; i < HEALTH_WORDS; i++) {
        if (hw_read(s, &v[i]) != 0) {
            s->reason = "failed the start-up health check: no value within the retry budget";
            return;
        }
        if (v[i] == 0 || v[i] == UINT64_MAX) {
            s->reason = "failed the start-up health check: returned all-zeros or all-ones";
            return;
        }
        for (int j = 0; j < i; j++) {
            if (v[j] == v[i]) {
                s->reason = "failed the start-up health check: repeated a value";
                return;
            }
        }
    }
    shakerand_memzero(v, sizeof v);
    s->used = 1;
}

static void ensure_health_checked(void)
{
    if (!health_checked) {
        health_checking = 1;
        for (size_t i = 0; i < HW_SOURCE_COUNT; i++)
            health_check(&hw_sources[i]);
        health_checking = 0;
        health_checked = 1;
    }
}

/* ---- the operating system ------------------------------------------------------ */

static int read_urandom(unsigned char *out, size_t len)
{
    const int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    while (len > 0) {
        const ssize_t n = read(fd, out, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return -1;
        }
        out += n;
        len -= (size_t)n;
    }
    close(fd);
    return 0;
}

/* ---- the vDSO getrandom (Linux 6.11+) ---------------------------------------
 *
 * The kernel exports __vdso_getrandom, which produces getrandom's bytes
 * without entering the kernel, from a per-caller opaque state the caller
 * maps with the protection and flags the function reports. It is found by
 * walking the vDSO's dynamic symbols (getauxval(AT_SYSINFO_EHDR); glibc 2.36
 * does not use it). One page of states is mapped on first use and handed
 * out under the sources lock; a caller that finds none free, or a kernel
 * without the function, uses the system call. */
#if defined(__linux__) && defined(__LP64__)
typedef ssize_t (*vgetrandom_fn)(void *buf, size_t len, unsigned flags, void *state,
                                 size_t state_len);

struct vgetrandom_params {
    uint32_t size_of_opaque_state, mmap_prot, mmap_flags, reserved[13];
};

static vgetrandom_fn vdso_getrandom;
static size_t vdso_state_size;
static unsigned char *vdso_states;
static unsigned vdso_state_count;
static uint64_t vdso_in_use; /* bit i: state i is taken; under lock */

static void *vdso_symbol(const char *wanted)
{
    const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
    if (base == NULL)
        return NULL;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)base;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(const void *)(base + eh->e_phoff);
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(const void *)(base + eh->e_shoff);
    uintptr_t bias = 0;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD) {
            bias = (uintptr_t)base + ph[i].p_offset - ph[i].p_vaddr;
            break;
        }
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_entsize == 0)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(const void *)(base + sh[i].sh_offset);
        const char *names = (const char *)(base + sh[sh[i].sh_link].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sh[i].sh_entsize; k++)
            if (sym[k].st_shndx != SHN_UNDEF && strcmp(names + sym[k].st_name, wanted) == 0)
                return (void *)(bias + sym[k].st_value);
    }
    return NULL;
}

/* Under lock, once. */
static void vdso_setup(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    vgetrandom_fn f;
    void *sym = vdso_symbol("__vdso_getrandom"); /* x86-64, LoongArch */
    if (sym == NULL)
        sym = vdso_symbol("__kernel_getrandom"); /* arm64, powerpc, s390 */
    if (sym == NULL)
        return;
    memcpy(&f, &sym, sizeof f);
    struct vgetrandom_params params;
    memset(&params, 0, sizeof params);
    if (f(NULL, 0, 0, &params, ~(size_t)0) != 0 || params.size_of_opaque_state == 0)
        return;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (params.size_of_opaque_state > page)
        return;
    void *p = mmap(NULL, page, (int)params.mmap_prot, (int)params.mmap_flags, -1, 0);
    if (p == MAP_FAILED)
        return;
    vdso_states = p;
    vdso_state_size = params.size_of_opaque_state;
    vdso_state_count = (unsigned)(page / vdso_state_size);
    if (vdso_state_count > 64)
        vdso_state_count = 64;
    vdso_getrandom = f;
}

/* A free state, or NULL (then the system call is used). */
static void *vdso_take(void)
{
    void *state = NULL;
    lock_sources();
    vdso_setup();
    for (unsigned i = 0; state == NULL && i < vdso_state_count; i++) {
        if (!(vdso_in_use >> i & 1)) {
            vdso_in_use |= (uint64_t)1 << i;
            state = vdso_states + (size_t)i * vdso_state_size;
        }
    }
    pthread_mutex_unlock(&lock);
    return state;
}

static void vdso_give(void *state)
{
    lock_sources();
    vdso_in_use &= ~((uint64_t)1 << ((size_t)((unsigned char *)state - vdso_states) / vdso_state_size));
    pthread_mutex_unlock(&lock);
}

/* 0 when the vDSO filled out, -1 when it is not available here. */
static int vdso_read(unsigned char *out, size_t len)
{
    void *state = vdso_take();
    if (state == NULL)
        return -1;
    size_t got = 0;
    while (got < len) {
        const ssize_t n = vdso_getrandom(out + got, len - got, 0, state, vdso_state_size);
        if (n == -EINTR)
            continue;
        if (n < 0)
            break;
        got += (size_t)n;
    }
    vdso_give(state);
    return got == len ? 0 : -1;
}
#else
static int vdso_read(unsigned char *out, size_t len)
{
    (void)out;
    (void)len;
    return -1;
}
#endif

/* The vDSO getrandom; else getrandom(2); where the kernel lacks it (ENOSYS),
 * getentropy(3), which a libc may implement otherwise; then /dev/urandom.
 * Sets *method to the one that answered, or *reason. The injected faults
 * NO_VDSO, NO_GETRANDOM and NO_GETENTROPY skip the first one, two or three,
 * so the tests run every step of the chain. */
static int os_read(enum shakerand_fault fault, unsigned char *out, size_t len,
                   const char **method, const char **reason)
{
    if (fault == SHAKERAND_FAULT_FAIL) {
        *reason = "failed (injected fault)";
        return -1;
    }
    const int skip_syscall = fault == SHAKERAND_FAULT_NO_GETRANDOM ||
                             fault == SHAKERAND_FAULT_NO_GETENTROPY;
    if (fault != SHAKERAND_FAULT_NO_VDSO && !skip_syscall && vdso_read(out, len) == 0) {
        *method = "getrandom (vDSO)";
        return 0;
    }
#if defined(__linux__)
    if (!skip_syscall) {
        size_t got = 0;
        while (got < len) {
            const ssize_t n = getrandom(out + got, len - got, 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                break;
            got += (size_t)n;
        }
        if (got == len) {
            *method = "getrandom";
            return 0;
        }
        if (errno != ENOSYS) {
            *reason = "getrandom failed";
            return -1;
        }
    }
#endif
    if (fault != SHAKERAND_FAULT_NO_GETENTROPY) {
        int ok = 1;
        for (size_t off = 0; ok && off < len; off += 256) /* getentropy's limit */
            ok = getentropy(out + off, len - off < 256 ? len - off : 256) == 0;
        if (ok) {
            *method = "getentropy";
            return 0;
        }
    }
    if (read_urandom(out, len) == 0) {
        *method = "/dev/urandom";
        return 0;
    }
    *reason = "getrandom, getentropy and /dev/urandom all failed";
    return -1;
}

/* ---- the conditioner ------------------------------------------------------ */

/* A word read at seed time that is all-zeros, all-ones or a repeat of the
 * previous one means the source broke after its start-up check (AMD's
 * all-ones after resume): it is dropped from this seed and reported. */
static const char *runtime_check(const uint64_t *w, int n)
{
    for (int i = 0; i < n; i++) {
        if (w[i] == 0 || w[i] == UINT64_MAX)
            return "failed a check at seed time: returned all-zeros or all-ones";
        if (i > 0 && w[i] == w[i - 1])
            return "failed a check at seed time: repeated a value";
    }
    return NULL;
}

int shakerand_entropy_gather(unsigned char *out, size_t len)
{
    struct hw_source *used[HW_SOURCE_COUNT + 1];
    size_t n_used = 0;
    lock_sources();
    ensure_health_checked();
    const enum shakerand_fault fault = os_fault;
    for (size_t i = 0; i < HW_SOURCE_COUNT; i++)
        if (hw_sources[i].used)
            used[n_used++] = &hw_sources[i];
    pthread_mutex_unlock(&lock);

    unsigned char os[OS_BYTES];
    const char *method = NULL, *reason = NULL;
    const int os_status = os_read(fault, os, sizeof os, &method, &reason);
    lock_sources();
    os_reason = reason;
    if (method != NULL)
        os_method = method;
    pthread_mutex_unlock(&lock);
    if (os_status != 0)
        return SHAKERAND_EENTROPY;

    shakerand_xof xof;
    shakerand_turboshake256_init(&xof, CONDITIONER_DOMAIN);
    shakerand_xof_absorb(&xof, os, sizeof os);
    for (size_t i = 0; i < n_used; i++) {
        uint64_t w[HW_WORDS];
        int got = 0;
        /* A source that stops answering is skipped for this seed: the
         * operating system's bytes carry the seed on their own. */
        while (got < HW_WORDS && hw_read(used[i], &w[got]) == 0)
            got++;
        const char *broken = runtime_check(w, got);
        if (broken != NULL) {
            lock_sources();
            used[i]->used = 0;
            used[i]->reason = broken;
            pthread_mutex_unlock(&lock);
        } else {
            for (int k = 0; k < got; k++) {
                unsigned char b[8];
                for (int t = 0; t < 8; t++)
                    b[t] = (unsigned char)(w[k] >> (8 * t));
                shakerand_xof_absorb(&xof, b, sizeof b);
                shakerand_memzero(b, sizeof b);
            }
        }
        shakerand_memzero(w, sizeof w);
    }

    /* The counter makes every seed's input distinct even if every source
     * repeated itself. */
    const uint64_t n = atomic_fetch_add_explicit(&seed_counter, 1, memory_order_relaxed);
    unsigned char c[8];
    for (int t = 0; t < 8; t++)
        c[t] = (unsigned char)(n >> (8 * t));
    shakerand_xof_absorb(&xof, c, sizeof c);
    shakerand_xof_squeeze(&xof, out, len);
    shakerand_xof_wipe(&xof);
    shakerand_memzero(os, sizeof os);
    return SHAKERAND_OK;
}

int shakerand_entropy(void *out, size_t len)
{
    if (out == NULL && len > 0)
        return SHAKERAND_EINVAL;
    return shakerand_entropy_gather(out, len);
}

size_t shakerand_sources(shakerand_source_info *out, size_t max)
{
    /* Report the OS source as it is now, not as it was at the last seed. */
    lock_sources();
    const enum shakerand_fault fault = os_fault;
    pthread_mutex_unlock(&lock);
    unsigned char probe[1];
    const char *method = NULL, *reason = NULL;
    (void)os_read(fault, probe, sizeof probe, &method, &reason);
    shakerand_memzero(probe, sizeof probe);

    lock_sources();
    ensure_health_checked();
    os_reason = reason;
    if (method != NULL)
        os_method = method;
    const size_t count = 1 + HW_SOURCE_COUNT;
    for (size_t i = 0; i < count && i < max; i++) {
        if (i == 0) {
            out[0].name = "os";
            out[0].present = 1;
            out[0].used = os_reason == NULL;
            out[0].reason = os_reason;
            out[0].method = os_method;
            continue;
        }
        const struct hw_source *s = &hw_sources[i - 1];
        out[i].name = s->name;
        out[i].present = s->present;
        out[i].used = s->used;
        out[i].reason = s->reason;
        out[i].method = s->name;
    }
    pthread_mutex_unlock(&lock);
    return count;
}

int shakerand_entropy_fault_for_testing(const char *name, enum shakerand_fault fault)
{
    int found = -1;
    lock_sources();
    if (strcmp(name, "os") == 0) {
        os_fault = fault;
        os_reason = NULL;
        found = 0;
    }
    for (size_t i = 0; i < HW_SOURCE_COUNT; i++) {
        if (strcmp(name, hw_sources[i].name) == 0) {
            hw_sources[i].fault = fault;
            found = 0;
        }
    }
    health_checked = 0;
    ensure_health_checked();
    pthread_mutex_unlock(&lock);
    return found;
}
