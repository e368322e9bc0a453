/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Runs a command where the kernel refuses MADV_WIPEONFORK, as Linux before
 * 4.14 does: a seccomp filter makes madvise(addr, len, MADV_WIPEONFORK)
 * fail with EINVAL, for the command and everything it starts. With
 * --refuse-mmap BYTES, anonymous mmap calls of exactly that length fail
 * with ENOMEM too, so a front end that maps its buffer falls back to its
 * other allocation (the buffer sizes are the front ends' own; other
 * mappings of the process are left alone).
 *
 * The one copy: the C, Python, Go and Java suites build it from here
 * (cc -o no_wipeonfork tests/no_wipeonfork.c) and run a raw-fork test
 * under it:
 *   no_wipeonfork [--refuse-mmap BYTES] [--check] -- COMMAND [ARG...]
 * --check exits 0 if the filter works here (a madvise of WIPEONFORK is
 * refused with EINVAL, and so is a refused mmap), 77 if this system cannot
 * install it, without running a command.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif

#if defined(__x86_64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define THIS_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_S390X
#else
#error "no seccomp architecture for this target"
#endif

/* The low 32 bits of system call argument i (seccomp_data is host-endian). */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define ARG_HI(i) (offsetof(struct seccomp_data, args) + 8 * (i) + 4)
#else
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i) + 4)
#define ARG_HI(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#endif

static int install(uint64_t refuse_mmap)
{
    const uint32_t lo = (uint32_t)refuse_mmap, hi = (uint32_t)(refuse_mmap >> 32);
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_madvise, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MADV_WIPEONFORK, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
        /* Without --refuse-mmap the program ends here. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 0, 7),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(1)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, lo, 0, 5),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_HI(1)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, hi, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(3)),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_ANONYMOUS, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOMEM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    enum { WIPEONFORK_ONLY = 8 };
    struct sock_fprog prog = {.len = sizeof f / sizeof *f, .filter = f};
    if (refuse_mmap == 0) {
        f[WIPEONFORK_ONLY] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        prog.len = WIPEONFORK_ONLY + 1;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static int check(uint64_t refuse_mmap)
{
    const size_t len = refuse_mmap != 0 ? (size_t)refuse_mmap : 4096;
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 1;
    if (madvise(p, 4096, MADV_WIPEONFORK) == 0 || errno != EINVAL) {
        fprintf(stderr, "no_wipeonfork: MADV_WIPEONFORK was not refused\n");
        return 1;
    }
    if (refuse_mmap != 0) {
        void *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (q != MAP_FAILED || errno != ENOMEM) {
            fprintf(stderr, "no_wipeonfork: an mmap of %zu bytes was not refused\n", len);
            return 1;
        }
    }
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: no_wipeonfork [--refuse-mmap BYTES] [--check] -- COMMAND [ARG...]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    uint64_t refuse_mmap = 0;
    int only_check = 0, i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (strcmp(argv[i], "--check") == 0) {
            only_check = 1;
        } else if (strcmp(argv[i], "--refuse-mmap") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            refuse_mmap = strtoull(argv[++i], &end, 0);
            if (errno != 0 || *end != '\0' || refuse_mmap == 0)
                usage();
        } else {
            usage();
        }
    }
    if (install(refuse_mmap) != 0) {
        fprintf(stderr, "no_wipeonfork: cannot install a seccomp filter: %s\n", strerror(errno));
        return 77;
    }
    if (only_check)
        return check(refuse_mmap);
    if (i >= argc)
        usage();
    execvp(argv[i], argv + i);
    fprintf(stderr, "no_wipeonfork: %s: %s\n", argv[i], strerror(errno));
    return 127;
}
