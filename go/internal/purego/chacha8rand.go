// SPDX-License-Identifier: MIT OR Apache-2.0

package purego

import (
	"encoding/binary"
	"math/bits"
)

// chacha8rand (docs/engines.md, C2SP chacha8rand): iteration r runs the
// ChaCha8 block function under key K_r for the counters 0..15, lays the 16
// blocks out four at a time (in a group of four blocks, 32-bit word w of
// block j is the group's word 4w + j), hands out the first 992 bytes and
// keeps the last 32 as K_{r+1}. Its stream is math/rand/v2's ChaCha8's (the
// tests' oracle). It is written out here rather than wrapping
// math/rand/v2's for what that one does not do, and the C core does:
// overwrite an iteration's key with the next as soon as the iteration is
// computed (math/rand/v2 keeps it until the iteration's output is used
// up), and zero bytes in the engine as they are handed out.
const chacha8OutputBytes = 992

// chacha8KeyBytes is the seed's length: the seed is K_0.
const chacha8KeyBytes = 32

// chacha8 holds K_{r+1} and the not yet handed out part of I_r: never a
// key whose output was handed out.
type chacha8 struct {
	key [8]uint32
	out [chacha8OutputBytes]byte
	pos int // bytes of out handed out (and zeroed)
}

func newChaCha8(seed []byte) *chacha8 {
	e := &chacha8{pos: chacha8OutputBytes}
	for i := range e.key {
		e.key[i] = binary.LittleEndian.Uint32(seed[4*i:])
	}
	return e
}

func (e *chacha8) Fill(p []byte) {
	for len(p) > 0 {
		if e.pos == chacha8OutputBytes {
			// Whole iterations go straight into the caller's memory (the
			// stream is the same however it is sliced); the next key goes
			// to e.key, never to p, not even for a moment (the AVX2
			// kernel's waiting row goes to a scratch of its own).
			if len(p) >= chacha8OutputBytes {
				chacha8Iteration(&e.key, (*[chacha8OutputBytes]byte)(p))
				p = p[chacha8OutputBytes:]
				continue
			}
			chacha8Iteration(&e.key, &e.out)
			e.pos = 0
		}
		n := copy(p, e.out[e.pos:])
		clear(e.out[e.pos : e.pos+n])
		e.pos += n
		p = p[n:]
	}
}

func (e *chacha8) Uint64() uint64 {
	if p := e.pos; p <= chacha8OutputBytes-8 {
		w := e.out[p : p+8 : p+8]
		v := binary.LittleEndian.Uint64(w)
		clear(w)
		e.pos = p + 8
		return v
	}
	var w [8]byte
	e.Fill(w[:])
	v := binary.LittleEndian.Uint64(w[:])
	clear(w[:])
	return v
}

// Wipe zeroes the key and the output not handed out.
func (e *chacha8) Wipe() {
	clear(e.key[:])
	clear(e.out[:])
	e.pos = chacha8OutputBytes
}

// The ChaCha constants, "expand 32-byte k" as little-endian words.
const (
	chachaC0 = 0x61707865
	chachaC1 = 0x3320646e
	chachaC2 = 0x79622d32
	chachaC3 = 0x6b206574
)

// chacha8IterationGeneric writes I_r[0, 992) to out for the key K_r in
// *key and replaces *key with K_{r+1} = I_r[992, 1024): the portable
// kernel, which every assembly kernel (chacha8rand_*.s) must equal byte for
// byte. chacha8Iteration (chacha8rand_ARCH.go) picks the kernel.
//
// One block at a time: its 16 words stay in local variables through the
// rounds, which the compiler keeps mostly in registers. Blocks side by side
// (as a SIMD kernel runs four) need 32 or 64 live words: two at once
// measured about 1.5 times slower on amd64, the spills to the stack
// costing more than the extra instruction-level parallelism gains. Each
// block stores its words straight into their interleaved places.
func chacha8IterationGeneric(key *[8]uint32, out *[chacha8OutputBytes]byte) {
	for g := 0; g < 3; g++ {
		for j := 0; j < 4; j++ {
			o := 256*g + 4*j
			chacha8Block(key, uint32(4*g+j), (*[chacha8BlockSpan]byte)(out[o:o+chacha8BlockSpan]))
		}
	}
	// The last group's final 32 bytes (its blocks' words 14 and 15) are the
	// next key, which replaces this iteration's at once.
	var last [256]byte
	for j := 0; j < 4; j++ {
		chacha8Block(key, uint32(12+j), (*[chacha8BlockSpan]byte)(last[4*j:4*j+chacha8BlockSpan]))
	}
	copy(out[768:], last[:224])
	for i := range key {
		key[i] = binary.LittleEndian.Uint32(last[224+4*i:])
	}
	clear(last[:])
}

