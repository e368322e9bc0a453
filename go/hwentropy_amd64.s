// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

#include "textflag.h"

// func rdrandStep() (v uint64, ok bool): one RDRAND; CF says a value came.
TEXT ·rdrandStep(SB), NOSPLIT, $0-9
	RDRANDQ AX
	SETCS ok+8(FP)
	MOVQ AX, v+0(FP)
	RET

// func rdseedStep() (v uint64, ok bool): one RDSEED; CF says a value came.
TEXT ·rdseedStep(SB), NOSPLIT, $0-9
	RDSEEDQ AX
	SETCS ok+8(FP)
	MOVQ AX, v+0(FP)
	RET

// func cpuPause()
TEXT ·cpuPause(SB), NOSPLIT, $0-0
	PAUSE
	RET
