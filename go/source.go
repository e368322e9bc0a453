// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"encoding/binary"
	"math/big"
	"runtime"
)

// Source is a generator over one engine with a buffer. It implements
// math/rand/v2.Source (Uint64), math/rand.Source64 (Int63, Uint64, Seed)
// and io.Reader. Like rand.NewPCG's, it is not safe for concurrent use.
//
// The engine and the buffer are wiped when the Source becomes unreachable
// (the engine's C memory freed in the cgo build). Bytes handed out are
// zeroed in the buffer at once.
type Source struct {
	_      noCopy // a copy would share the engine: go vet reports it
	st     *stream
	kind   Kind
	seeded bool // deterministic: Seed is allowed
}

func newSource(kind Kind, seed []byte) *Source {
	st := newStream(newEngine(kind, seed))
	s := &Source{st: st, kind: kind}
	runtime.AddCleanup(s, func(st *stream) {
		st.wipe()
		st.src.(*engine).free()
	}, st)
	return s
}

// NewSource returns a non-deterministic Source: an engine of the system
// generator's kind (SystemKind: ChaCha8Rand unless the environment chose
// TurboSHAKE256x8) seeded with 32 bytes of the system generator.
func NewSource() *Source {
	var seed [32]byte
	systemFill(seed[:])
	s := newSource(SystemKind(), seed[:])
	clear(seed[:])
	return s
}

// NewSeeded returns a deterministic Source whose stream is the engine
// stream for kind and seed, the same as the C library's and every other
// front end's, on every platform and however it is read. The seed may
// have any length, empty included, except for ChaCha8Rand, whose seed is
// exactly 32 bytes. It panics on an unknown kind or a ChaCha8Rand seed of
// another length. A string seed s is []byte(s): its UTF-8 bytes, as in
// every language (docs/engines.md, "Seeds").
// Anyone who knows the seed can compute every value, so the values are
// secret only as long as the seed is.
func NewSeeded(kind Kind, seed []byte) *Source {
	s := newSource(kind, seed)
	s.seeded = true
	return s
}

// Kind returns the engine kind of the Source.
func (s *Source) Kind() Kind { return s.kind }

// Seed re-seeds a deterministic Source: it becomes NewSeeded(kind, b) with
// the same kind and b the 8 bytes of uint64(seed), little-endian (for a
// kind whose seed has a fixed size, as ChaCha8Rand's 32, those 8 bytes and
// zero bytes up to it). It panics on a Source from NewSource, which has no
// seed to repeat (math/rand's Seed is the way programs ask for a
// repeatable stream; a secure one must not silently become repeatable).
func (s *Source) Seed(seed int64) {
	if !s.seeded {
		panic("shakerand: Seed called on a non-deterministic Source")
	}
	// A kind with a fixed seed size (ChaCha8Rand's 32) takes the 8 bytes
	// padded with zeros to it.
	r, _ := s.kind.row()
	b := make([]byte, max(8, r.seedSize))
	binary.LittleEndian.PutUint64(b, uint64(seed))
	old := s.st.src.(*engine)
	s.st.src = newEngine(s.kind, b)
	s.st.wipe()
	old.free()
	runtime.KeepAlive(s)
}

// Uint64 returns the next 8 bytes of the stream as a little-endian word,
// as the C function shakerand_engine_u64.
func (s *Source) Uint64() uint64 {
	// stream.uint64's body written out: neither inlines (go build
	// -gcflags=-m), so this saves a call per word. The buffer is Go
	// memory; only the refill (uint64Slow) touches the engine.
	st := s.st
	p := st.pos
	if p > streamSize-8 {
		return s.uint64Slow()
	}
	v := take8((*[8]byte)(st.buf[p : p+8]))
	st.pos = p + 8
	return v
}

func (s *Source) uint64Slow() uint64 {
	v := s.st.uint64Slow()
	runtime.KeepAlive(s)
	return v
}

// Int63 returns a value in [0, 2^63): Uint64 with its top bit cleared.
func (s *Source) Int63() int64 {
	// Uint64's body again: one call less on rand.Rand's hot path.
	st := s.st
	p := st.pos
	if p > streamSize-8 {
		return int64(s.uint64Slow() &^ (1 << 63))
	}
	v := take8((*[8]byte)(st.buf[p : p+8]))
	st.pos = p + 8
	return int64(v &^ (1 << 63))
}

// Read fills b with the next len(b) bytes of the stream; it never fails.
func (s *Source) Read(b []byte) (int, error) {
	s.st.readThrough(b)
	runtime.KeepAlive(s)
	return len(b), nil
}

// Uint64N returns a value in [0, n) by Lemire's multiply-and-reject, the
// same values from the same stream as the C sampler shakerand_uniform_u64
// on this Source's engine. It panics if n == 0.
func (s *Source) Uint64N(n uint64) uint64 {
	if n == 0 {
		panic("invalid argument to Uint64N")
	}
	return uniform(n, s.Uint64)
}

// Float64 returns a value in [0, 1): the top 53 bits of the next word
// times 2^-53, as the C sampler shakerand_double, so a seeded Source gives
// the value every front end gives. rand.New(s).Float64() is math/rand/v2's
// formula instead (the low 53 bits of the word), a different value from
// the same stream (ExampleSource_Float64).
func (s *Source) Float64() float64 { return float64(s.Uint64()>>11) * 0x1.0p-53 }

// BigIntN returns a uniform value in [0, max) by RNG-BC-1, the same value
// from the same stream as the C sampler shakerand_below on this Source's
// engine. It panics if max <= 0.
func (s *Source) BigIntN(max *big.Int) *big.Int {
	return bigIntN(max, func(b []byte) { s.Read(b) })
}

// noCopy makes go vet's copylocks check report copies of a Source.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
