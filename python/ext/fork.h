/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The process's fork handlers (fork.c): they count the forks this process
 * has come through, and in the child empty every buffer linked here.
 */
#ifndef SHAKERAND_PY_FORK_H
#define SHAKERAND_PY_FORK_H

/* A buffer a fork must empty in the child (SystemBits', system_bits.c),
 * linked into the process's list while it lives. empty_in_child runs in
 * the child's fork handler: it may only write the buffer's own memory. */
typedef struct pyext_fork_link {
    struct pyext_fork_link *prev, *next;
    void (*empty_in_child)(struct pyext_fork_link *link);
} pyext_fork_link;

/* Forks this process has come through, counted in the child's fork handler:
 * an engine last used in an earlier generation may hold a parent thread's
 * lock or a half-done fill (engine_object.c, engine_revive). */
extern unsigned long pyext_fork_generation;

/* Once per process; -1 with an ImportError if the handlers cannot be
 * registered. */
int pyext_register_fork_handlers(void);
void pyext_fork_link_add(pyext_fork_link *link);
void pyext_fork_link_remove(pyext_fork_link *link);

#endif
