// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

#include "textflag.h"

// func cycleCounter() uint64: the virtual counter.
TEXT ·cycleCounter(SB), NOSPLIT, $0-8
	MRS CNTVCT_EL0, R0
	MOVD R0, ret+0(FP)
	RET
