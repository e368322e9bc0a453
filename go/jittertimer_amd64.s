// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

#include "textflag.h"

// func cycleCounter() uint64: the time-stamp counter.
TEXT ·cycleCounter(SB), NOSPLIT, $0-8
	RDTSC
	SHLQ $32, DX
	ORQ DX, AX
	MOVQ AX, ret+0(FP)
	RET
