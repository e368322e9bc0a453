// SPDX-License-Identifier: MIT OR Apache-2.0

// Package purego is the shakerand engines in portable Go, for the Go
// package's build without cgo: Keccak-p[1600], TurboSHAKE256 and SHAKE256,
// and the engines turboshake256, shake256, turboshake256x8 and chacha8rand
// with exactly the C core's streams (docs/engines.md defines them;
// vectors/shakerand.json pins them).
package purego

import (
	"encoding/binary"
	"math/bits"
)

// roundConstants are Keccak's ι constants; p[1600, n] uses the last n.
var roundConstants = [24]uint64{
	0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
	0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
	0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
	0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
	0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
	0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
}

// piLane[i] and rhoOffset[i]: the ρ-π step visits the lanes in one cycle
// starting at lane 1; lane piLane[i] takes the previous lane rotated by
// rhoOffset[i].
var piLane = [24]int{10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1}
var rhoOffset = [24]int{1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44}

// permute applies the last `rounds` rounds of Keccak-f[1600] to a (lane
// x + 5y at index x + 5y).
func permute(a *[25]uint64, rounds int) {
	for _, rc := range roundConstants[24-rounds:] {
		// θ
		c0 := a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20]
		c1 := a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21]
		c2 := a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22]
		c3 := a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23]
		c4 := a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24]
		d0 := c4 ^ bits.RotateLeft64(c1, 1)
		d1 := c0 ^ bits.RotateLeft64(c2, 1)
		d2 := c1 ^ bits.RotateLeft64(c3, 1)
		d3 := c2 ^ bits.RotateLeft64(c4, 1)
		d4 := c3 ^ bits.RotateLeft64(c0, 1)
		for y := 0; y < 25; y += 5 {
			a[y] ^= d0
			a[y+1] ^= d1
			a[y+2] ^= d2
			a[y+3] ^= d3
			a[y+4] ^= d4
		}
		// ρ and π
		t := a[1]
		for i := 0; i < 24; i++ {
			j := piLane[i]
			t, a[j] = a[j], bits.RotateLeft64(t, rhoOffset[i])
		}
		// χ
		for y := 0; y < 25; y += 5 {
			b0, b1, b2, b3, b4 := a[y], a[y+1], a[y+2], a[y+3], a[y+4]
			a[y] = b0 ^ (^b1 & b2)
			a[y+1] = b1 ^ (^b2 & b3)
			a[y+2] = b2 ^ (^b3 & b4)
			a[y+3] = b3 ^ (^b4 & b0)
			a[y+4] = b4 ^ (^b0 & b1)
		}
		// ι
		a[0] ^= rc
	}
}

// Rate is the byte rate of TurboSHAKE256 and SHAKE256.
const Rate = 136

// sponge is a Keccak sponge with rate Rate and a one-byte domain suffix,
// its state kept as bytes in lane order (little-endian lanes, FIPS 202).
type sponge struct {
	lanes     [25]uint64
	buf       [Rate]byte // the rate part, as bytes, while squeezing
	pos       int
	rounds    int
	domain    byte
	squeezing bool
}

func newSponge(rounds int, domain byte) *sponge {
	return &sponge{rounds: rounds, domain: domain}
}

func (s *sponge) xorByte(i int, b byte) { s.lanes[i/8] ^= uint64(b) << (8 * (i % 8)) }

func (s *sponge) absorb(p []byte) {
	for _, b := range p {
		s.xorByte(s.pos, b)
		s.pos++
		if s.pos == Rate {
			permute(&s.lanes, s.rounds)
			s.pos = 0
		}
	}
}

// exposeRate copies the rate lanes into buf.
func (s *sponge) exposeRate() {
	for i := 0; i < Rate/8; i++ {
		binary.LittleEndian.PutUint64(s.buf[8*i:], s.lanes[i])
	}
}

func (s *sponge) finalize() {
	s.xorByte(s.pos, s.domain)
	s.xorByte(Rate-1, 0x80)
	permute(&s.lanes, s.rounds)
	s.exposeRate()
	s.pos = 0
	s.squeezing = true
}

func (s *sponge) squeeze(out []byte) {
	if !s.squeezing {
		s.finalize()
	}
	for len(out) > 0 {
		if s.pos == Rate {
			permute(&s.lanes, s.rounds)
			s.exposeRate()
			s.pos = 0
		}
		n := copy(out, s.buf[s.pos:])
		s.pos += n
		out = out[n:]
	}
}

func (s *sponge) wipe() {
	clear(s.lanes[:])
	clear(s.buf[:])
	s.pos = 0
}

// TurboSHAKE256Sum writes TurboSHAKE256(in, domain)[0, len(out)) to out (RFC
// 9861; domain in 0x01..0x7F).
func TurboSHAKE256Sum(out, in []byte, domain byte) {
	s := newSponge(12, domain)
	s.absorb(in)
	s.squeeze(out)
	s.wipe()
}

// SHAKE256Sum writes SHAKE256(in)[0, len(out)) to out (FIPS 202).
func SHAKE256Sum(out, in []byte) {
	s := newSponge(24, 0x1F)
	s.absorb(in)
	s.squeeze(out)
	s.wipe()
}