// chacha8BlockSpan is the bytes from a block's first word to the end of
// its last in a group: word w of block j is at 16w + 4j.
const chacha8BlockSpan = 15*16 + 4

// chacha8Block runs ChaCha8 with the key *key and the counter ctr (nonce
// zero) and stores word w of the result, little-endian, at dst[16w:]. As
// chacha8rand defines it, only the key words (4..11) have their input
// added back after the rounds: the other inputs are public constants,
// adding them back would hide nothing.
func chacha8Block(key *[8]uint32, ctr uint32, dst *[chacha8BlockSpan]byte) {
	x0, x1, x2, x3 := uint32(chachaC0), uint32(chachaC1), uint32(chachaC2), uint32(chachaC3)
	x4, x5, x6, x7, x8, x9, x10, x11 := key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7]
	x12, x13, x14, x15 := ctr, uint32(0), uint32(0), uint32(0)
	for i := 0; i < 4; i++ { // four double rounds: 8 rounds
		// Columns.
		x0 += x4
		x12 = bits.RotateLeft32(x12^x0, 16)
		x8 += x12
		x4 = bits.RotateLeft32(x4^x8, 12)
		x0 += x4
		x12 = bits.RotateLeft32(x12^x0, 8)
		x8 += x12
		x4 = bits.RotateLeft32(x4^x8, 7)

		x1 += x5
		x13 = bits.RotateLeft32(x13^x1, 16)
		x9 += x13
		x5 = bits.RotateLeft32(x5^x9, 12)
		x1 += x5
		x13 = bits.RotateLeft32(x13^x1, 8)
		x9 += x13
		x5 = bits.RotateLeft32(x5^x9, 7)

		x2 += x6
		x14 = bits.RotateLeft32(x14^x2, 16)
		x10 += x14
		x6 = bits.RotateLeft32(x6^x10, 12)
		x2 += x6
		x14 = bits.RotateLeft32(x14^x2, 8)
		x10 += x14
		x6 = bits.RotateLeft32(x6^x10, 7)

		x3 += x7
		x15 = bits.RotateLeft32(x15^x3, 16)
		x11 += x15
		x7 = bits.RotateLeft32(x7^x11, 12)
		x3 += x7
		x15 = bits.RotateLeft32(x15^x3, 8)
		x11 += x15
		x7 = bits.RotateLeft32(x7^x11, 7)

		// Diagonals.
		x0 += x5
		x15 = bits.RotateLeft32(x15^x0, 16)
		x10 += x15
		x5 = bits.RotateLeft32(x5^x10, 12)
		x0 += x5
		x15 = bits.RotateLeft32(x15^x0, 8)
		x10 += x15
		x5 = bits.RotateLeft32(x5^x10, 7)

		x1 += x6
		x12 = bits.RotateLeft32(x12^x1, 16)
		x11 += x12
		x6 = bits.RotateLeft32(x6^x11, 12)
		x1 += x6
		x12 = bits.RotateLeft32(x12^x1, 8)
		x11 += x12
		x6 = bits.RotateLeft32(x6^x11, 7)

		x2 += x7
		x13 = bits.RotateLeft32(x13^x2, 16)
		x8 += x13
		x7 = bits.RotateLeft32(x7^x8, 12)
		x2 += x7
		x13 = bits.RotateLeft32(x13^x2, 8)
		x8 += x13
		x7 = bits.RotateLeft32(x7^x8, 7)

		x3 += x4
		x14 = bits.RotateLeft32(x14^x3, 16)
		x9 += x14
		x4 = bits.RotateLeft32(x4^x9, 12)
		x3 += x4
		x14 = bits.RotateLeft32(x14^x3, 8)
		x9 += x14
		x4 = bits.RotateLeft32(x4^x9, 7)
	}
	le := binary.LittleEndian
	le.PutUint32(dst[0:], x0)
	le.PutUint32(dst[16:], x1)
	le.PutUint32(dst[32:], x2)
	le.PutUint32(dst[48:], x3)
	le.PutUint32(dst[64:], x4+key[0])
	le.PutUint32(dst[80:], x5+key[1])
	le.PutUint32(dst[96:], x6+key[2])
	le.PutUint32(dst[112:], x7+key[3])
	le.PutUint32(dst[128:], x8+key[4])
	le.PutUint32(dst[144:], x9+key[5])
	le.PutUint32(dst[160:], x10+key[6])
	le.PutUint32(dst[176:], x11+key[7])
	le.PutUint32(dst[192:], x12)
	le.PutUint32(dst[208:], x13)
	le.PutUint32(dst[224:], x14)
	le.PutUint32(dst[240:], x15)
}
