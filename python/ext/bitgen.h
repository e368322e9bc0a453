/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What SystemBits (system_bits.c) and EngineBits (engine_bits.c) share as
 * numpy's bit generators (bitgen.c): numpy's bitgen_t, its capsule, and the
 * take of one word from a buffer.
 *
 * numpy asks for one value per call, so both hand out values from a
 * buffer, each zeroed there as it is handed out; numpy holds the bit
 * generator's lock around every call.
 */
#ifndef SHAKERAND_PY_BITGEN_H
#define SHAKERAND_PY_BITGEN_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* numpy's bitgen_t (numpy/random/bitgen.h), a stable ABI: numpy copies it
 * out of the capsule named "BitGenerator" and calls it without the GIL,
 * under the bit generator's lock. */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} numpy_bitgen;

void pyext_bitgen_init(numpy_bitgen *bitgen, void *state, uint64_t (*u64)(void *),
                       uint32_t (*u32)(void *), double (*dbl)(void *));
/* The capsule named "BitGenerator" over bitgen, made once and kept in
 * *slot (the object owning bitgen keeps it, and numpy keeps the object). */
PyObject *pyext_bitgen_capsule(PyObject **slot, numpy_bitgen *bitgen);

/* n (4 or 8) bytes of buffer at *cursor (before limit) as a little-endian
 * word in *v, zeroed there, the cursor moved on first; 0 if fewer are
 * left. Inline: it is numpy's fast path. */
static inline int pyext_take_word(unsigned char *buffer, size_t *cursor, size_t limit, size_t n,
                                  uint64_t *v)
{
    const size_t pos = *cursor;
    if (__builtin_expect(limit - pos < n, 0))
        return 0;
    *cursor = pos + n;
    atomic_signal_fence(memory_order_seq_cst);
    unsigned char *p = buffer + pos;
    if (n == 8) {
        memcpy(v, p, 8);
    } else {
        uint32_t h;
        memcpy(&h, p, 4);
        *v = h;
    }
    memset(p, 0, n);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    *v = n == 8 ? __builtin_bswap64(*v) : __builtin_bswap32((uint32_t)*v);
#endif
    atomic_signal_fence(memory_order_seq_cst);
    return 1;
}

#endif
