/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The system generator's setup (private, system.c), for the files above
 * it (system_view.c); the state's layout is system_state.h. */
#ifndef SHAKERAND_SYSTEM_H
#define SHAKERAND_SYSTEM_H

/* Runs the process's setup once: the engine's kind, the VM generation
 * counter, the thread-exit and fork hooks. */
void shakerand_system_setup(void);
/* Whether setup has run, read without pthread_once (which a signal
 * handler must not enter: the thread it interrupted may be inside setup). */
int shakerand_system_setup_done(void);

#endif
