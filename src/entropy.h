/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The entropy layer (private): one back end per source in src/entropy/,
 * and the conditioner that mixes them.
 *
 *   os.c             the chain: the kernel's call (below) -> getentropy ->
 *                    /dev/urandom (not on Windows), and the async-signal-safe
 *                    read
 *   os_call_*.c      the kernel's call, one file per system (below)
 *   os_vdso_linux.c  the vDSO getrandom and its pool of states
 *   hw_x86.c         RDSEED, RDRAND         (CPUID)
 *   hw_ppc64.c       DARN                   (AT_HWCAP2)
 *   hw_arm64.c       RNDRRS, RNDR           (AT_HWCAP2; macOS: sysctl)
 *   conditioner.c    the source table, health checks, the sources report,
 *                    shakerand_entropy
 *   fault_testing.c  injected faults; only in the testing library
 *
 * The operating system is the one source that is required: seed material
 * without it is an error, never a hardware-only or zero seed. Hardware
 * instructions are mixed in when present and healthy, never used alone.
 */
#ifndef SHAKERAND_ENTROPY_H
#define SHAKERAND_ENTROPY_H

#include <stddef.h>
#include <stdint.h>

/* Seed material: the conditioner of src/policy.h over the operating
 * system's bytes, then the 64-bit words (little-endian) of every hardware
 * source that passed its health check, then a process-wide counter.
 * `restore`, when not NULL, names the restore the caller saw (two words
 * that differ for every restore the process sees: src/epoch.c); the
 * digest of a CPU-jitter sample is then appended, taken once per restore
 * by the first seed that names it and reused by the others, and taken
 * anew in a child process. SHAKERAND_OK; SHAKERAND_EENTROPY (out
 * untouched) when the operating system gives nothing or the sources' lock
 * fails; SHAKERAND_ENOMEM when the lock's fork handlers cannot be
 * installed (pthread_atfork). */
int shakerand_entropy_gather(unsigned char *out, size_t len, const uint64_t *restore);

/* ---- hardware back ends --------------------------------------------------- */

/* One hardware instruction. `present` asks the CPU or the kernel (CPUID,
 * AT_HWCAP2) and never executes the instruction to see whether it traps;
 * `read64` gives 0 and a word, or -1 once its retry budget is spent, and
 * is called only when `present` said yes. */
struct shakerand_hw_source {
    const char *name; /* as shakerand_sources reports it */
    int (*present)(void);
    int (*read64)(uint64_t *out);
};

#if defined(__x86_64__)
extern const struct shakerand_hw_source shakerand_hw_rdseed;
extern const struct shakerand_hw_source shakerand_hw_rdrand;
#endif
#if defined(__powerpc64__)
extern const struct shakerand_hw_source shakerand_hw_darn;
#endif
#if defined(__aarch64__)
extern const struct shakerand_hw_source shakerand_hw_rndrrs;
extern const struct shakerand_hw_source shakerand_hw_rndr;
#endif

/* Every hardware source this build has, in report order (conditioner.c). */
extern const struct shakerand_hw_source *const shakerand_hw_sources[];
extern const size_t shakerand_hw_source_count;

/* ---- the operating system ------------------------------------------------- */

/* How many times in a row getrandom (vDSO or system call) and read() may
 * return EINTR with no byte read before the step fails. A signal
 * interrupts a request only while it waits for the pool's initialisation
 * or copies more than 256 bytes, and one retry per signal is enough; a
 * seccomp filter or a broken sandbox can answer EINTR for ever, and a seed
 * must then fail, not spin. 64 interrupted calls cost a few microseconds. */
#define SHAKERAND_EINTR_RETRIES 64

/* The kernel's own call for random bytes, one back end per system, each
 * file guarding itself (#if) so every build compiles them all:
 *   os_call_linux.c    getrandom, the system call (and the vDSO's)
 *   os_call_freebsd.c  getrandom(2), FreeBSD 12 and later
 *   os_call_darwin.c   getentropy(2), macOS 10.12 and later
 *   os_call_windows.c  ProcessPrng (fast_fill, looked up at run time), then
 *                      BCryptGenRandom (fill); never ENOSYS, so the chain
 *                      ends there
 *   os_call_none.c     any other system: no call (ENOSYS), so the chain
 *                      goes on to getentropy(3) and /dev/urandom */
struct shakerand_os_call {
    const char *name;   /* as the sources report gives it */
    const char *failed; /* the report's reason when `fill` fails */
    /* len bytes: 0, or the errno that stopped it (ENOSYS: this kernel or
     * this build has no such call). Async-signal-safe: system calls only,
     * no lock, no allocation; errno may change. */
    int (*fill)(unsigned char *out, size_t len);
    /* The same bytes without entering the kernel, where it offers that:
     * 0, or -1 (the chain then uses `fill`); not signal-safe. NULL (and
     * fast_name NULL) where there is none. */
    int (*fast_fill)(unsigned char *out, size_t len);
    const char *fast_name;
};
extern const struct shakerand_os_call shakerand_os_call;

/* Calls read_some until len bytes are in, retrying an interrupted call up
 * to SHAKERAND_EINTR_RETRIES times in a row: 0, or the errno that stopped
 * it. read_some returns how many bytes it wrote (never 0 for len > 0: the
 * loop fails with EIO rather than spin), or -1 with errno set.
 * Async-signal-safe when read_some is. */
int shakerand_entropy_read_all(long (*read_some)(unsigned char *out, size_t len),
                               unsigned char *out, size_t len);

/* The steps of the chain, in the order they are tried. VDSO is the call's
 * fast_fill, GETRANDOM its fill (getentropy(2) on macOS), GETENTROPY the
 * libc's getentropy(3). */
enum shakerand_os_step {
    SHAKERAND_OS_VDSO,
    SHAKERAND_OS_GETRANDOM,
    SHAKERAND_OS_GETENTROPY,
    SHAKERAND_OS_URANDOM,
};

/* len bytes from the chain, starting at step `first` (the conditioner
 * starts at SHAKERAND_OS_VDSO; the tests start later to run every step).
 * 0 and *method set to the step that answered ("getrandom (vDSO)",
 * "getrandom", "getentropy", "/dev/urandom"), or -1 and *reason set. */
int shakerand_entropy_os_read(enum shakerand_os_step first, unsigned char *out, size_t len,
                              const char **method, const char **reason);

/* len bytes from the kernel, callable from a signal handler: the kernel's
 * call (shakerand_os_call.fill: the getrandom system call with flags 0,
 * FreeBSD's getrandom, macOS's getentropy) and, only where the kernel
 * lacks it (ENOSYS), the checked /dev/urandom. No locks, no allocation, no
 * stdio, no vDSO; errno is preserved. SHAKERAND_OK, or SHAKERAND_EENTROPY
 * (out may then hold part of the bytes). */
int shakerand_entropy_os_signal_safe(void *out, size_t len);

/* The vDSO's getrandom (os_vdso_linux.c, Linux only: os_call_linux.c's
 * fast_fill): 0 when it filled out, -1 when it is not available here or
 * failed (the caller then uses the system call). */
int shakerand_entropy_vdso_read(unsigned char *out, size_t len);

#endif
