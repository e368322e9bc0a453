/* The AVX-512 kernel, x86-64 only; enabled by pragma for this translation
 * unit alone (see core_keccakp1600_avx2.c). */
#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512vl"))), apply_to = function)
#else
#pragma GCC target("avx512f,avx512vl")
#endif
#include "../src/keccakp1600_avx512.c"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#endif
