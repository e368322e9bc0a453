/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* What this compilation's target allows, decided from the compiler's own
 * target rather than by the build system: which CPU's kernels it builds (a
 * build that does not name its processor, or one slice of a universal
 * macOS build, gets what it actually compiles for; the x86-64 kernels need
 * GCC or clang, their instruction sets enabled per function by target
 * attributes), the thread-locals' model, and the visibility of data the
 * core's files share. */
#ifndef SHAKERAND_ARCH_H
#define SHAKERAND_ARCH_H

#if !defined(SHAKERAND_HAVE_X86_64_KERNELS) && defined(__x86_64__) && defined(__GNUC__)
#define SHAKERAND_HAVE_X86_64_KERNELS 1
#endif

/* The thread-locals read on every draw: initial-exec (one offset load, no
 * call, in a shared library) where the C library keeps static TLS to spare
 * for a library loaded later (glibc, macOS, FreeBSD); musl refuses to load
 * such a library at all ("initial-exec TLS resolves to dynamic
 * definition"), so there and elsewhere the compiler's default model. The
 * C library's own macro (__GLIBC__) needs one of its headers first. */
#include <stdint.h>
#if defined(__GNUC__) && (defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__))
#define SHAKERAND_TLS_INITIAL_EXEC __attribute__((tls_model("initial-exec")))
#else
#define SHAKERAND_TLS_INITIAL_EXEC
#endif

/* Data that one file of the core defines and another reads on every draw
 * (the thread's words, the epoch): hidden, so a shared library reaches it
 * with no load from the global offset table whatever the build's own
 * visibility option (the Go build gives none). */
#if defined(__GNUC__) && !defined(_WIN32)
#define SHAKERAND_HIDDEN __attribute__((visibility("hidden")))
#else
#define SHAKERAND_HIDDEN
#endif

#endif
