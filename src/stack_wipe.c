/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The stack wipe of the public entry points (internal.h): how deep, and
 * the zeroing itself.
 *
 * Depth: what the work can reach below the entry point's frame, plus a
 * signal frame. The work's own frames reach at most about 1.6 KiB after a
 * kernel (measured with the wipe off: tests/test_stack.cpp,
 * LazyBindingIsCovered prints it; the portable chacha8rand kernel's frame
 * alone is about 1.2 KiB), more in a seed. On x86-64 the dynamic
 * linker's first binding of a symbol (a lazily bound PLT call, in this
 * library where it was linked without -z now, or in a program that links
 * the static library) comes on top: its resolver saves the register states
 * the OS enabled with XSAVE below the caller, about 0.8 KiB with AVX2 and
 * 2.7 KiB with AVX-512, so that size, as the CPU reports it
 * (shakerand_x86_register_save_bytes), is added to the work's depth;
 * elsewhere the resolvers save a few hundred bytes, inside a larger work
 * depth. A signal delivered while a kernel runs makes the operating system
 * save every register, keys in vector registers included, in a frame below
 * the interrupted one: as large as the kernel says a signal frame is
 * (AT_MINSIGSTKSZ: 1.7 KiB on an AVX2 machine here, more with AVX-512 and
 * AMX), after the red zone.
 *
 * The depth never runs past the stack it is on. The thread's own stack is
 * known by its bounds, which the system generator records after the
 * thread's first seed, outside the part of the call a signal handler may
 * interrupt to fork (shakerand_stack_record_bounds allocates, so it is not
 * async-signal-safe, and neither is a thread's first draw): there the whole depth
 * is wiped, down to 1 KiB above the stack's end at most. On the alternate
 * signal stack (sigaltstack says so: a system call, made only off the
 * thread's own stack) the wipe stops 512 bytes above its base. On any other
 * stack (a fiber's, of unknown size), and on a thread that has not drawn
 * from the system generator, only the work's depth is wiped, not the
 * signal frame's (docs/system.md). Windows differs (below): every stack,
 * a fiber's included, is known by its bounds.
 *
 * The pages are touched from the top down before they are zeroed, so that
 * a stack too small for the wipe meets its guard page, never the memory
 * below it (on Windows, that is also how a stack grows: one guard page at
 * a time).
 *
 * Windows has no signals and no alternate signal stack; what it saves on
 * the thread's stack is an exception's record (CONTEXT, with the vector
 * registers), dispatched in user mode below the frame that raised it: the
 * same 4 KiB as an unknown signal frame cover it. Its stack bounds come
 * from GetCurrentThreadStackLimits (Windows 8), read at every wipe rather
 * than recorded: they are the running fiber's, and SwitchToFiber changes
 * them (a range recorded for one fiber may later be another fiber's, or
 * freed). The wipe stops short of the reservation's end by the
 * stack-overflow guard and the space SetThreadStackGuarantee keeps for
 * handling an overflow, both read then too.
 */
#define _GNU_SOURCE
#include "arch.h"

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#endif
#if defined(__linux__)
#include <sys/auxv.h>
#endif
#if defined(__FreeBSD__)
#include <pthread_np.h> /* pthread_attr_get_np */
#endif

#include "internal.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__OPTIMIZE__)
enum { KERNEL_WORK_BYTES = 16384, SEED_WORK_BYTES = 32768 }; /* frames several times larger */
#elif defined(SHAKERAND_HAVE_X86_64_KERNELS) && !defined(_WIN32)
/* A lazy binding's register save is counted apart (binding_bytes). */
enum { KERNEL_WORK_BYTES = 2048, SEED_WORK_BYTES = 6144 };
#else
/* A lazy binding's frames inside the work's (argument registers, the
 * symbol lookup), not measured on these architectures. */
enum { KERNEL_WORK_BYTES = 3072, SEED_WORK_BYTES = 6144 };
#endif
/* Below the stack pointer, left alone by a signal frame: x86-64's red
 * zone; ELFv2's protected zone (ppc64le); nothing on AArch64 or s390x,
 * where 128 bytes are spare. */
#if defined(__powerpc64__)
enum { RED_ZONE_BYTES = 288 };
#else
enum { RED_ZONE_BYTES = 128 };
#endif
enum {
    /* A lazy binding's frames beside its register save: the registers the
     * resolver keeps, the save area's alignment to 64 bytes, and the
     * symbol lookup it calls (about 360 bytes in all with glibc 2.36). */
    RESOLVER_FRAME_BYTES = 512,
    ALT_STACK_MARGIN_BYTES = 512,
#if defined(_WIN32)
    /* The reservation's last pages: the stack-overflow guard, and room to
     * spare; the thread's SetThreadStackGuarantee comes on top. */
    STACK_END_MARGIN_BYTES = 16384,
#else
    STACK_END_MARGIN_BYTES = 1024,
#endif
    PROBE_BYTES = 4096, /* no page is smaller */
};

#if defined(_WIN32)
/* Nothing to record: wipe_depth reads the running fiber's bounds. */
void shakerand_stack_record_bounds(void) {}
#else
/* The thread's own stack, [low, high); zero while not known. Asked once
 * per thread: where the system will not say (no /proc for the main
 * thread's), asking again would only fail again, at a cost per call. */
static _Thread_local uintptr_t tls_stack_low SHAKERAND_TLS_INITIAL_EXEC,
    tls_stack_high SHAKERAND_TLS_INITIAL_EXEC;
static _Thread_local int tls_stack_asked SHAKERAND_TLS_INITIAL_EXEC;

void shakerand_stack_record_bounds(void)
{
    if (tls_stack_asked)
        return;
    tls_stack_asked = 1;
#if defined(__APPLE__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    /* Apple's own pair: the top of the stack and its size, no allocation. */
    const uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(pthread_self());
    const size_t size = pthread_get_stacksize_np(pthread_self());
    if (top != 0 && size > 0 && size < top) {
        tls_stack_low = top - size;
        tls_stack_high = top;
    }
#elif (defined(__linux__) || defined(__FreeBSD__)) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__) /* no wipe there (below) */
    pthread_attr_t attr;
#if defined(__linux__)
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
#else
    if (pthread_attr_init(&attr) != 0)
        return;
    if (pthread_attr_get_np(pthread_self(), &attr) != 0) {
        pthread_attr_destroy(&attr);
        return;
    }
#endif
    void *addr = NULL;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && size > 0) {
        tls_stack_low = (uintptr_t)addr;
        tls_stack_high = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&attr);
#endif
}
#endif

#if defined(SHAKERAND_TESTING)
static _Atomic size_t register_save_override;
static _Atomic int skip_wipe;
void shakerand_stack_register_save_for_testing(size_t bytes)
{
    atomic_store(&register_save_override, bytes);
}
void shakerand_stack_skip_wipe_for_testing(int skip) { atomic_store(&skip_wipe, skip); }
#define TESTING_REGISTER_SAVE() atomic_load_explicit(&register_save_override, memory_order_relaxed)
#define TESTING_SKIP_WIPE() atomic_load_explicit(&skip_wipe, memory_order_relaxed)
#else
#define TESTING_REGISTER_SAVE() ((size_t)0)
#define TESTING_SKIP_WIPE() 0
#endif

/* What a lazy binding during the work adds below it: on x86-64, the
 * resolver's XSAVE of every register state the OS enabled (glibc's
 * _dl_runtime_resolve_xsavec, FreeBSD's rtld and macOS's dyld_stub_binder
 * alike) and its frame. Elsewhere the resolvers save the argument
 * registers, a few hundred bytes the work's depth covers; Windows binds a
 * DLL's imports when it loads it. */
static size_t binding_bytes(void)
{
#if defined(SHAKERAND_HAVE_X86_64_KERNELS) && !defined(_WIN32)
    const size_t forced = TESTING_REGISTER_SAVE();
    if (forced != 0)
        return forced + RESOLVER_FRAME_BYTES;
    static _Atomic size_t cached;
    size_t n = atomic_load_explicit(&cached, memory_order_relaxed);
    if (n == 0) {
        n = shakerand_x86_register_save_bytes() + RESOLVER_FRAME_BYTES;
        atomic_store_explicit(&cached, n, memory_order_relaxed);
    }
    return n;
#else
    return 0;
#endif
}

/* The operating system's signal frame, at least 4 KiB where it will not say. */
static size_t signal_frame_bytes(void)
{
    static _Atomic size_t cached;
    size_t n = atomic_load_explicit(&cached, memory_order_relaxed);
    if (n != 0)
        return n;
    long reported = 0;
#if defined(_SC_MINSIGSTKSZ)
    reported = sysconf(_SC_MINSIGSTKSZ);
#elif defined(__linux__) && defined(AT_MINSIGSTKSZ)
    reported = (long)getauxval(AT_MINSIGSTKSZ);
#elif defined(_WIN32)
    /* An exception's CONTEXT (1232 bytes), its extended state (AVX-512's is
     * about 2.7 KiB) and the exception record, with room to spare. */
    reported = 8192;
#endif
    n = reported > 0 ? (size_t)reported : 4096;
    atomic_store_explicit(&cached, n, memory_order_relaxed);
    return n;
}

/* `want` bytes below sp, or as many as lie above floor. */
static size_t clamp(uintptr_t sp, uintptr_t floor, size_t want)
{
    if (sp <= floor)
        return 0;
    return sp - floor < want ? sp - floor : want;
}

/* How much to zero below `sp` after work that reaches `work` bytes. */
__attribute__((noinline)) static size_t wipe_depth(uintptr_t sp, size_t work)
{
    const size_t full = work + RED_ZONE_BYTES + signal_frame_bytes();
#if defined(_WIN32)
    ULONG_PTR low = 0, high = 0;
    GetCurrentThreadStackLimits(&low, &high);
    ULONG guarantee = 0; /* 0 asks, and changes nothing */
    if (!SetThreadStackGuarantee(&guarantee))
        guarantee = 0;
    if (low != 0 && sp > low && sp <= high)
        return clamp(sp, low + STACK_END_MARGIN_BYTES + guarantee, full);
#else
    const uintptr_t low = tls_stack_low, high = tls_stack_high;
    if (sp > low && sp <= high)
        return clamp(sp, low + STACK_END_MARGIN_BYTES, full);
    stack_t alt;
    if (sigaltstack(NULL, &alt) == 0 && (alt.ss_flags & SS_ONSTACK) != 0)
        return clamp(sp, (uintptr_t)alt.ss_sp + ALT_STACK_MARGIN_BYTES, full);
#endif
    return work;
}

/* The caller-saved registers, general-purpose and vector, where the work
 * may have left key words: zeroed before the stack is, so that a signal
 * delivered from then on saves only zeros (the callee-saved ones hold the
 * caller's values again once the work returned). x86-64 (System V and
 * Windows, whose sets differ), AArch64 and little-endian ppc64; on other
 * architectures they are left as they are (docs/system.md). */
#if defined(__x86_64__) && defined(SHAKERAND_HAVE_X86_64_KERNELS)
#if defined(_WIN32)
/* The Windows x64 convention: rbx, rbp, rdi, rsi, r12-r15 and the low 128
 * bits of xmm6-xmm15 are callee-saved, so the work gave them back as it
 * found them; the rest is caller-saved: rax, rcx, rdx, r8-r11, xmm0-xmm5,
 * the upper halves of ymm0-ymm15 (and of zmm0-zmm15) and zmm16-zmm31. Only
 * those are zeroed: clobbering a callee-saved one would only have the
 * compiler save and restore it around the zeroing. */
__attribute__((target("avx"))) static void zero_low_vectors_avx(void)
{
    __asm__ __volatile__("vzeroupper\n\tvpxor %%xmm0, %%xmm0, %%xmm0\n\t"
                         "vpxor %%xmm1, %%xmm1, %%xmm1\n\tvpxor %%xmm2, %%xmm2, %%xmm2\n\t"
                         "vpxor %%xmm3, %%xmm3, %%xmm3\n\tvpxor %%xmm4, %%xmm4, %%xmm4\n\t"
                         "vpxor %%xmm5, %%xmm5, %%xmm5"
                         :
                         :
                         : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5");
}

static void zero_low_vectors_sse(void)
{
    __asm__ __volatile__("pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
                         "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5"
                         :
                         :
                         : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5");
}

static void zero_general(void)
{
    __asm__ __volatile__("xorl %%eax, %%eax\n\txorl %%ecx, %%ecx\n\txorl %%edx, %%edx\n\t"
                         "xorl %%r8d, %%r8d\n\txorl %%r9d, %%r9d\n\txorl %%r10d, %%r10d\n\t"
                         "xorl %%r11d, %%r11d"
                         :
                         :
                         : "rax", "rcx", "rdx", "r8", "r9", "r10", "r11");
}
#else
/* System V: every vector register and rax, rcx, rdx, rsi, rdi, r8-r11 are
 * caller-saved. */
__attribute__((target("avx"))) static void zero_low_vectors_avx(void)
{
    __asm__ __volatile__("vzeroall" /* all of zmm0-15 where AVX-512 is on */
                         :
                         :
                         : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                           "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

/* Without AVX2 (an AVX-only CPU, or none): the xmm halves; code that wrote
 * the upper halves ended with vzeroupper. */
static void zero_low_vectors_sse(void)
{
    __asm__ __volatile__("pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
                         "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
                         "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\tpxor %%xmm8, %%xmm8\n\t"
                         "pxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
                         "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\t"
                         "pxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15"
                         :
                         :
                         : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                           "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

static void zero_general(void)
{
    __asm__ __volatile__("xorl %%eax, %%eax\n\txorl %%ecx, %%ecx\n\txorl %%edx, %%edx\n\t"
                         "xorl %%esi, %%esi\n\txorl %%edi, %%edi\n\txorl %%r8d, %%r8d\n\t"
                         "xorl %%r9d, %%r9d\n\txorl %%r10d, %%r10d\n\txorl %%r11d, %%r11d"
                         :
                         :
                         : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11");
}
#endif

/* Caller-saved under both conventions. */
__attribute__((target("avx512f"))) static void zero_zmm16_31(void)
{
    __asm__ __volatile__("vpxord %%zmm16, %%zmm16, %%zmm16\n\tvpxord %%zmm17, %%zmm17, %%zmm17\n\t"
                         "vpxord %%zmm18, %%zmm18, %%zmm18\n\tvpxord %%zmm19, %%zmm19, %%zmm19\n\t"
                         "vpxord %%zmm20, %%zmm20, %%zmm20\n\tvpxord %%zmm21, %%zmm21, %%zmm21\n\t"
                         "vpxord %%zmm22, %%zmm22, %%zmm22\n\tvpxord %%zmm23, %%zmm23, %%zmm23\n\t"
                         "vpxord %%zmm24, %%zmm24, %%zmm24\n\tvpxord %%zmm25, %%zmm25, %%zmm25\n\t"
                         "vpxord %%zmm26, %%zmm26, %%zmm26\n\tvpxord %%zmm27, %%zmm27, %%zmm27\n\t"
                         "vpxord %%zmm28, %%zmm28, %%zmm28\n\tvpxord %%zmm29, %%zmm29, %%zmm29\n\t"
                         "vpxord %%zmm30, %%zmm30, %%zmm30\n\tvpxord %%zmm31, %%zmm31, %%zmm31"
                         :
                         :
                         : "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",
                           "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31");
}

static void zero_registers(void)
{
    static _Atomic int width; /* shakerand_x86_vector_registers(), once */
    int w = atomic_load_explicit(&width, memory_order_relaxed);
    if (w == 0) {
        w = shakerand_x86_vector_registers();
        atomic_store_explicit(&width, w, memory_order_relaxed);
    }
    if (w >= 256) {
        zero_low_vectors_avx();
        if (w == 512)
            zero_zmm16_31();
    } else {
        zero_low_vectors_sse();
    }
    zero_general();
}
#elif defined(__aarch64__)
static void zero_registers(void)
{
    /* v8-v15: only their upper halves are the caller's to lose. */
    __asm__ __volatile__(
        "movi v0.2d, #0\n\tmovi v1.2d, #0\n\tmovi v2.2d, #0\n\tmovi v3.2d, #0\n\t"
        "movi v4.2d, #0\n\tmovi v5.2d, #0\n\tmovi v6.2d, #0\n\tmovi v7.2d, #0\n\t"
        "mov v8.d[1], xzr\n\tmov v9.d[1], xzr\n\tmov v10.d[1], xzr\n\tmov v11.d[1], xzr\n\t"
        "mov v12.d[1], xzr\n\tmov v13.d[1], xzr\n\tmov v14.d[1], xzr\n\tmov v15.d[1], xzr\n\t"
        "movi v16.2d, #0\n\tmovi v17.2d, #0\n\tmovi v18.2d, #0\n\tmovi v19.2d, #0\n\t"
        "movi v20.2d, #0\n\tmovi v21.2d, #0\n\tmovi v22.2d, #0\n\tmovi v23.2d, #0\n\t"
        "movi v24.2d, #0\n\tmovi v25.2d, #0\n\tmovi v26.2d, #0\n\tmovi v27.2d, #0\n\t"
        "movi v28.2d, #0\n\tmovi v29.2d, #0\n\tmovi v30.2d, #0\n\tmovi v31.2d, #0\n\t"
        "mov x0, xzr\n\tmov x1, xzr\n\tmov x2, xzr\n\tmov x3, xzr\n\tmov x4, xzr\n\t"
        "mov x5, xzr\n\tmov x6, xzr\n\tmov x7, xzr\n\tmov x8, xzr\n\tmov x9, xzr\n\t"
        "mov x10, xzr\n\tmov x11, xzr\n\tmov x12, xzr\n\tmov x13, xzr\n\tmov x14, xzr\n\t"
        "mov x15, xzr\n\tmov x16, xzr\n\tmov x17, xzr"
        :
        :
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13",
          "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26",
          "v27", "v28", "v29", "v30", "v31", "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8",
          "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17");
}
#elif defined(__powerpc64__) && defined(__VSX__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* ELFv2 (little-endian ppc64): r0 and r3-r12 are volatile; of the 64 VSX
 * registers, vs0-vs13 (f0-f13 and their vector halves) and vs32-vs51
 * (v0-v19) are volatile; vs52-vs63 (v20-v31) are callee-saved whole, but
 * of vs14-vs31 only doubleword 0, the FPR f14-f31, is: their doubleword 1
 * is volatile, and a callee that used one as a vector and restored only
 * its FPR (lfd) may leave key words there. That half is zeroed with the
 * FPR kept (xxpermdi takes doubleword 0 of each operand, the second being
 * the zeroed vs0). noinline: no value of a caller can be live in a
 * doubleword 1 across the call, so the asm need not declare vs14-vs31,
 * whose FPR halves it leaves as they are. */
__attribute__((noinline)) static void zero_registers(void)
{
    __asm__ __volatile__(
        "xxlxor 0,0,0\n\txxlxor 1,1,1\n\txxlxor 2,2,2\n\txxlxor 3,3,3\n\t"
        "xxlxor 4,4,4\n\txxlxor 5,5,5\n\txxlxor 6,6,6\n\txxlxor 7,7,7\n\t"
        "xxlxor 8,8,8\n\txxlxor 9,9,9\n\txxlxor 10,10,10\n\txxlxor 11,11,11\n\t"
        "xxlxor 12,12,12\n\txxlxor 13,13,13\n\t"
        "xxpermdi 14,14,0,0\n\txxpermdi 15,15,0,0\n\txxpermdi 16,16,0,0\n\t"
        "xxpermdi 17,17,0,0\n\txxpermdi 18,18,0,0\n\txxpermdi 19,19,0,0\n\t"
        "xxpermdi 20,20,0,0\n\txxpermdi 21,21,0,0\n\txxpermdi 22,22,0,0\n\t"
        "xxpermdi 23,23,0,0\n\txxpermdi 24,24,0,0\n\txxpermdi 25,25,0,0\n\t"
        "xxpermdi 26,26,0,0\n\txxpermdi 27,27,0,0\n\txxpermdi 28,28,0,0\n\t"
        "xxpermdi 29,29,0,0\n\txxpermdi 30,30,0,0\n\txxpermdi 31,31,0,0\n\t"
        "xxlxor 32,32,32\n\txxlxor 33,33,33\n\txxlxor 34,34,34\n\txxlxor 35,35,35\n\t"
        "xxlxor 36,36,36\n\txxlxor 37,37,37\n\txxlxor 38,38,38\n\txxlxor 39,39,39\n\t"
        "xxlxor 40,40,40\n\txxlxor 41,41,41\n\txxlxor 42,42,42\n\txxlxor 43,43,43\n\t"
        "xxlxor 44,44,44\n\txxlxor 45,45,45\n\txxlxor 46,46,46\n\txxlxor 47,47,47\n\t"
        "xxlxor 48,48,48\n\txxlxor 49,49,49\n\txxlxor 50,50,50\n\txxlxor 51,51,51\n\t"
        "li 0,0\n\tli 3,0\n\tli 4,0\n\tli 5,0\n\tli 6,0\n\tli 7,0\n\tli 8,0\n\t"
        "li 9,0\n\tli 10,0\n\tli 11,0\n\tli 12,0"
        :
        :
        : "vs0", "vs1", "vs2", "vs3", "vs4", "vs5", "vs6", "vs7", "vs8", "vs9", "vs10", "vs11",
          "vs12", "vs13", "vs32", "vs33", "vs34", "vs35", "vs36", "vs37", "vs38", "vs39", "vs40",
          "vs41", "vs42", "vs43", "vs44", "vs45", "vs46", "vs47", "vs48", "vs49", "vs50", "vs51",
          "r0", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12");
}
#else
static void zero_registers(void) {}
#endif

typedef uint64_t wipe_block __attribute__((vector_size(16)));

/* Zeroes `len` bytes below the caller's frame: an array of that size in a
 * frame of its own, written without a call, so no other frame (memset's,
 * the dynamic linker's binding it) lands below it afterwards. */
__attribute__((noinline)) static void zero_below(size_t len)
{
    wipe_block below[len / sizeof(wipe_block) + 1];
    volatile unsigned char *top = (unsigned char *)below + sizeof below;
    for (size_t touched = PROBE_BYTES; touched < sizeof below; touched += PROBE_BYTES)
        top[-(ptrdiff_t)touched] = 0;
    *(volatile unsigned char *)below = 0;
#if defined(__x86_64__)
    void *p = below;
    size_t n = sizeof below;
    __asm__ __volatile__("rep stosb" : "+D"(p), "+c"(n) : "a"(0) : "memory");
#else
    volatile wipe_block *v = below;
    for (size_t i = 0; i < sizeof below / sizeof *below; i++)
        v[i] = (wipe_block){0, 0};
#endif
    __asm__ __volatile__("" : : "r"(below) : "memory");
}

static void wipe(size_t work)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    /* Sanitizers move frames off the stack and intercept signals and
     * fork: the wipe would not reach the frames, and is left out. */
    (void)work;
    return;
#endif
    if (TESTING_SKIP_WIPE())
        return;
    zero_registers();
    const size_t depth = wipe_depth((uintptr_t)__builtin_frame_address(0), work + binding_bytes());
    if (depth > 0)
        zero_below(depth);
}

__attribute__((noinline)) void shakerand_wipe_stack_kernel(void) { wipe(KERNEL_WORK_BYTES); }

__attribute__((noinline)) void shakerand_wipe_stack_seed(void) { wipe(SEED_WORK_BYTES); }

#if defined(SHAKERAND_TESTING)
size_t shakerand_stack_work_bytes_for_testing(int seed)
{
    return (seed ? SEED_WORK_BYTES : KERNEL_WORK_BYTES) + binding_bytes();
}
#endif
