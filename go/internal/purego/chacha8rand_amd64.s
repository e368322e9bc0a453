// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !purego

#include "textflag.h"

// chacha8rand's iteration with AVX2, eight blocks at a time: lane j of the
// register for state word w is word w of block j. The C2SP layout puts word
// w of block 4g+j at byte 256g + 16w + 4j, so the low half of a word's
// register is that word of the first group of four blocks as it lies in
// the output, and the high half the next group's: the rows are stored as
// they are, with no transposition.
//
// The sixteen state rows and a temporary need seventeen registers, AVX2
// has sixteen: one row at a time waits in the caller's 32-byte scratch,
// zeroed before return. Not in the output: at the end of the second pass
// the row waiting there is row 15 of blocks 8-15, whose upper lanes are
// half the next key, and the output may be the caller's memory, read by
// others while the kernel runs. Which row waits moves
// three times a double round (the comments on the swaps say which), so
// that the two quarter rounds run side by side always have their rows in
// registers.
//
// Registers: Y0-Y11 hold rows 0-11 throughout; rows 12-15 and the
// temporary share Y12-Y15 as the swaps say; AX is the key, DI the output,
// SI the waiting row's slot, BX the pass (0: blocks 0-7, 1: blocks 8-15),
// CX the double rounds left.

// The byte shuffles that rotate each 32-bit word left by 16 and by 8.
DATA rot16<>+0(SB)/8, $0x0504070601000302
DATA rot16<>+8(SB)/8, $0x0d0c0f0e09080b0a
DATA rot16<>+16(SB)/8, $0x0504070601000302
DATA rot16<>+24(SB)/8, $0x0d0c0f0e09080b0a
GLOBL rot16<>(SB), (NOPTR+RODATA), $32

DATA rot8<>+0(SB)/8, $0x0605040702010003
DATA rot8<>+8(SB)/8, $0x0e0d0c0f0a09080b
DATA rot8<>+16(SB)/8, $0x0605040702010003
DATA rot8<>+24(SB)/8, $0x0e0d0c0f0a09080b
GLOBL rot8<>(SB), (NOPTR+RODATA), $32

// "expand 32-byte k".
DATA sigma<>+0(SB)/4, $0x61707865
DATA sigma<>+4(SB)/4, $0x3320646e
DATA sigma<>+8(SB)/4, $0x79622d32
DATA sigma<>+12(SB)/4, $0x6b206574
GLOBL sigma<>(SB), (NOPTR+RODATA), $16

// The block counters 0-15 (row 12; the nonce, rows 13-15, is zero).
DATA counters<>+0(SB)/8, $0x0000000100000000
DATA counters<>+8(SB)/8, $0x0000000300000002
DATA counters<>+16(SB)/8, $0x0000000500000004
DATA counters<>+24(SB)/8, $0x0000000700000006
DATA counters<>+32(SB)/8, $0x0000000900000008
DATA counters<>+40(SB)/8, $0x0000000b0000000a
DATA counters<>+48(SB)/8, $0x0000000d0000000c
DATA counters<>+56(SB)/8, $0x0000000f0000000e
GLOBL counters<>(SB), (NOPTR+RODATA), $64

// ROTL(x, t, n) rotates each word of x left by n, t the temporary.
#define ROTL(x, t, n) \
	VPSLLD $n, x, t; \
	VPSRLD $(32-n), x, x; \
	VPOR   t, x, x

// QR2 runs two quarter rounds, (a0, b0, c0, d0) and (a1, b1, c1, d1),
// side by side; t is the temporary.
#define QR2(a0, b0, c0, d0, a1, b1, c1, d1, t) \
	VPADDD  b0, a0, a0; VPADDD b1, a1, a1; \
	VPXOR   a0, d0, d0; VPXOR a1, d1, d1; \
	VPSHUFB rot16<>(SB), d0, d0; VPSHUFB rot16<>(SB), d1, d1; \
	VPADDD  d0, c0, c0; VPADDD d1, c1, c1; \
	VPXOR   c0, b0, b0; VPXOR c1, b1, b1; \
	ROTL(b0, t, 12); ROTL(b1, t, 12); \
	VPADDD  b0, a0, a0; VPADDD b1, a1, a1; \
	VPXOR   a0, d0, d0; VPXOR a1, d1, d1; \
	VPSHUFB rot8<>(SB), d0, d0; VPSHUFB rot8<>(SB), d1, d1; \
	VPADDD  d0, c0, c0; VPADDD d1, c1, c1; \
	VPXOR   c0, b0, b0; VPXOR c1, b1, b1; \
	ROTL(b0, t, 7); ROTL(b1, t, 7)

// STORE14(lo, hi) stores rows 0-13: the low halves (the first group of
// four blocks) at lo, the high halves at hi.
#define STORE14(lo, hi) \
	VMOVDQU X0, 0(lo); VEXTRACTI128 $1, Y0, 0(hi); \
	VMOVDQU X1, 16(lo); VEXTRACTI128 $1, Y1, 16(hi); \
	VMOVDQU X2, 32(lo); VEXTRACTI128 $1, Y2, 32(hi); \
	VMOVDQU X3, 48(lo); VEXTRACTI128 $1, Y3, 48(hi); \
	VMOVDQU X4, 64(lo); VEXTRACTI128 $1, Y4, 64(hi); \
	VMOVDQU X5, 80(lo); VEXTRACTI128 $1, Y5, 80(hi); \
	VMOVDQU X6, 96(lo); VEXTRACTI128 $1, Y6, 96(hi); \
	VMOVDQU X7, 112(lo); VEXTRACTI128 $1, Y7, 112(hi); \
	VMOVDQU X8, 128(lo); VEXTRACTI128 $1, Y8, 128(hi); \
	VMOVDQU X9, 144(lo); VEXTRACTI128 $1, Y9, 144(hi); \
	VMOVDQU X10, 160(lo); VEXTRACTI128 $1, Y10, 160(hi); \
	VMOVDQU X11, 176(lo); VEXTRACTI128 $1, Y11, 176(hi); \
	VMOVDQU X12, 192(lo); VEXTRACTI128 $1, Y12, 192(hi); \
	VMOVDQU X13, 208(lo); VEXTRACTI128 $1, Y13, 208(hi)

