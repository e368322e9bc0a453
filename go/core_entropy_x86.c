/* RDRAND and RDSEED, x86-64 only; enabled by pragma for this translation
 * unit alone (cgo rejects -mrdrnd); dispatch checks CPUID before use. */
#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("rdrnd,rdseed"))), apply_to = function)
#else
#pragma GCC target("rdrnd,rdseed")
#endif
#include "../src/entropy_x86.c"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#endif
