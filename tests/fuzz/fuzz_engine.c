/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Engines in arbitrary request slicings (fill, u64, u32, empty fills), on
 * any kernel, must give the stream that one fill gives on the portable
 * kernel. Input: kind, kernel, seed length, seed, then one byte per
 * request. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "shakerand.h"

enum { MAX_STREAM = 1 << 15 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size};
    static const shakerand_kind kinds[] = {SHAKERAND_TURBOSHAKE256, SHAKERAND_SHAKE256,
                                           SHAKERAND_TURBOSHAKE256X8, SHAKERAND_CHACHA8RAND};
    const shakerand_kind kind = kinds[take_u8(&in) % 4];
    const uint8_t kernel = take_u8(&in);
    size_t seed_len;
    const uint8_t *seed = take_bytes(&in, take_u8(&in), &seed_len);
    /* chacha8rand takes exactly 32 bytes: other lengths are refused (and
     * change nothing), so pad or cut the fuzzer's seed to 32. */
    uint8_t key[32] = {0};
    if (kind == SHAKERAND_CHACHA8RAND) {
        static shakerand_engine refused;
        if (seed_len != 32 && shakerand_engine_init(&refused, kind, seed, seed_len) != SHAKERAND_EINVAL)
            abort();
        memcpy(key, seed, seed_len < 32 ? seed_len : 32);
        seed = key;
        seed_len = 32;
    }

    static uint8_t actual[MAX_STREAM], expected[MAX_STREAM];
    static shakerand_engine engine;
    shakerand_kernel_set_for_testing(pick_kernel(kernel));
    if (shakerand_engine_init(&engine, kind, seed, seed_len) != SHAKERAND_OK)
        abort();
    size_t produced = 0;
    while (in.left > 0) {
        const uint8_t op = take_u8(&in);
        size_t n = (size_t)(op & 63);
        switch (op >> 6) {
        case 0: break;                 /* 0..63 bytes */
        case 1: n = 8; break;          /* u64 */
        case 2: n = 4; break;          /* u32 */
        default: n = n * 131 + 1; break; /* up to 8 KiB, across refills */
        }
        if (produced + n > MAX_STREAM)
            break;
        if (op >> 6 == 1) {
            const uint64_t w = shakerand_engine_u64(&engine);
            for (int i = 0; i < 8; i++)
                actual[produced + (size_t)i] = (uint8_t)(w >> (8 * i));
        } else if (op >> 6 == 2) {
            const uint32_t w = shakerand_engine_u32(&engine);
            for (int i = 0; i < 4; i++)
                actual[produced + (size_t)i] = (uint8_t)(w >> (8 * i));
        } else {
            shakerand_engine_fill(&engine, actual + produced, n);
        }
#ifdef FUZZ_PLANTED_DEFECT
        /* run.sh --self-check: a defect that only a request crossing byte
         * 4096 shows; the fuzzer must find it. */
        if (produced < 4096 && produced + n > 4096)
            actual[produced] ^= 1;
#endif
        produced += n;
    }
    shakerand_kernel_set_for_testing(shakerand_kernel_find("portable"));
    if (shakerand_engine_init(&engine, kind, seed, seed_len) != SHAKERAND_OK)
        abort();
    shakerand_engine_fill(&engine, expected, produced);
    if (memcmp(actual, expected, produced) != 0)
        abort();
    shakerand_engine_wipe(&engine);
    shakerand_kernel_set_for_testing(NULL);
    return 0;
}