// func chacha8IterationAVX2(key *[8]uint32, out *[992]byte, scratch *[32]byte)
TEXT ·chacha8IterationAVX2(SB), NOSPLIT, $0-24
	MOVQ key+0(FP), AX
	MOVQ out+8(FP), DI
	MOVQ scratch+16(FP), SI
	XORQ BX, BX
	VMOVDQU counters<>+0(SB), Y12

pass:
	VPBROADCASTD sigma<>+0(SB), Y0
	VPBROADCASTD sigma<>+4(SB), Y1
	VPBROADCASTD sigma<>+8(SB), Y2
	VPBROADCASTD sigma<>+12(SB), Y3
	VPBROADCASTD 0(AX), Y4
	VPBROADCASTD 4(AX), Y5
	VPBROADCASTD 8(AX), Y6
	VPBROADCASTD 12(AX), Y7
	VPBROADCASTD 16(AX), Y8
	VPBROADCASTD 20(AX), Y9
	VPBROADCASTD 24(AX), Y10
	VPBROADCASTD 28(AX), Y11
	VPXOR   Y13, Y13, Y13
	VPXOR   Y14, Y14, Y14
	VPXOR   Y15, Y15, Y15
	VMOVDQU Y15, (SI) // row 15 waits: rows 12-14 in Y12-Y14, Y15 free
	MOVQ    $4, CX

doubleround:
	// Columns 0 and 1.
	QR2(Y0, Y4, Y8, Y12, Y1, Y5, Y9, Y13, Y15)
	VMOVDQU (SI), Y15 // row 15 to Y15, row 12 waits, Y12 free
	VMOVDQU Y12, (SI)
	// Columns 2 and 3.
	QR2(Y2, Y6, Y10, Y14, Y3, Y7, Y11, Y15, Y12)
	VMOVDQU (SI), Y12 // row 12 back to Y12, row 13 waits, Y13 free
	VMOVDQU Y13, (SI)
	// Diagonals (0, 5, 10, 15) and (1, 6, 11, 12).
	QR2(Y0, Y5, Y10, Y15, Y1, Y6, Y11, Y12, Y13)
	VMOVDQU (SI), Y13 // row 13 back to Y13, row 15 waits, Y15 free
	VMOVDQU Y15, (SI)
	// Diagonals (2, 7, 8, 13) and (3, 4, 9, 14).
	QR2(Y2, Y7, Y8, Y13, Y3, Y4, Y9, Y14, Y15)
	DECQ CX
	JNZ  doubleround

	// The key words' input added back (only theirs: chacha8rand).
	VPBROADCASTD 0(AX), Y15
	VPADDD       Y15, Y4, Y4
	VPBROADCASTD 4(AX), Y15
	VPADDD       Y15, Y5, Y5
	VPBROADCASTD 8(AX), Y15
	VPADDD       Y15, Y6, Y6
	VPBROADCASTD 12(AX), Y15
	VPADDD       Y15, Y7, Y7
	VPBROADCASTD 16(AX), Y15
	VPADDD       Y15, Y8, Y8
	VPBROADCASTD 20(AX), Y15
	VPADDD       Y15, Y9, Y9
	VPBROADCASTD 24(AX), Y15
	VPADDD       Y15, Y10, Y10
	VPBROADCASTD 28(AX), Y15
	VPADDD       Y15, Y11, Y11

	TESTQ BX, BX
	JNZ   last

	// Blocks 0-7: groups 0 and 1, bytes [0, 512). Row 15 comes out of its
	// slot before rows 14 and 15 overwrite it.
	LEAQ         256(DI), R8
	STORE14(DI, R8)
	VMOVDQU      (SI), Y15
	VMOVDQU      X14, 224(DI)
	VMOVDQU      X15, 240(DI)
	VEXTRACTI128 $1, Y14, 480(DI)
	VEXTRACTI128 $1, Y15, 496(DI)

	VMOVDQU counters<>+32(SB), Y12
	INCQ    BX
	JMP     pass

last:
	// Blocks 8-15: group 2 at 512 and group 3 at 768, whose rows 14 and
	// 15 are not output but the next key, which replaces this one.
	LEAQ         512(DI), R9
	LEAQ         768(DI), R8
	STORE14(R9, R8)
	VMOVDQU      (SI), Y15
	VMOVDQU      X14, 224(R9)
	VMOVDQU      X15, 240(R9)
	VEXTRACTI128 $1, Y14, 0(AX)
	VEXTRACTI128 $1, Y15, 16(AX)

	// No key or state left in the vector registers.
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	VPXOR Y12, Y12, Y12
	VPXOR Y13, Y13, Y13
	VPXOR Y14, Y14, Y14
	VPXOR Y15, Y15, Y15
	VMOVDQU Y0, (SI) // the scratch's last row zeroed
	VZEROUPPER
	RET
