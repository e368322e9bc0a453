// SPDX-License-Identifier: MIT OR Apache-2.0
// Whether a test can read back what earlier frames left on the stack.
// AddressSanitizer and ThreadSanitizer move frames off the stack, and the
// library leaves its stack wipe out there (src/stack_wipe.c), so such a read
// finds nothing meaningful: tests that rely on it skip.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STACK_READ_BACK_WORKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define STACK_READ_BACK_WORKS 0
#endif
#endif
#if !defined(STACK_READ_BACK_WORKS)
#define STACK_READ_BACK_WORKS 1
#endif
