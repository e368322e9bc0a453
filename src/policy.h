/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The system generator's policy, the one place in the C core (private):
 * the reseed budget (src/system_seed.c) and the seed derivation's sizes and
 * TurboSHAKE256 domain bytes (src/entropy/conditioner.c, src/system_seed.c).
 * docs/system.md states the policy in prose.
 *
 * The same values are the reference model's SYSTEM_POLICY
 * (tools/shakerand_ref.py), which tools/gen_vectors.py records as the
 * "system_policy" section of vectors/shakerand.json, together with known
 * answers of the derivation. The C core (tests/test_system.cpp), the
 * pure-Go build (go/system_purego.go; go/system_purego_test.go) and the
 * pure-Java path (JavaSystemGenerator.java; JavaSystemPolicyTest) are each
 * tested against that section. To change the policy, change the model and
 * regenerate the file; then this header, the Go and the Java constants, and
 * docs/system.md, until their tests pass.
 */
#ifndef SHAKERAND_POLICY_H
#define SHAKERAND_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "shakerand.h"

/* The reseed budget: after SHAKERAND_RESEED_BYTES of output or
 * SHAKERAND_RESEED_SECONDS, whichever comes first. The clock is read once
 * SHAKERAND_CLOCK_CHECK_BYTES have been drawn since it was last read (in
 * the C core, when the output it makes ahead runs out: src/system_seed.c), and
 * a large request is served in pieces of at most SHAKERAND_MAX_PIECE_BYTES,
 * each through the checks. */
#define SHAKERAND_RESEED_BYTES ((uint64_t)16 << 20)
#define SHAKERAND_RESEED_SECONDS 60
#define SHAKERAND_RESEED_NANOSECONDS ((uint64_t)SHAKERAND_RESEED_SECONDS * 1000000000u)

enum {
    SHAKERAND_CLOCK_CHECK_BYTES = 4096,
    SHAKERAND_MAX_PIECE_BYTES = 1 << 20,

    /* The conditioner: TurboSHAKE256 with domain byte
     * SHAKERAND_CONDITIONER_DOMAIN of SHAKERAND_OS_SEED_BYTES from the
     * operating system, SHAKERAND_HW_SEED_BYTES (64-bit words,
     * little-endian) from each hardware source in use, and a counter of
     * SHAKERAND_COUNTER_BYTES (little-endian); its first
     * SHAKERAND_SEED_MATERIAL_BYTES are the seed material. */
    SHAKERAND_CONDITIONER_DOMAIN = 0x22,
    SHAKERAND_OS_SEED_BYTES = 32,
    SHAKERAND_HW_SEED_BYTES = 32,
    SHAKERAND_COUNTER_BYTES = 8,
    SHAKERAND_SEED_MATERIAL_BYTES = 64,

    /* A reseed with the caller's bytes appends their digest,
     * TurboSHAKE256(data, D = SHAKERAND_EXTRA_DOMAIN)[0, 32), to the
     * material. */
    SHAKERAND_EXTRA_DOMAIN = 0x23,
    SHAKERAND_EXTRA_DIGEST_BYTES = 32,

    /* chacha8rand's key is TurboSHAKE256(material, D = 0x24)[0, 32);
     * turboshake256x8 takes the material itself as its seed. */
    SHAKERAND_CHACHA8_KEY_DOMAIN = 0x24,

    /* After a restore (docs/system.md, "Snapshots and clones"): a CPU-jitter
     * sample's digest, TurboSHAKE256(deltas, D = SHAKERAND_JITTER_DOMAIN)
     * of SHAKERAND_JITTER_DIGEST_BYTES (each delta between two timer
     * readings a 64-bit word, little-endian), follows the counter, and the
     * conditioner then runs with domain byte
     * SHAKERAND_RESTORE_CONDITIONER_DOMAIN, so material with a digest never
     * meets material without one. Never counted as entropy. */
    SHAKERAND_JITTER_DOMAIN = 0x25,
    SHAKERAND_JITTER_DIGEST_BYTES = 32,
    SHAKERAND_RESTORE_CONDITIONER_DOMAIN = 0x26,
};

#if defined(SHAKERAND_TESTING)
#ifdef __cplusplus
extern "C" {
#endif
/* Test hook (testing library only): keys `engine` of `kind` as the system
 * generator keys its engine from SHAKERAND_SEED_MATERIAL_BYTES of seed
 * material, and the caller's bytes of a reseed when `extra` is not NULL
 * (src/system_seed.c key_engine), so a test can hold the derivation to known
 * answers. SHAKERAND_EINVAL for a kind the system generator does not run. */
int shakerand_system_key_engine_for_testing(shakerand_engine *engine, shakerand_kind kind,
                                            const unsigned char *material, const void *extra,
                                            size_t extra_len);
#ifdef __cplusplus
}
#endif
#endif

#endif
