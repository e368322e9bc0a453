// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !purego

#include "textflag.h"

// chacha8rand's iteration with NEON, four blocks at a time: lane j of the
// register for state word w is word w of block 4g+j in pass g. The C2SP
// layout puts that word at byte 256g + 16w + 4j, so a pass stores its
// sixteen rows in order, 256 bytes, with no transposition.
//
// Registers: V0-V15 the state rows; V16-V19 the temporaries of the four
// quarter rounds run side by side; V20-V27 the key words, each in every
// lane; V28 the byte table that rotates each word left by 8; V29 the block
// counters of the pass; V30 four 4s (the counters' step). R0 the key, R1
// the output (moving on 256 bytes a pass), R2 the table's address, R3-R6
// the constants, R7 the passes left, R8 the double rounds left. Everything
// stays in registers: nothing is written to the stack.

// The rotate-by-8 byte table, the counters 0-3 and the step 4.
DATA consts<>+0(SB)/8, $0x0605040702010003
DATA consts<>+8(SB)/8, $0x0e0d0c0f0a09080b
DATA consts<>+16(SB)/8, $0x0000000100000000
DATA consts<>+24(SB)/8, $0x0000000300000002
DATA consts<>+32(SB)/8, $0x0000000400000004
DATA consts<>+40(SB)/8, $0x0000000400000004
GLOBL consts<>(SB), (NOPTR+RODATA), $48

// ROTL(x, t, n) sets x to t rotated left by n in each word.
#define ROTL(x, t, n) \
	VSHL $n, t.S4, x.S4; \
	VSRI $(32-n), t.S4, x.S4

// QR4 runs four quarter rounds, (a_i, b_i, c_i, d_i) for i = 0..3, side
// by side, with the temporaries V16-V19.
#define QR4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3) \
	VADD   b0.S4, a0.S4, a0.S4; VADD b1.S4, a1.S4, a1.S4; VADD b2.S4, a2.S4, a2.S4; VADD b3.S4, a3.S4, a3.S4; \
	VEOR   a0.B16, d0.B16, d0.B16; VEOR a1.B16, d1.B16, d1.B16; VEOR a2.B16, d2.B16, d2.B16; VEOR a3.B16, d3.B16, d3.B16; \
	VREV32 d0.H8, d0.H8; VREV32 d1.H8, d1.H8; VREV32 d2.H8, d2.H8; VREV32 d3.H8, d3.H8; \
	VADD   d0.S4, c0.S4, c0.S4; VADD d1.S4, c1.S4, c1.S4; VADD d2.S4, c2.S4, c2.S4; VADD d3.S4, c3.S4, c3.S4; \
	VEOR   c0.B16, b0.B16, V16.B16; VEOR c1.B16, b1.B16, V17.B16; VEOR c2.B16, b2.B16, V18.B16; VEOR c3.B16, b3.B16, V19.B16; \
	ROTL(b0, V16, 12); ROTL(b1, V17, 12); ROTL(b2, V18, 12); ROTL(b3, V19, 12); \
	VADD   b0.S4, a0.S4, a0.S4; VADD b1.S4, a1.S4, a1.S4; VADD b2.S4, a2.S4, a2.S4; VADD b3.S4, a3.S4, a3.S4; \
	VEOR   a0.B16, d0.B16, d0.B16; VEOR a1.B16, d1.B16, d1.B16; VEOR a2.B16, d2.B16, d2.B16; VEOR a3.B16, d3.B16, d3.B16; \
	VTBL   V28.B16, [d0.B16], d0.B16; VTBL V28.B16, [d1.B16], d1.B16; VTBL V28.B16, [d2.B16], d2.B16; VTBL V28.B16, [d3.B16], d3.B16; \
	VADD   d0.S4, c0.S4, c0.S4; VADD d1.S4, c1.S4, c1.S4; VADD d2.S4, c2.S4, c2.S4; VADD d3.S4, c3.S4, c3.S4; \
	VEOR   c0.B16, b0.B16, V16.B16; VEOR c1.B16, b1.B16, V17.B16; VEOR c2.B16, b2.B16, V18.B16; VEOR c3.B16, b3.B16, V19.B16; \
	ROTL(b0, V16, 7); ROTL(b1, V17, 7); ROTL(b2, V18, 7); ROTL(b3, V19, 7)

