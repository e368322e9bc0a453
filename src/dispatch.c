/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Kernel selection: CPUID for the instruction sets, XGETBV for whether the
 * OS saves the registers they use (the entropy layer asks about its own
 * instructions in src/entropy/hw_*.c). Selection happens once;
 * SHAKERAND_KERNEL=<name> forces a kernel (tests use it to run every path
 * on one machine).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccakp1600.h"

static const struct shakerand_kernel kernel_portable = {
    "portable",
    shakerand_keccakp1600_permute_portable,
    shakerand_keccakp1600x4_permute_portable,
    shakerand_keccakp1600x8_permute_portable,
    shakerand_chacha8rand_portable,
};

#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
#include <cpuid.h>
#include <time.h>

static const struct shakerand_kernel kernel_avx2 = {
    "avx2",
    shakerand_keccakp1600_permute_bmi2,
    shakerand_keccakp1600x4_permute_avx2,
    shakerand_keccakp1600x8_permute_avx2,
    shakerand_chacha8rand_avx2,
};

/* Nanoseconds for a few single-state permutations, best of three. */
static uint64_t time_x1(shakerand_p1600_fn permute)
{
    uint64_t state[25] = {0}, best = UINT64_MAX;
    for (int trial = 0; trial < 3; trial++) {
        struct timespec t0, t1;
        if (clock_gettime(CLOCK_MONOTONIC, &t0) != 0)
            return 0; /* no clock: a tie, and the tie keeps the xmm kernel */
        for (int i = 0; i < 16; i++)
            permute(state, 12);
        if (clock_gettime(CLOCK_MONOTONIC, &t1) != 0)
            return 0;
        const uint64_t ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec -
                            (uint64_t)t0.tv_nsec;
        if (ns < best)
            best = ns;
    }
    return best;
}

/* The AVX-512 set's single-state permutation: its own (one lane per xmm
 * register) or the scalar BMI2 one, whichever is faster on this core (the
 * xmm kernel on AMD Zen 4 in BENCHMARKS.md; the scalar one can win on Intel
 * cores). Timed once, at the first use (about 10 us); threads racing there
 * may store different answers, both correct: every kernel computes the same
 * permutation. */
static _Atomic(shakerand_p1600_fn) avx512_x1;

static void permute_x1_avx512_set(uint64_t *state, unsigned rounds)
{
    shakerand_p1600_fn f = atomic_load_explicit(&avx512_x1, memory_order_relaxed);
    if (f == NULL) {
        /* Interleaved, so a frequency change mid-way hurts both alike. */
        uint64_t xmm = time_x1(shakerand_keccakp1600_permute_avx512);
        uint64_t scalar = time_x1(shakerand_keccakp1600_permute_bmi2);
        const uint64_t xmm2 = time_x1(shakerand_keccakp1600_permute_avx512);
        const uint64_t scalar2 = time_x1(shakerand_keccakp1600_permute_bmi2);
        xmm = xmm2 < xmm ? xmm2 : xmm;
        scalar = scalar2 < scalar ? scalar2 : scalar;
        f = scalar < xmm ? shakerand_keccakp1600_permute_bmi2
                         : shakerand_keccakp1600_permute_avx512;
        atomic_store_explicit(&avx512_x1, f, memory_order_relaxed);
    }
    f(state, rounds);
}

static const struct shakerand_kernel kernel_avx512 = {
    "avx512",
    permute_x1_avx512_set,
    shakerand_keccakp1600x4_permute_avx2,
    shakerand_keccakp1600x8_permute_avx512,
    shakerand_chacha8rand_avx512,
};

enum { CPU_AVX2 = 1, CPU_AVX512 = 2, CPU_BMI = 4 };

