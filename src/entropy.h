/* Entropy sources and the conditioner that mixes them (private). */
#ifndef SHAKERAND_ENTROPY_H
#define SHAKERAND_ENTROPY_H

#include <stddef.h>
#include <stdint.h>

/* Hardware reads: 0 and a 64-bit word, or -1 once the retry budget is spent. */
int shakerand_rdseed64(uint64_t *out);
int shakerand_rdrand64(uint64_t *out);

/* Seed material: TurboSHAKE256 (domain byte 0x22) of operating-system
 * bytes, then the bytes of every hardware source that passed its health
 * check, then a process-wide counter. SHAKERAND_OK, or SHAKERAND_EENTROPY
 * (out untouched) when the operating system gives nothing. */
int shakerand_entropy_gather(unsigned char *out, size_t len);

/* Fault injection for the tests. */
enum shakerand_fault {
    SHAKERAND_FAULT_NONE,
    SHAKERAND_FAULT_FAIL,      /* every read fails */
    SHAKERAND_FAULT_STUCK,     /* the same value every time */
    SHAKERAND_FAULT_ALL_ONES,  /* 0xFFFF...FFFF every time */
    SHAKERAND_FAULT_ALL_ZEROS, /* 0 every time */
    SHAKERAND_FAULT_NO_VDSO,       /* os: as if the vDSO had no getrandom */
    SHAKERAND_FAULT_NO_GETRANDOM,  /* os: as if neither getrandom were there */
    SHAKERAND_FAULT_NO_GETENTROPY, /* os: as if getrandom and getentropy were */
    SHAKERAND_FAULT_LATER_ALL_ONES, /* hardware: healthy at start-up, then all-ones */
};
/* Sets the fault of source `name` ("os" takes FAIL and the NO_* faults,
 * hardware sources the others) and runs the health checks again; -1 for an
 * unknown name. */
int shakerand_entropy_fault_for_testing(const char *name, enum shakerand_fault fault);

/* Test hooks of the system generator: how many seeds it has drawn (all
 * threads), and an offset added to its clock. */
uint64_t shakerand_system_seed_count_for_testing(void);
void shakerand_system_clock_offset_for_testing(uint64_t ns);
/* Threads that map their state after this call skip MADV_WIPEONFORK, so the
 * fall-backs (fork handler, pid check) are tested alone. */
void shakerand_system_skip_wipeonfork_for_testing(int skip);
/* How many thread states have been wiped and unmapped at thread exit. */
uint64_t shakerand_system_states_wiped_for_testing(void);
/* While `keep` is set, exiting threads wipe their state but leave it mapped,
 * and the last one is returned (with its mapping's length) for inspection;
 * the caller unmaps it. */
void shakerand_system_keep_exited_states_for_testing(int keep);
const void *shakerand_system_last_exited_state_for_testing(size_t *mapped_len);
/* The calling thread's state mapping, NULL before its first draw. */
const void *shakerand_system_state_for_testing(void);

#endif
