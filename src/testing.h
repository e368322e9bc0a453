/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Test hooks (private). They exist only in the testing library
 * (shakerand_testing, built with SHAKERAND_TESTING from the same sources):
 * libshakerand.a, libshakerand.so, the Go package and the JNI library carry
 * none of them.
 */
#ifndef SHAKERAND_TESTING_H
#define SHAKERAND_TESTING_H

#if defined(SHAKERAND_TESTING)

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- entropy sources (src/entropy/fault_testing.c) ------------------------ */

enum shakerand_fault {
    SHAKERAND_FAULT_NONE,
    SHAKERAND_FAULT_FAIL,           /* every read fails */
    SHAKERAND_FAULT_STUCK,          /* the same value every time */
    SHAKERAND_FAULT_ALL_ONES,       /* 0xFFFF...FFFF every time */
    SHAKERAND_FAULT_ALL_ZEROS,      /* 0 every time */
    SHAKERAND_FAULT_NO_VDSO,        /* os: as if the vDSO had no getrandom */
    SHAKERAND_FAULT_NO_GETRANDOM,   /* os: as if neither getrandom were there */
    SHAKERAND_FAULT_NO_GETENTROPY,  /* os: as if getrandom and getentropy were */
    SHAKERAND_FAULT_LATER_ALL_ONES, /* hardware: healthy at start-up, then all-ones */
    SHAKERAND_FAULT_FIXED,          /* os: the same bytes every time, in every process */
};
/* Sets the fault of source `name` ("os" takes FAIL, FIXED and the NO_*
 * faults, hardware sources the others) and runs the health checks again;
 * -1 for an unknown name. */
int shakerand_entropy_fault_for_testing(const char *name, enum shakerand_fault fault);

/* Reads the conditioner makes in place of the back ends' from the call on
 * (conditioner.c; NULL: the back ends' own again): hardware source i of
 * shakerand_hw_sources (during the start-up health check when
 * `at_startup`), with the results of its read64, and the operating
 * system's chain, with those of shakerand_entropy_os_read. The faults
 * (fault_testing.c) put theirs in place. */
typedef int (*shakerand_hw_read_for_testing)(size_t i, int at_startup, uint64_t *out);
typedef int (*shakerand_os_read_for_testing)(unsigned char *out, size_t len, const char **method,
                                             const char **reason);
void shakerand_entropy_reads_for_testing(shakerand_hw_read_for_testing hw,
                                         shakerand_os_read_for_testing os);
/* Forgets the health checks and the operating system's last reason, and
 * runs the checks again (conditioner.c). SHAKERAND_OK or the lock's error. */
int shakerand_entropy_recheck_for_testing(void);
/* How many CPU-jitter samples this process has taken (a seed after a
 * restore: conditioner.c), and, while `fixed` is set, a sample that times
 * nothing (its timer counts up by 100 a reading), so two processes' digests
 * match and only the other inputs can make their seeds differ. */
uint64_t shakerand_entropy_jitter_samples_for_testing(void);
void shakerand_entropy_jitter_fixed_for_testing(int fixed);
/* The counter the next seed's material takes (conditioner.c), so a test
 * with the other inputs fixed can hold the material to known answers. */
void shakerand_entropy_seed_counter_for_testing(uint64_t next);

/* ---- steps, UUIDs, the system generator (testing.c, uuid.c, system*.c) ---- */

/* Called, when set, at every step of a take, a refill and a seed
 * (SHAKERAND_TEST_STEP in internal.h), so a test can deliver a signal or look
 * at an engine between any two steps. */
extern void (*volatile shakerand_step_hook_for_testing)(void);

/* shakerand_uuid7 reads this Unix time in milliseconds instead of the clock
 * while it is not 0, so a test can put two calls in one millisecond. */
void shakerand_uuid7_freeze_clock_for_testing(uint64_t ms);

/* How many seeds it has drawn (all threads), and an offset added to its
 * clock. */
uint64_t shakerand_system_seed_count_for_testing(void);
void shakerand_system_clock_offset_for_testing(uint64_t ns);
/* Threads that map their state after this call skip MADV_WIPEONFORK, so the
 * fall-backs (fork handler, pid check) are tested alone. */
void shakerand_system_skip_wipeonfork_for_testing(int skip);
/* The vmclock device the generator watches (src/system_os_vmclock.c): a
 * file laid out as struct vmclock_abi stands in for /dev/vmclock0 (NULL:
 * the device again), mapped now in place of what the generator mapped at
 * its first use (left mapped: another thread may still read it). Whether
 * it is watched: shakerand_system_watches_vm_generation. */
void shakerand_system_vmclock_path_for_testing(const char *path);
/* How many thread states have been wiped and unmapped at thread exit. */
uint64_t shakerand_system_states_wiped_for_testing(void);
/* While `keep` is set, exiting threads wipe their state but leave it mapped,
 * and the last one is returned (with its mapping's length) for inspection;
 * the caller unmaps it. */
void shakerand_system_keep_exited_states_for_testing(int keep);
const void *shakerand_system_last_exited_state_for_testing(size_t *mapped_len);
/* The calling thread's state mapping, NULL before its first draw; its
 * engine; the mapping's size. */
const void *shakerand_system_state_for_testing(void);
const void *shakerand_system_engine_for_testing(void);
size_t shakerand_system_state_size_for_testing(void);
/* The n bytes a copy of a thread's state (its whole mapping) would hand
 * out next, if nothing told it to reseed; how much it makes ahead for small
 * requests. */
void shakerand_system_continuation_for_testing(const void *state_copy, void *out, size_t n);
size_t shakerand_system_ahead_bytes_for_testing(void);

/* ---- the stack wipe (src/stack_wipe.c) ----------------------------------- */

/* The depth a wipe gives the work after a kernel (seed 0) or a seed (1):
 * the work's own frames and a lazy binding's register save. */
size_t shakerand_stack_work_bytes_for_testing(int seed);
/* The register save a lazy binding makes, as if the CPU reported `bytes`
 * (0: what it reports), so the depth can be checked for a CPU with larger
 * registers than this one. */
void shakerand_stack_register_save_for_testing(size_t bytes);
/* While set, the public calls wipe nothing, so how deep the work reaches
 * can be measured. */
void shakerand_stack_skip_wipe_for_testing(int skip);

#ifdef __cplusplus
}
#endif

#endif /* SHAKERAND_TESTING */

#endif
