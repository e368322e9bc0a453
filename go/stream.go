// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"encoding/binary"
	"math/bits"
)

// streamSize is a stream's buffer (a power of two: readThrough). A refill
// has a fixed cost (a cgo call, and in the C core about 250 ns a call
// besides the generation, measured on an AVX2 EPYC under load; in the
// pure-Go build a lock and the clock check): one per 512 words measured
// 0.5 to 0.8 ns a word less than one per 256 in the cgo build, and the
// same in the pure-Go build (2 KiB through rand.New(...).Int63 had measured
// 0.5 ns a word less than 1 KiB).
const streamSize = 4096

// filler is where a stream's bytes come from: the system generator
// (systemFiller) or one seeded engine.
type filler interface{ fill(p []byte) }

// stream hands out a filler's bytes in order through a buffer: the one
// buffered type behind both the per-P buffers of the top-level functions
// and a Source. Bytes handed out are zeroed in the buffer at once and the
// position moved past them, so none is handed out twice (a refill
// overwrites the whole buffer). Words are the stream's next 8 bytes read
// little-endian, however reads and words are mixed. Not safe for
// concurrent use.
type stream struct {
	pos  int // bytes of buf handed out (and zeroed)
	buf  [streamSize]byte
	src  filler
	mark epochMark // the system generator's epoch at the last refill
}

func newStream(src filler) *stream { return &stream{pos: streamSize, src: src} }

// refill reads the epoch before the fill, so that a new epoch during it
// shows (only the system generator's streams compare it: current).
func (s *stream) refill() {
	s.mark = currentEpoch()
	s.src.fill(s.buf[:])
	s.pos = 0
}

// current reports whether the buffer was filled in the system generator's
// epoch (NewEpoch): the per-P buffers hand out nothing from an older one.
func (s *stream) current() bool { return s.mark == currentEpoch() }

// uint64 is small enough to inline; uint64Slow takes a word across a
// refill.
func (s *stream) uint64() uint64 {
	p := s.pos
	if p > streamSize-8 {
		return s.uint64Slow()
	}
	v := take8((*[8]byte)(s.buf[p : p+8]))
	s.pos = p + 8
	return v
}

// uint64Slow: the bytes left in the buffer (fewer than 8 when a read
// stopped at an odd place) come first.
func (s *stream) uint64Slow() uint64 {
	var w [8]byte
	k := copy(w[:], s.buf[s.pos:])
	clear(s.buf[s.pos:])
	s.refill()
	s.pos = copy(w[k:], s.buf[:])
	clear(s.buf[:s.pos])
	v := binary.LittleEndian.Uint64(w[:])
	clear(w[:])
	return v
}

func (s *stream) uint32() uint32 {
	if s.pos > streamSize-4 {
		var w [4]byte
		s.read(w[:])
		return binary.LittleEndian.Uint32(w[:])
	}
	w := s.buf[s.pos : s.pos+4 : s.pos+4]
	v := binary.LittleEndian.Uint32(w)
	clear(w)
	s.pos += 4
	return v
}

// read copies the next len(out) bytes of the stream into out, through the
// buffer only: out never reaches the filler (an interface call, through
// which a caller's small array would escape to the heap).
func (s *stream) read(out []byte) {
	for len(out) > 0 {
		if s.pos == streamSize {
			s.refill()
		}
		n := copy(out, s.buf[s.pos:])
		clear(s.buf[s.pos : s.pos+n])
		s.pos += n
		out = out[n:]
	}
}

// readThrough is read for large requests: whole buffers' worth go straight
// from the filler into out (the stream is the same however it is sliced).
func (s *stream) readThrough(out []byte) {
	for len(out) > 0 {
		if s.pos == streamSize && len(out) >= streamSize {
			m := len(out) &^ (streamSize - 1)
			s.src.fill(out[:m])
			out = out[m:]
			continue
		}
		n := len(out) // the buffer's rest first, then less than a buffer
		if s.pos < streamSize {
			n = min(n, streamSize-s.pos)
		}
		s.read(out[:n])
		out = out[n:]
	}
}

// wipe zeroes the buffer; the stream refills before its next byte.
func (s *stream) wipe() {
	clear(s.buf[:])
	s.pos = streamSize
}

// uniform returns a value in [0, n), n > 0, by Lemire's multiply-and-
// reject: the high word of word() * n, rejected while the low word falls in
// the 2^64 mod n values that would make some results likelier. It takes the
// same words and gives the same values as the C sampler
// shakerand_uniform_u64, so a seeded Source agrees with C. The one bounded
// sampler of the package: inlined, word is a direct call.
func uniform(n uint64, word func() uint64) uint64 {
	hi, lo := bits.Mul64(word(), n)
	if lo < n {
		t := -n % n // 2^64 mod n
		for lo < t {
			hi, lo = bits.Mul64(word(), n)
		}
	}
	return hi
}
