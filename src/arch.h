/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Which CPU's kernels this compilation builds, decided from the compiler's
 * own target rather than by the build system: a build that does not name
 * its processor, or one slice of a universal macOS build, gets what it
 * actually compiles for. The x86-64 kernels need GCC or clang (their
 * instruction sets are enabled per function by target attributes). */
#ifndef SHAKERAND_ARCH_H
#define SHAKERAND_ARCH_H

#if !defined(SHAKERAND_HAVE_X86_64_KERNELS) && defined(__x86_64__) && defined(__GNUC__)
#define SHAKERAND_HAVE_X86_64_KERNELS 1
#endif

#endif
