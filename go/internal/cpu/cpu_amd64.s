// SPDX-License-Identifier: MIT OR Apache-2.0

#include "textflag.h"

// func CPUID(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·CPUID(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func XGETBV0() (lo, hi uint32)
TEXT ·XGETBV0(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, lo+0(FP)
	MOVL DX, hi+4(FP)
	RET