static unsigned x86_features(void)
{
    unsigned eax, ebx, ecx, edx, features = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return 0;
    const int osxsave = (int)((ecx >> 27) & 1), avx = (int)((ecx >> 28) & 1);
    if (!osxsave || !avx)
        return features;
    unsigned xcr0_lo, xcr0_hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    /* XCR0 bits 1-2: SSE and AVX state; 5-7: opmask, ZMM0-15 upper halves,
     * ZMM16-31. Without them the OS does not save the registers on a
     * context switch and the instructions must not be used. */
    const int os_avx = (xcr0_lo & 0x06) == 0x06;
    const int os_avx512 = (xcr0_lo & 0xE6) == 0xE6;
    if (__get_cpuid_max(0, NULL) < 7)
        return features;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    if (os_avx && ((ebx >> 5) & 1))
        features |= CPU_AVX2;
    /* BMI1 (bit 3) and BMI2 (bit 8): general-purpose registers, no OS
     * support needed. */
    if (((ebx >> 3) & 1) && ((ebx >> 8) & 1))
        features |= CPU_BMI;
    /* AVX512F (bit 16) and AVX512VL (bit 31). */
    if (os_avx512 && ((ebx >> 16) & 1) && ((ebx >> 31) & 1))
        features |= CPU_AVX512;
    return features;
}
#endif

#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
int shakerand_x86_vector_registers(void)
{
    const unsigned features = x86_features();
    return (features & CPU_AVX512) ? 512 : (features & CPU_AVX2) ? 256 : 128;
}

size_t shakerand_x86_register_save_bytes(void)
{
    unsigned eax, ebx, ecx, edx;
    /* CPUID.1:ECX bit 27, OSXSAVE: the OS enabled XSAVE and set XCR0. */
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !((ecx >> 27) & 1) ||
        __get_cpuid_max(0, NULL) < 0xD)
        return 512; /* FXSAVE's area */
    unsigned xcr0_lo, xcr0_hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    /* The standard layout's end over the states XCR0 enables (leaf 0xD,
     * sub-leaf i: EAX the size, EBX the offset of state i; the compacted
     * layout XSAVEC writes is no larger), the legacy area and header
     * first. AMX's tile states (17, 18: 8 KiB) are left out: the
     * resolvers save the registers a call may pass arguments in, which
     * tiles never are (glibc's save mask leaves them out). */
    size_t end = 512 + 64;
    const uint64_t xcr0 = (uint64_t)xcr0_hi << 32 | xcr0_lo;
    for (unsigned i = 2; i < 63; i++) {
        if (!((xcr0 >> i) & 1) || i == 17 || i == 18)
            continue;
        __cpuid_count(0xD, i, eax, ebx, ecx, edx);
        if (ebx != 0 && (size_t)ebx + eax > end)
            end = (size_t)ebx + eax;
    }
    return end;
}
#endif

#if defined(SHAKERAND_HAVE_AARCH64_KERNELS)
/* Advanced SIMD is part of every AArch64 CPU: always supported. */
static const struct shakerand_kernel kernel_neon = {
    "neon",
    shakerand_keccakp1600_permute_portable,
    shakerand_keccakp1600x4_permute_portable,
    shakerand_keccakp1600x8_permute_portable,
    shakerand_chacha8rand_neon,
};
#endif

#if defined(SHAKERAND_HAVE_PPC64LE_KERNELS)
/* VSX is in little-endian ppc64's baseline (ELFv2: Power ISA 2.07, POWER8),
 * and the compiler already assumes it everywhere: always supported. */
static const struct shakerand_kernel kernel_vsx = {
    "vsx",
    shakerand_keccakp1600_permute_portable,
    shakerand_keccakp1600x4_permute_portable,
    shakerand_keccakp1600x8_permute_portable,
    shakerand_chacha8rand_vsx,
};
#endif

#if defined(SHAKERAND_HAVE_WASM_SIMD128_KERNELS)
/* A module with SIMD128 instructions runs only where the engine has them
 * (the host chose this module by feature detection): always supported. */
