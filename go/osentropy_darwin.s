// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

#include "textflag.h"

// The trampolines to the C library's functions (osentropy_darwin.go); JMP
// assembles on amd64 and arm64 alike.
TEXT libc_getentropy_trampoline<>(SB),NOSPLIT,$0-0
	JMP	libc_getentropy(SB)

GLOBL	·libcGetentropyTrampolineAddr(SB), RODATA, $8
DATA	·libcGetentropyTrampolineAddr(SB)/8, $libc_getentropy_trampoline<>(SB)

TEXT libc_clock_gettime_trampoline<>(SB),NOSPLIT,$0-0
	JMP	libc_clock_gettime(SB)

GLOBL	·libcClockGettimeTrampolineAddr(SB), RODATA, $8
DATA	·libcClockGettimeTrampolineAddr(SB)/8, $libc_clock_gettime_trampoline<>(SB)
