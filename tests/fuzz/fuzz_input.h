/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Reads a fuzzer's input as a sequence of small fields; past the end every
 * field reads as zero, so every input is valid. */
#ifndef SHAKERAND_FUZZ_INPUT_H
#define SHAKERAND_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "keccakp1600.h"

struct fuzz_input {
    const uint8_t *data;
    size_t left;
};

static inline uint8_t take_u8(struct fuzz_input *in)
{
    if (in->left == 0)
        return 0;
    in->left--;
    return *in->data++;
}

static inline uint16_t take_u16(struct fuzz_input *in)
{
    const uint16_t lo = take_u8(in);
    return (uint16_t)(lo | take_u8(in) << 8);
}

/* The next `len` bytes (fewer at the end); *got says how many. */
static inline const uint8_t *take_bytes(struct fuzz_input *in, size_t len, size_t *got)
{
    const uint8_t *p = in->data;
    *got = len < in->left ? len : in->left;
    in->data += *got;
    in->left -= *got;
    return p;
}

/* One of the kernels this CPU runs, chosen by `selector`. */
static inline const struct shakerand_kernel *pick_kernel(uint8_t selector)
{
    /* The list starts with the portable kernel, which every CPU runs. */
    const struct shakerand_kernel *usable[8] = {shakerand_kernel_list[0]};
    size_t n = 1;
    for (size_t i = 1; shakerand_kernel_list[i] != NULL && n < 8; i++)
        if (shakerand_kernel_find(shakerand_kernel_list[i]->name) != NULL)
            usable[n++] = shakerand_kernel_list[i];
    return usable[selector % n];
}

#endif
