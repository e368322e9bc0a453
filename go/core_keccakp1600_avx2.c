/* The AVX2 kernel, x86-64 only. The cgo flag allow-list has no -mavx2, so
 * the instruction set is enabled for this translation unit alone by pragma,
 * as CMake does by flag: dispatch calls it only after checking the CPU. */
#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC target("avx2")
#endif
#include "../src/keccakp1600_avx2.c"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#endif
