// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

#include "textflag.h"

// func rndrStep() (v uint64, ok bool): one read of RNDR (s3_3_c2_c4_0);
// the flags say whether a value came (Z clear).
TEXT ·rndrStep(SB), NOSPLIT, $0-9
	MRS RNDR, R0
	CSET NE, R1
	MOVD R0, v+0(FP)
	MOVB R1, ok+8(FP)
	RET

// func rndrrsStep() (v uint64, ok bool): one read of RNDRRS (s3_3_c2_c4_1).
TEXT ·rndrrsStep(SB), NOSPLIT, $0-9
	MRS RNDRRS, R0
	CSET NE, R1
	MOVD R0, v+0(FP)
	MOVB R1, ok+8(FP)
	RET
