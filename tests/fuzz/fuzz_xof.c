/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* XOF absorb/squeeze in arbitrary slicings, on any kernel, must equal the
 * one-shot function on the portable kernel; a bad domain byte must be
 * refused. Input: selector, domain, output length (2 bytes), 16 absorb and
 * 16 squeeze slice lengths, then the message. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "shakerand.h"

enum { MAX_OUT = 4096 };

static int one_shot(unsigned function, uint8_t *out, size_t out_len, const uint8_t *msg,
                    size_t msg_len, unsigned domain)
{
    switch (function) {
    case 0: return shakerand_turboshake128(out, out_len, msg, msg_len, domain);
    case 1: return shakerand_turboshake256(out, out_len, msg, msg_len, domain);
    case 2: return shakerand_shake128(out, out_len, msg, msg_len);
    default: return shakerand_shake256(out, out_len, msg, msg_len);
    }
}

static int init(unsigned function, shakerand_xof *xof, unsigned domain)
{
    switch (function) {
    case 0: return shakerand_turboshake128_init(xof, domain);
    case 1: return shakerand_turboshake256_init(xof, domain);
    case 2: return shakerand_shake128_init(xof);
    default: return shakerand_shake256_init(xof);
    }
}

/* Slice i: 0..254 bytes, or 255 = everything that is left; from the 64th
 * slice on, everything (the lengths may all be zero). */
static size_t slice(const uint8_t *lengths, size_t i, size_t left)
{
    const size_t n = lengths[i % 16] == 255 || i >= 64 ? left : lengths[i % 16];
    return n < left ? n : left;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size};
    const uint8_t selector = take_u8(&in);
    const unsigned function = selector & 3, domain = take_u8(&in);
    const size_t out_len = take_u16(&in) % (MAX_OUT + 1);
    size_t got;
    uint8_t absorb_lengths[16] = {0}, squeeze_lengths[16] = {0};
    memcpy(absorb_lengths, take_bytes(&in, 16, &got), got);
    memcpy(squeeze_lengths, take_bytes(&in, 16, &got), got);
    size_t msg_len;
    const uint8_t *msg = take_bytes(&in, in.left, &msg_len);

    static uint8_t expected[MAX_OUT], actual[MAX_OUT];
    shakerand_kernel_set_for_testing(shakerand_kernel_find("portable"));
    const int status = one_shot(function, expected, out_len, msg, msg_len, domain);
    const int domain_ok = function >= 2 || (domain >= 0x01 && domain <= 0x7F);
    if (status != (domain_ok ? SHAKERAND_OK : SHAKERAND_EINVAL))
        abort();

    shakerand_kernel_set_for_testing(pick_kernel((uint8_t)(selector >> 2)));
    shakerand_xof xof;
    if (init(function, &xof, domain) != status)
        abort();
    if (status != SHAKERAND_OK)
        return 0;
    size_t i = 0;
    for (size_t done = 0; done < msg_len; i++) {
        const size_t n = slice(absorb_lengths, i, msg_len - done);
        if (shakerand_xof_absorb(&xof, msg + done, n) != SHAKERAND_OK)
            abort();
        done += n;
    }
    memset(actual, 0xA5, out_len);
    for (size_t done = 0, j = 0; done < out_len; j++) {
        const size_t n = slice(squeeze_lengths, j, out_len - done);
        if (shakerand_xof_squeeze(&xof, actual + done, n) != SHAKERAND_OK)
            abort();
        done += n;
    }
    if (memcmp(expected, actual, out_len) != 0)
        abort();
    /* Absorbing after squeezing is refused and changes nothing. */
    shakerand_xof before = xof;
    if (out_len > 0 && (shakerand_xof_absorb(&xof, msg, msg_len) != SHAKERAND_ESTATE ||
                        memcmp(&before, &xof, sizeof xof) != 0))
        abort();
    shakerand_xof_wipe(&xof);
    shakerand_kernel_set_for_testing(NULL);
    return 0;
}
