/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Seeding and reseeding a thread's state (private, system_seed.c). */
#ifndef SHAKERAND_SYSTEM_SEED_H
#define SHAKERAND_SYSTEM_SEED_H

#include <stddef.h>

#include "arch.h"
#include "shakerand.h"

struct system_state;

/* The engine every thread's generator runs: the build's choice, replaced
 * by SHAKERAND_SYSTEM_ENGINE when setup reads it
 * (shakerand_system_choose_kind). */
extern shakerand_kind shakerand_system_engine_kind SHAKERAND_HIDDEN;
void shakerand_system_choose_kind(void);

/* The general path's check, on a state the calling thread holds: seeds it
 * when it is not sound here (first use, after fork or a new epoch) or the
 * byte or time budget is spent (counting what the fast path served since
 * the general path last ran, and len, the bytes about to be drawn); a seed
 * is recorded in *used. A reseed on the budget that fails leaves the sound
 * state serving, is counted, and is tried again at the next check.
 * SHAKERAND_OK, or the status of a first seed that failed. */
int shakerand_system_seed_if_due(struct system_state *s, size_t len, int *used);

/* Seeds s from the sources, followed by a digest of `extra` when given. */
int shakerand_system_seed_with(struct system_state *s, const void *extra, size_t extra_len);

#endif
