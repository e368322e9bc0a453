/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The process's epoch and the VM generation word (private, epoch.c): a
 * state seeded under other words than these is seeded again before it
 * serves. A fork (in the child) and shakerand_system_new_epoch (a restore
 * hook's call) move the epoch; the hypervisor moves its VM generation
 * counter at each restore from a snapshot.
 */
#ifndef SHAKERAND_EPOCH_H
#define SHAKERAND_EPOCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "arch.h"

/* It starts at 1, so a page a fork wiped (epoch 0) is of no epoch. */
extern _Atomic uint64_t shakerand_epoch SHAKERAND_HIDDEN;
/* The hypervisor's VM generation counter (system_os.h), mapped by the
 * system generator's setup, which every thread with a state has been
 * through; where none is watched, a word that stays 0, so the check needs
 * no branch of its own for that. */
extern const volatile uint64_t *_Atomic shakerand_vm_counter SHAKERAND_HIDDEN;

/* Whether a state seeded in `epoch` under `vm_generation` (0 where none
 * is watched) is of this epoch and VM generation, in one branch (the
 * counter's 8 bytes as a word: an aligned word's load is whole on 64-bit
 * hosts, and a torn one on a 32-bit host only costs a needless reseed). */
static inline int shakerand_in_epoch(uint64_t epoch, uint64_t vm_generation)
{
    const volatile uint64_t *vm = atomic_load_explicit(&shakerand_vm_counter, memory_order_relaxed);
    return ((epoch ^ atomic_load_explicit(&shakerand_epoch, memory_order_relaxed)) |
            (*vm ^ vm_generation)) == 0;
}

/* The counter the generator watches, or NULL. */
const volatile uint64_t *shakerand_epoch_watched_vm_counter(void);

/* Watches vm (NULL: none) from now on; its word now is the one a seed
 * compares to tell a restore this process saw. */
void shakerand_epoch_watch_vm_counter(const volatile uint64_t *vm);

/* The fork hook's work, in the child: a new epoch. */
void shakerand_epoch_fork_child(void);

/* What a seed records, read in this order before the sources: the epoch
 * (an acquire, pairing with shakerand_system_new_epoch's release), then
 * `restore`, the restore the process last saw: restore[0] counts
 * shakerand_system_new_epoch's calls, restore[1] is the VM generation now
 * (0 where none is watched). Returns whether a restore was seen (a call of
 * shakerand_system_new_epoch, or the VM generation moved since the process
 * began to watch it). */
int shakerand_epoch_read(uint64_t *epoch, uint64_t restore[2]);

#endif
