/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The step hook every file's SHAKERAND_TEST_STEP calls (internal.h,
 * testing.h); only in the testing library, empty in other builds. */
#if defined(SHAKERAND_TESTING)
#include "testing.h"

void (*volatile shakerand_step_hook_for_testing)(void);
#else
typedef int shakerand_no_step_hook; /* ISO C wants a declaration */
#endif
