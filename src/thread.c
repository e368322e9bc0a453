/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The calling thread's words and the in-use marker (thread.h). */
#include "thread.h"

#if !defined(_WIN32)
_Thread_local struct thread_words shakerand_thread_words SHAKERAND_TLS_INITIAL_EXEC;
#endif

int shakerand_thread_enter(void) { return thread_enter(); }

void shakerand_thread_leave(void) { thread_leave(); }
