// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"encoding/binary"
	"math/big"
	"math/bits"
)

// BigIntN returns a uniform value in [0, max) from the system generator by
// RNG-BC-1 (the Optimized Simple Discard Method, docs/samplers.md), which
// draws close to the fewest bits any exact method can. It panics if
// max <= 0, like crypto/rand.Int. (crypto/rand.Int(shakerand.Reader, max)
// works too, by another method.)
func BigIntN(max *big.Int) *big.Int {
	return bigIntN(max, func(b []byte) { Read(b) })
}

// bigIntN is RNG-BC-1 over the byte stream fill draws from, exactly as the
// C sampler shakerand_below does it (same bits, same blocks of bytes, same
// result): the candidate's bits are the stream's next bits, most
// significant first, compared with max from the top 64 bits at a time.
// Where they first differ, a candidate bit 0 against max's 1 means the
// candidate is below max whatever follows: it is accepted and its
// remaining bits are the stream's next bits. A 1 against a 0 means it is
// above: only the bits up to there are spent and the comparison starts
// again, as it does for a candidate equal to max.
func bigIntN(max *big.Int, fill func([]byte)) *big.Int {
	if max.Sign() <= 0 {
		panic("shakerand: argument to BigIntN is <= 0")
	}
	if max.BitLen() == 1 {
		return new(big.Int) // [0, 1): nothing to draw, as in C
	}
	r := max.Bytes()
	out := make([]byte, len(r))
	m := max.BitLen()
	chunks := (m + 63) / 64
	block := 64
	if chunks < 7 {
		block = 8 * (chunks + 1)
	}
	s := bitSource{fill: fill, pos: block, block: block}
	top := uint(m - 64*(chunks-1))
	for !s.candidate(r, out, chunks, top) {
	}
	s.wipe()
	v := new(big.Int).SetBytes(out)
	clear(out)
	return v
}

// candidate draws one candidate into out; false if it was rejected.
func (s *bitSource) candidate(r, out []byte, chunks int, top uint) bool {
	for k := chunks - 1; k >= 0; k-- {
		width := uint(64)
		if k == chunks-1 {
			width = top
		}
		c := s.peek(width)
		diff := c ^ loadChunk(r, k)
		if diff == 0 {
			s.consume(width)
			storeChunk(out, k, c)
			continue
		}
		d := uint(bits.LeadingZeros64(diff)) - (64 - width) // from the top
		s.consume(d + 1)
		rest := width - 1 - d
		if (c>>rest)&1 == 1 {
			return false // above max
		}
		w := (c >> rest) << rest
		if rest > 0 {
			w |= s.peek(rest)
			s.consume(rest)
		}
		storeChunk(out, k, w)
		for k--; k >= 0; k-- {
			storeChunk(out, k, s.peek(64))
			s.consume(64)
		}
		return true
	}
	return false // equal to max
}

// bitSource is the stream as bits, each byte most significant bit first,
// drawn `block` bytes at a time; cur holds the `left` unread bits of the
// current word at its top.
type bitSource struct {
	fill       func([]byte)
	cur, next  uint64
	left       uint
	hasNext    bool
	pos, block int
	buf        [64]byte
}

func (s *bitSource) nextWord() uint64 {
	if s.pos == s.block {
		s.fill(s.buf[:s.block])
		s.pos = 0
	}
	w := binary.BigEndian.Uint64(s.buf[s.pos:])
	s.pos += 8
	return w
}

// peek returns the next k bits (1 <= k <= 64), right-aligned, without
// consuming them.
func (s *bitSource) peek(k uint) uint64 {
	if s.left >= k {
		return s.cur >> (64 - k)
	}
	if !s.hasNext {
		s.next = s.nextWord()
		s.hasNext = true
	}
	window := s.next
	if s.left > 0 {
		window = s.cur | s.next>>s.left
	}
	return window >> (64 - k)
}

// consume drops k bits (k <= 64) after a peek of at least k bits.
func (s *bitSource) consume(k uint) {
	if k <= s.left {
		s.cur <<= k // 0 for k == 64 in Go
		s.left -= k
		return
	}
	k -= s.left
	s.cur = s.next << k
	s.left = 64 - k
	s.hasNext = false
}

func (s *bitSource) wipe() {
	s.cur, s.next = 0, 0
	clear(s.buf[:])
}

// loadChunk returns bits 64k..64k+63 (from the least significant) of the
// big-endian number x; the top chunk may have fewer than 8 bytes.
func loadChunk(x []byte, k int) uint64 {
	n := len(x)
	var w uint64
	for i := min(n-8*k, 8) - 1; i >= 0; i-- {
		w = w<<8 | uint64(x[n-1-8*k-i])
	}
	return w
}

func storeChunk(x []byte, k int, w uint64) {
	n := len(x)
	for i := 0; i < min(n-8*k, 8); i++ {
		x[n-1-8*k-i] = byte(w >> (8 * i))
	}
}
