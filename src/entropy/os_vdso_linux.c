/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The vDSO getrandom (Linux 6.11+).
 *
 * The kernel exports __vdso_getrandom, which produces getrandom's bytes
 * without entering the kernel, from a per-caller opaque state the caller
 * maps with the protection and flags the function reports. It is found by
 * walking the vDSO's dynamic symbols (getauxval(AT_SYSINFO_EHDR); glibc 2.36
 * does not use it). One page of states is mapped on first use and handed
 * out with atomic operations, so there is no lock to fork around; a caller
 * that finds none free, or a kernel without the function, uses the system
 * call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "../entropy.h"

#if defined(__linux__) && defined(__LP64__)
#include <elf.h>
#include <sys/auxv.h>
#include <sys/mman.h>

typedef ssize_t (*vgetrandom_fn)(void *buf, size_t len, unsigned flags, void *state,
                                 size_t state_len);

struct vgetrandom_params {
    uint32_t size_of_opaque_state, mmap_prot, mmap_flags, reserved[13];
};

/* Written once by the thread that moves setup_state from 0 to 1, read by
 * every thread that sees it at 2. A fork while another thread is in setup
 * leaves the child at 1: it then uses the system call. */
enum { SETUP_NOT_DONE, SETUP_RUNNING, SETUP_DONE };
static _Atomic int setup_state;
static vgetrandom_fn vdso_getrandom;
static size_t state_size;
static unsigned char *states;
static unsigned state_count;
static _Atomic uint64_t in_use; /* bit i: state i is taken */

static void *vdso_symbol(const char *wanted)
{
    const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
    if (base == NULL)
        return NULL;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)base;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(const void *)(base + eh->e_phoff);
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(const void *)(base + eh->e_shoff);
    uintptr_t bias = 0;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD) {
            bias = (uintptr_t)base + ph[i].p_offset - ph[i].p_vaddr;
            break;
        }
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_entsize == 0)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(const void *)(base + sh[i].sh_offset);
        const char *names = (const char *)(base + sh[sh[i].sh_link].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sh[i].sh_entsize; k++)
            if (sym[k].st_shndx != SHN_UNDEF && strcmp(names + sym[k].st_name, wanted) == 0)
                return (void *)(bias + sym[k].st_value);
    }
    return NULL;
}

static void setup(void)
{
    vgetrandom_fn f;
    void *sym = vdso_symbol("__vdso_getrandom"); /* x86-64, LoongArch */
    if (sym == NULL)
        sym = vdso_symbol("__kernel_getrandom"); /* arm64, powerpc, s390 */
    if (sym == NULL)
        return;
    memcpy(&f, &sym, sizeof f);
    struct vgetrandom_params params;
    memset(&params, 0, sizeof params);
    if (f(NULL, 0, 0, &params, ~(size_t)0) != 0 || params.size_of_opaque_state == 0)
        return;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (params.size_of_opaque_state > page)
        return;
    void *p = mmap(NULL, page, (int)params.mmap_prot, (int)params.mmap_flags, -1, 0);
    if (p == MAP_FAILED)
        return;
    states = p;
    state_size = params.size_of_opaque_state;
    state_count = (unsigned)(page / state_size);
    if (state_count > 64)
        state_count = 64;
    vdso_getrandom = f;
}

/* Whether the vDSO can be used; the first caller sets it up, callers that
 * race with it use the system call this once. */
static int ready(void)
{
    int s = atomic_load_explicit(&setup_state, memory_order_acquire);
    if (s == SETUP_NOT_DONE && atomic_compare_exchange_strong(&setup_state, &s, SETUP_RUNNING)) {
        setup();
        s = SETUP_DONE;
        atomic_store_explicit(&setup_state, SETUP_DONE, memory_order_release);
    }
    return s == SETUP_DONE && vdso_getrandom != NULL;
}

/* Index of a free state, taken, or -1. */
static int take(void)
{
    uint64_t used = atomic_load_explicit(&in_use, memory_order_relaxed);
    for (;;) {
        unsigned i = 0;
        while (i < state_count && (used >> i & 1))
            i++;
        if (i == state_count)
            return -1;
        if (atomic_compare_exchange_weak_explicit(&in_use, &used, used | (uint64_t)1 << i,
                                                  memory_order_acquire, memory_order_relaxed))
            return (int)i;
    }
}

int shakerand_entropy_vdso_read(unsigned char *out, size_t len)
{
    if (!ready())
        return -1;
    const int i = take();
    if (i < 0)
        return -1;
    void *state = states + (size_t)i * state_size;
    size_t got = 0;
    int interrupted = 0;
    while (got < len) {
        const ssize_t n = vdso_getrandom(out + got, len - got, 0, state, state_size);
        if (n == -EINTR && ++interrupted < SHAKERAND_EINTR_RETRIES)
            continue;
        if (n <= 0) /* 0 cannot happen for len > 0; never spin on it */
            break;
        got += (size_t)n;
        interrupted = 0;
    }
    atomic_fetch_and_explicit(&in_use, ~((uint64_t)1 << i), memory_order_release);
    return got == len ? 0 : -1;
}
#elif defined(__linux__) /* 32-bit: no vDSO getrandom to look for */
int shakerand_entropy_vdso_read(unsigned char *out, size_t len)
{
    (void)out;
    (void)len;
    return -1;
}
#else
typedef int shakerand_no_vdso; /* other systems: os_call_*.c has no fast_fill */
#endif
