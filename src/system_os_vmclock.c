/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The hypervisor's VM generation counter (src/system_os.h): Linux's vmclock
 * device (/dev/vmclock0, driver ptp_vmclock), a page laid out as the
 * kernel's struct vmclock_abi (include/uapi/linux/vmclock-abi.h), which
 * QEMU and Firecracker expose. Its vm_generation_counter changes each time
 * the guest is restored from a snapshot, when the flags say the hypervisor
 * keeps it (Firecracker since late 2025). Where they say it does not
 * (QEMU 10 and 11), the page's disruption_marker is watched instead: the
 * ABI makes it change to a value it never had before whenever the guest's
 * clock counter is disrupted, which a restore is (QEMU moves it on every
 * load of the device's state; so does a live migration, which costs a
 * needless reseed). Both clones of one snapshot read the same new value:
 * it says a restore happened, and the reseed then reads what differs
 * (docs/system.md, "Snapshots and clones"). Elsewhere there is none.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system_os.h"

/* Offsets and values of struct vmclock_abi (all little-endian). */
enum {
    VMCLOCK_MAGIC_OFFSET = 0,       /* u32 */
    VMCLOCK_SIZE_OFFSET = 4,        /* u32: the region's size */
    VMCLOCK_VERSION_OFFSET = 8,     /* u16: 1 */
    VMCLOCK_SEQ_OFFSET = 12,        /* u32: odd while the hypervisor writes */
    VMCLOCK_DISRUPTION_OFFSET = 16, /* u64 */
    VMCLOCK_FLAGS_OFFSET = 24,      /* u64 */
    VMCLOCK_VM_GEN_OFFSET = 104,    /* u64 */
    VMCLOCK_ABI_BYTES = 112,        /* the structure up to vm_generation_counter */
    VMCLOCK_SEQ_TRIES = 1 << 12,    /* a hypervisor write takes far fewer */
};
#define VMCLOCK_MAGIC 0x4b4c4356U /* "VCLK" */
#define VMCLOCK_FLAG_VM_GEN_COUNTER_PRESENT (1ULL << 8)

static uint64_t le_bytes(const volatile unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

const volatile uint64_t *shakerand_system_vm_generation_map(const char *path)
{
    /* O_NONBLOCK: whatever lies at the path, opening it never waits. */
    const int fd = open(path != NULL ? path : "/dev/vmclock0", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    const long page = sysconf(_SC_PAGESIZE);
    /* The device is a character device. A regular file stands in for it
     * only in the tests (`path`), and must hold the whole structure. */
    const int usable = fstat(fd, &st) == 0 && page > 0 &&
                       (path == NULL ? S_ISCHR(st.st_mode)
                                     : S_ISREG(st.st_mode) && st.st_size >= VMCLOCK_ABI_BYTES);
    if (!usable) {
        close(fd);
        return NULL;
    }
    void *map = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return NULL;
    const volatile unsigned char *p = map;
    if (le_bytes(p + VMCLOCK_MAGIC_OFFSET, 4) != VMCLOCK_MAGIC ||
        le_bytes(p + VMCLOCK_SIZE_OFFSET, 4) < VMCLOCK_ABI_BYTES ||
        le_bytes(p + VMCLOCK_VERSION_OFFSET, 2) != 1) {
        munmap(map, (size_t)page);
        return NULL;
    }
    const int counter_kept =
        (le_bytes(p + VMCLOCK_FLAGS_OFFSET, 8) & VMCLOCK_FLAG_VM_GEN_COUNTER_PRESENT) != 0;
    return (const volatile uint64_t *)(p + (counter_kept ? VMCLOCK_VM_GEN_OFFSET
                                                         : VMCLOCK_DISRUPTION_OFFSET));
}

/* Read under the device's sequence count, so the value is one the
 * hypervisor finished writing. A count left odd (a stuck or hostile
 * hypervisor) ends the wait after VMCLOCK_SEQ_TRIES reads: the value then
 * read is returned, and a draw compares against it like any other. */
uint64_t shakerand_system_vm_generation_read(const volatile uint64_t *counter)
{
    /* Either word lies in the page's first bytes, mapped at a page's start. */
    const uintptr_t page_mask = (uintptr_t)sysconf(_SC_PAGESIZE) - 1;
    const volatile unsigned char *seq =
        (const volatile unsigned char *)((uintptr_t)counter & ~page_mask) + VMCLOCK_SEQ_OFFSET;
    uint64_t value = *counter;
    for (int i = 0; i < VMCLOCK_SEQ_TRIES; i++) {
        const uint64_t before = le_bytes(seq, 4);
        atomic_thread_fence(memory_order_acquire);
        value = *counter;
        atomic_thread_fence(memory_order_acquire);
        if ((before & 1) == 0 && le_bytes(seq, 4) == before)
            break;
    }
    return value;
}
#else
#include "system_os.h"

const volatile uint64_t *shakerand_system_vm_generation_map(const char *path)
{
    (void)path;
    return NULL;
}
uint64_t shakerand_system_vm_generation_read(const volatile uint64_t *counter) { return *counter; }
#endif