static const struct shakerand_kernel kernel_simd128 = {
    "simd128",
    shakerand_keccakp1600_permute_portable,
    shakerand_keccakp1600x4_permute_portable,
    shakerand_keccakp1600x8_permute_portable,
    shakerand_chacha8rand_simd128,
};
#endif

const struct shakerand_kernel *const shakerand_kernel_list[] = {
    &kernel_portable,
#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
    &kernel_avx2,
    &kernel_avx512,
#endif
#if defined(SHAKERAND_HAVE_AARCH64_KERNELS)
    &kernel_neon,
#endif
#if defined(SHAKERAND_HAVE_PPC64LE_KERNELS)
    &kernel_vsx,
#endif
#if defined(SHAKERAND_HAVE_WASM_SIMD128_KERNELS)
    &kernel_simd128,
#endif
    NULL,
};

static int kernel_supported(const struct shakerand_kernel *k)
{
#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
    /* Both sets run the scalar BMI2 x1 kernel; the AVX-512 set also runs
     * the AVX2 x4 kernel. */
    if (k == &kernel_avx2)
        return (x86_features() & (CPU_AVX2 | CPU_BMI)) == (CPU_AVX2 | CPU_BMI);
    if (k == &kernel_avx512)
        return (x86_features() & (CPU_AVX2 | CPU_AVX512 | CPU_BMI)) ==
               (CPU_AVX2 | CPU_AVX512 | CPU_BMI);
#endif
#if defined(SHAKERAND_HAVE_AARCH64_KERNELS)
    if (k == &kernel_neon)
        return 1;
#endif
#if defined(SHAKERAND_HAVE_PPC64LE_KERNELS)
    if (k == &kernel_vsx)
        return 1;
#endif
#if defined(SHAKERAND_HAVE_WASM_SIMD128_KERNELS)
    if (k == &kernel_simd128)
        return 1;
#endif
    return k == &kernel_portable;
}

const struct shakerand_kernel *shakerand_kernel_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; shakerand_kernel_list[i] != NULL; i++) {
        const struct shakerand_kernel *k = shakerand_kernel_list[i];
        if (strcmp(k->name, name) == 0)
            return kernel_supported(k) ? k : NULL;
    }
    return NULL;
}

static const struct shakerand_kernel *detect(void)
{
#if defined(__wasm__)
    /* WebAssembly has no environment: the host picks the kernel by the
     * module it loads (js/README.md). */
    const char *forced = NULL;
#else
    const char *forced = getenv("SHAKERAND_KERNEL");
#endif
    if (forced != NULL && forced[0] != '\0') {
        const struct shakerand_kernel *k = shakerand_kernel_find(forced);
        if (k != NULL)
            return k;
        /* Say so rather than run a path the caller did not ask for
         * without a word; shakerand_kernel_name() tells tests what runs. */
        fprintf(stderr,
                "shakerand: SHAKERAND_KERNEL=%s is not a kernel this CPU "
                "supports; using the detected one\n",
                forced);
    }
    const struct shakerand_kernel *best = &kernel_portable;
    for (size_t i = 0; shakerand_kernel_list[i] != NULL; i++)
        if (kernel_supported(shakerand_kernel_list[i]))
            best = shakerand_kernel_list[i];
    return best;
}

static _Atomic(const struct shakerand_kernel *) active_kernel;

const struct shakerand_kernel *shakerand_kernel_get(void)
{
    const struct shakerand_kernel *k = atomic_load_explicit(&active_kernel, memory_order_acquire);
    if (k == NULL) {
        /* Threads racing here compute the same answer; either store wins. */
        k = detect();
        atomic_store_explicit(&active_kernel, k, memory_order_release);
    }
    return k;
}

#if defined(SHAKERAND_TESTING)
void shakerand_kernel_set_for_testing(const struct shakerand_kernel *k)
{
    atomic_store_explicit(&active_kernel, k != NULL ? k : detect(), memory_order_release);
}
#endif
