// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

/*
#include <stdlib.h>
#include "shakerand.h"
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"unsafe"
)

// Kind names an engine of the C core (docs/engines.md has the definitions);
// the values are the C enum shakerand_kind's.
type Kind int

const (
	// TurboSHAKE256 is RandomSHAKE's TurboSHAKE256 stream.
	TurboSHAKE256 Kind = 1
	// SHAKE256 is the same construction over SHAKE256 (FIPS 202).
	SHAKE256 Kind = 2
	// TurboSHAKE256x8 is the 8-lane Keccak engine: eight TurboSHAKE256 sponges per
	// 8-way permutation, rekeyed from its own output every 1056 bytes.
	TurboSHAKE256x8 Kind = 3
	// ChaCha8Rand is C2SP chacha8rand, the generator behind math/rand/v2's
	// ChaCha8: for a seed s its stream is the bytes rand.NewChaCha8(s).Read
	// gives, and a Source's Uint64 returns the same words as that ChaCha8's
	// Uint64. Its seed is exactly 32 bytes. The fastest engine, and the one
	// the system generator runs by default.
	ChaCha8Rand Kind = 4
)

// String returns the C library's name of the kind ("turboshake256x8", ...).
func (k Kind) String() string {
	if p := C.shakerand_kind_name(C.shakerand_kind(k)); p != nil {
		return C.GoString(p)
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

const (
	engineSize = C.SHAKERAND_ENGINE_SIZE
	// Bytes buffered on the Go side: one cgo call (about 30 ns) per 256
	// words keeps the call's cost near 0.1 ns a word.
	srcBufSize = 2048
	// A ChaCha8Rand seed is one ChaCha key, as rand.NewChaCha8's [32]byte.
	chacha8SeedSize = 32
)

// Source is a generator over one C engine with a Go-side buffer. It
// implements math/rand/v2.Source (Uint64), math/rand.Source64 (Int63,
// Uint64, Seed) and io.Reader. Like rand.NewPCG's, it is not safe for
// concurrent use.
//
// The engine and the buffer live in C memory (the engine must be 64-byte
// aligned and is never moved); both are wiped and freed when the Source
// becomes unreachable. Bytes handed out are zeroed in the buffer at once.
type Source struct {
	_      noCopy // a copy would share the engine: go vet reports it
	eng    *C.shakerand_engine
	buf    *[srcBufSize]byte // C memory, right after the engine
	pos    int               // bytes of buf handed out (and zeroed)
	kind   Kind
	seeded bool // deterministic: Seed is allowed
}

// newSource allocates the engine and buffer and initialises the engine.
func newSource(kind Kind, seed []byte) *Source {
	mem := C.aligned_alloc(64, C.size_t(engineSize+srcBufSize))
	if mem == nil {
		panic("shakerand: out of memory")
	}
	s := &Source{
		eng:  (*C.shakerand_engine)(mem),
		buf:  (*[srcBufSize]byte)(unsafe.Add(mem, engineSize)),
		pos:  srcBufSize,
		kind: kind,
	}
	runtime.AddCleanup(s, func(m unsafe.Pointer) {
		C.shakerand_engine_wipe((*C.shakerand_engine)(m))
		C.shakerand_memzero(unsafe.Add(m, engineSize), C.size_t(srcBufSize))
		C.free(m)
	}, mem)
	clear(s.buf[:]) // C memory comes uninitialised
	s.init(seed)
	return s
}

func (s *Source) init(seed []byte) {
	if s.kind == ChaCha8Rand && len(seed) != chacha8SeedSize {
		panic(fmt.Sprintf("shakerand: a chacha8rand seed is exactly %d bytes, not %d",
			chacha8SeedSize, len(seed)))
	}
	var p unsafe.Pointer
	if len(seed) > 0 {
		p = unsafe.Pointer(&seed[0])
	}
	if C.shakerand_engine_init(s.eng, C.shakerand_kind(s.kind), p, C.size_t(len(seed))) != C.SHAKERAND_OK {
		panic(fmt.Sprintf("shakerand: unknown engine kind %d", int(s.kind)))
	}
	clear(s.buf[:])
	s.pos = srcBufSize
}

// NewSource returns a non-deterministic Source: an engine of the system
// generator's kind (SystemKind: ChaCha8Rand unless the environment chose
// TurboSHAKE256x8) seeded with 32 bytes of the system generator.
func NewSource() *Source {
	var seed [32]byte
	C.shakerand_system_fill(unsafe.Pointer(&seed[0]), C.size_t(len(seed)))
	s := newSource(SystemKind(), seed[:])
	clear(seed[:])
	return s
}

// NewSeeded returns a deterministic Source whose stream is the C library's
// engine stream for kind and seed: the same on every platform and however
// it is read. The seed may have any length, empty included, except for
// ChaCha8Rand, whose seed is exactly 32 bytes. It panics on an unknown kind
// or a ChaCha8Rand seed of another length.
// Anyone who knows the seed can compute every value, so the values are
// secret only as long as the seed is.
func NewSeeded(kind Kind, seed []byte) *Source {
	s := newSource(kind, seed)
	s.seeded = true
	return s
}

// Seed re-seeds a deterministic Source: it becomes NewSeeded(kind, b) with
// the same kind and b the 8 bytes of uint64(seed), little-endian (for
// ChaCha8Rand, which takes 32, those 8 bytes and 24 zero bytes). It panics
// on a Source from NewSource, which has no seed to repeat (math/rand's
// Seed is the way programs ask for a repeatable stream; a secure one must
// not silently become repeatable).
func (s *Source) Seed(seed int64) {
	if !s.seeded {
		panic("shakerand: Seed called on a non-deterministic Source")
	}
	var b [chacha8SeedSize]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(seed))
	if s.kind == ChaCha8Rand {
		s.init(b[:])
	} else {
		s.init(b[:8])
	}
	runtime.KeepAlive(s)
}

func (s *Source) refill() {
	C.shakerand_engine_fill(s.eng, unsafe.Pointer(&s.buf[0]), C.size_t(srcBufSize))
	s.pos = 0
	runtime.KeepAlive(s)
}

// Uint64 returns the next 8 bytes of the stream as a little-endian word,
// as the C function shakerand_engine_u64.
func (s *Source) Uint64() uint64 {
	p := s.pos
	if p > srcBufSize-8 {
		return s.uint64Slow()
	}
	v := take8((*[8]byte)(s.buf[p : p+8]))
	s.pos = p + 8
	return v
}

// uint64Slow takes a word across a refill: the bytes left in the buffer
// (fewer than 8 when a Read stopped at an odd place) come first, so the
// words are the stream's next 8 bytes however reads and words are mixed.
// Kept apart so that Uint64 stays small enough to inline.
func (s *Source) uint64Slow() uint64 {
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

// Int63 returns a value in [0, 2^63): Uint64 with its top bit cleared.
func (s *Source) Int63() int64 {
	// Uint64's body again: one call less on rand.Rand's hot path.
	p := s.pos
	if p > srcBufSize-8 {
		return int64(s.uint64Slow() &^ (1 << 63))
	}
	v := take8((*[8]byte)(s.buf[p : p+8]))
	s.pos = p + 8
	return int64(v &^ (1 << 63))
}

// Read fills b with the next len(b) bytes of the stream; it never fails.
func (s *Source) Read(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if s.pos == srcBufSize {
			if len(b) >= srcBufSize {
				// Straight into b: the stream is the same however it is
				// sliced, so the buffer can be bypassed.
				m := len(b) &^ (srcBufSize - 1)
				C.shakerand_engine_fill(s.eng, unsafe.Pointer(&b[0]), C.size_t(m))
				b = b[m:]
				continue
			}
			s.refill()
		}
		c := copy(b, s.buf[s.pos:])
		clear(s.buf[s.pos : s.pos+c])
		s.pos += c
		b = b[c:]
	}
	runtime.KeepAlive(s)
	return n, nil
}

// Uint64N returns a value in [0, n) by Lemire's multiply-and-reject, the
// same values from the same stream as the C sampler shakerand_uniform_u64
// on this Source's engine. It panics if n == 0.
func (s *Source) Uint64N(n uint64) uint64 {
	if n == 0 {
		panic("invalid argument to Uint64N")
	}
	hi, lo := bits.Mul64(s.Uint64(), n)
	if lo < n {
		t := -n % n // 2^64 mod n
		for lo < t {
			hi, lo = bits.Mul64(s.Uint64(), n)
		}
	}
	return hi
}

// Float64 returns a value in [0, 1), as the C sampler shakerand_double.
func (s *Source) Float64() float64 { return float64(s.Uint64()>>11) * 0x1.0p-53 }

// noCopy makes go vet's copylocks check report copies of a Source.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
