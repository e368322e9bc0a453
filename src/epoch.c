/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The process's epoch and the VM generation word (epoch.h). */
#include "epoch.h"

#include "shakerand.h"
#include "system_os.h"

_Atomic uint64_t shakerand_epoch = 1;

static const uint64_t no_vm_counter;
const volatile uint64_t *_Atomic shakerand_vm_counter = &no_vm_counter;

/* The counter's word when this process began to watch it: a seed under
 * another word follows a restore the process saw. */
static _Atomic uint64_t vm_generation_at_start;

/* Moved by shakerand_system_new_epoch alone (a restore hook's call, not a
 * fork): with the VM generation it names the restore a seed follows. */
static _Atomic uint64_t restores;

const volatile uint64_t *shakerand_epoch_watched_vm_counter(void)
{
    const volatile uint64_t *vm = atomic_load_explicit(&shakerand_vm_counter, memory_order_relaxed);
    return vm != &no_vm_counter ? vm : NULL;
}

void shakerand_epoch_watch_vm_counter(const volatile uint64_t *vm)
{
    atomic_store_explicit(&vm_generation_at_start,
                          vm != NULL ? shakerand_system_vm_generation_read(vm) : 0,
                          memory_order_relaxed);
    atomic_store_explicit(&shakerand_vm_counter, vm != NULL ? vm : &no_vm_counter,
                          memory_order_relaxed);
}

void shakerand_epoch_fork_child(void)
{
    atomic_fetch_add_explicit(&shakerand_epoch, 1, memory_order_relaxed);
}

void shakerand_system_new_epoch(void)
{
    atomic_fetch_add_explicit(&restores, 1, memory_order_relaxed);
    /* Release: a seed that reads this epoch (acquire) reads this restore. */
    atomic_fetch_add_explicit(&shakerand_epoch, 1, memory_order_release);
}

int shakerand_epoch_read(uint64_t *epoch, uint64_t restore[2])
{
    *epoch = atomic_load_explicit(&shakerand_epoch, memory_order_acquire);
    const uint64_t restored = atomic_load_explicit(&restores, memory_order_relaxed);
    const volatile uint64_t *vm = shakerand_epoch_watched_vm_counter();
    const uint64_t vm_generation = vm != NULL ? shakerand_system_vm_generation_read(vm) : 0;
    restore[0] = restored;
    restore[1] = vm_generation;
    return restored != 0 ||
           (vm != NULL &&
            vm_generation != atomic_load_explicit(&vm_generation_at_start, memory_order_relaxed));
}