// func chacha8IterationNEON(key *[8]uint32, out *[992]byte)
TEXT ·chacha8IterationNEON(SB), NOSPLIT, $0-16
	MOVD key+0(FP), R0
	MOVD out+8(FP), R1
	MOVD $consts<>(SB), R2
	VLD1 (R2), [V28.B16, V29.B16, V30.B16]
	VLD1 (R0), [V16.S4, V17.S4]
	VDUP V16.S[0], V20.S4
	VDUP V16.S[1], V21.S4
	VDUP V16.S[2], V22.S4
	VDUP V16.S[3], V23.S4
	VDUP V17.S[0], V24.S4
	VDUP V17.S[1], V25.S4
	VDUP V17.S[2], V26.S4
	VDUP V17.S[3], V27.S4
	MOVW $0x61707865, R3 // "expand 32-byte k"
	MOVW $0x3320646e, R4
	MOVW $0x79622d32, R5
	MOVW $0x6b206574, R6
	MOVD $4, R7

pass:
	VDUP R3, V0.S4
	VDUP R4, V1.S4
	VDUP R5, V2.S4
	VDUP R6, V3.S4
	VORR V20.B16, V20.B16, V4.B16
	VORR V21.B16, V21.B16, V5.B16
	VORR V22.B16, V22.B16, V6.B16
	VORR V23.B16, V23.B16, V7.B16
	VORR V24.B16, V24.B16, V8.B16
	VORR V25.B16, V25.B16, V9.B16
	VORR V26.B16, V26.B16, V10.B16
	VORR V27.B16, V27.B16, V11.B16
	VORR V29.B16, V29.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	VEOR V14.B16, V14.B16, V14.B16
	VEOR V15.B16, V15.B16, V15.B16
	MOVD $4, R8

doubleround:
	QR4(V0, V4, V8, V12, V1, V5, V9, V13, V2, V6, V10, V14, V3, V7, V11, V15)
	QR4(V0, V5, V10, V15, V1, V6, V11, V12, V2, V7, V8, V13, V3, V4, V9, V14)
	SUB  $1, R8
	CBNZ R8, doubleround

	// The key words' input added back (only theirs: chacha8rand).
	VADD V20.S4, V4.S4, V4.S4
	VADD V21.S4, V5.S4, V5.S4
	VADD V22.S4, V6.S4, V6.S4
	VADD V23.S4, V7.S4, V7.S4
	VADD V24.S4, V8.S4, V8.S4
	VADD V25.S4, V9.S4, V9.S4
	VADD V26.S4, V10.S4, V10.S4
	VADD V27.S4, V11.S4, V11.S4
	VADD V30.S4, V29.S4, V29.S4

	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R1)
	VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R1)
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(R1)
	SUB    $1, R7
	CBZ    R7, last
	VST1.P [V12.S4, V13.S4, V14.S4, V15.S4], 64(R1)
	B      pass

last:
	// Group 3's rows 14 and 15 are not output but the next key, which
	// replaces this one (held in V20-V27 until now).
	VST1 [V12.S4, V13.S4], (R1)
	VST1 [V14.S4, V15.S4], (R0)

	// No key or state left in the vector registers.
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	VEOR V8.B16, V8.B16, V8.B16
	VEOR V9.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	VEOR V11.B16, V11.B16, V11.B16
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	VEOR V14.B16, V14.B16, V14.B16
	VEOR V15.B16, V15.B16, V15.B16
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V25.B16, V25.B16, V25.B16
	VEOR V26.B16, V26.B16, V26.B16
	VEOR V27.B16, V27.B16, V27.B16
	VEOR V29.B16, V29.B16, V29.B16
	RET
