// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"encoding/binary"
	"io"
	"math/rand/v2"
)

// The top-level functions take their bytes from 4 KiB streams over the
// system generator: one per P (the scheduler's processor) in
// buffers_perp.go, with a sync.Pool behind them for the rest (and for
// everything under the race detector).
//
// Why buffers: a cgo call costs about 30 ns, so one call per value is too
// slow (in the pure-Go build, each refill locks a generator state). Why
// per P: the C system generator is per OS thread, but goroutines move
// between threads, so no Go-side cache can be keyed by thread; a P runs one
// goroutine at a time, so a per-P buffer needs no lock.
//
// Why it is safe: a buffer is used by one goroutine at a time (a P's slot
// by the goroutine pinned to that P, a pooled stream by the goroutine
// holding it between acquire and release), bytes are zeroed as they are
// handed out, and bytes moved from a stream into a slot are zeroed in the
// stream, which is then empty: no byte is handed out twice. Which thread
// filled a buffer does not matter: its bytes are just bytes of the system
// generator's output. A buffer the pool drops at a garbage collection is
// not zeroed (the pool gives no hook); its unused bytes (usually none: a
// release moves them into the slot) were never handed out and are garbage
// from then on.

// Read fills b with random bytes from the system generator. It always
// fills all of b and returns len(b), nil; like crypto/rand.Read it never
// returns an error (if the operating system gives no entropy the program
// crashes).
//
// Reads shorter than 512 bytes are served from the same per-P buffers as
// Uint64 (up to 4 KiB each, bytes zeroed as they are handed out): those
// bytes live in the package's memory until used, outside the C generator's
// reseed schedule and core-dump exclusion; reads of 512 bytes or more go
// straight to the generator. A child made by fork hands out none of them
// (the package documentation, "Fork"). After a snapshot's restore, NewEpoch
// (or, in the cgo build, a VM generation counter the C library watches)
// makes every buffer refill before its next byte.
func Read(b []byte) (n int, err error) {
	if len(b) >= directReadMin {
		systemFill(b)
	} else if !fastRead(b) { // readSmall written out: one call less
		readSlow(b)
	}
	return len(b), nil
}

// readSmall serves b from the per-P buffers. It never hands b to a cgo
// call or an interface, so a caller's array stays on its stack (NewUUID,
// Text).
func readSmall(b []byte) {
	if !fastRead(b) {
		readSlow(b)
	}
}

func readSlow(b []byte) {
	p := acquire()
	p.read(b)
	release(p)
}

// Requests at least this long skip the buffers and go to the generator
// straight into the caller's memory.
const directReadMin = 512

type reader struct{}

func (reader) Read(b []byte) (int, error) { return Read(b) }

// Reader is a global, shared instance of the system generator, safe for
// concurrent use. Its Read always fills the buffer and never returns an
// error, like crypto/rand.Reader since Go 1.24; crypto/rand.Int(Reader, max)
// and crypto/rand.Prime(Reader, bits) work with it.
var Reader io.Reader = reader{}

// SystemKind returns the engine kind the system generator runs: ChaCha8Rand
// unless the C library was built with, or the environment variable
// SHAKERAND_SYSTEM_ENGINE (read once, at the first use) says,
// turboshake256x8 (docs/system.md). Either way the output is not
// reproducible: the engines are seeded from the operating system.
func SystemKind() Kind { return systemKind() }

// uint64Slow is Uint64 (buffers_perp.go) through acquire and release.
func uint64Slow() uint64 {
	p := acquire()
	v := p.uint64()
	release(p)
	return v
}

// Uint32 returns a uniformly distributed 32-bit value.
func Uint32() uint32 {
	var w [4]byte
	if fastRead(w[:]) {
		return binary.LittleEndian.Uint32(w[:])
	}
	p := acquire()
	v := p.uint32()
	release(p)
	return v
}

// Uint returns a uniformly distributed uint.
func Uint() uint { return uint(Uint64()) }

// Int64 returns a non-negative value in [0, 2^63), as math/rand/v2.Int64.
func Int64() int64 { return int64(Uint64() &^ (1 << 63)) }

// Int32 returns a non-negative value in [0, 2^31).
func Int32() int32 { return int32(Uint32() &^ (1 << 31)) }

// Int returns a non-negative int.
func Int() int { return int(uint(Uint64()) << 1 >> 1) }

// Uint64N returns a value in [0, n). It panics if n == 0.
func Uint64N(n uint64) uint64 {
	if n == 0 {
		panic("invalid argument to Uint64N")
	}
	return uniform(n, Uint64)
}

// Uint32N returns a value in [0, n). It panics if n == 0.
func Uint32N(n uint32) uint32 {
	if n == 0 {
		panic("invalid argument to Uint32N")
	}
	return uint32(uniform(uint64(n), Uint64))
}

// UintN returns a value in [0, n). It panics if n == 0.
func UintN(n uint) uint {
	if n == 0 {
		panic("invalid argument to UintN")
	}
	return uint(uniform(uint64(n), Uint64))
}

// Int64N returns a value in [0, n). It panics if n <= 0.
func Int64N(n int64) int64 {
	if n <= 0 {
		panic("invalid argument to Int64N")
	}
	return int64(uniform(uint64(n), Uint64))
}

// Int32N returns a value in [0, n). It panics if n <= 0.
func Int32N(n int32) int32 {
	if n <= 0 {
		panic("invalid argument to Int32N")
	}
	return int32(uniform(uint64(n), Uint64))
}

// IntN returns a value in [0, n). It panics if n <= 0.
func IntN(n int) int {
	if n <= 0 {
		panic("invalid argument to IntN")
	}
	return int(uniform(uint64(n), Uint64))
}

type intType interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// N returns a value in [0, n) for any integer type, e.g. a time.Duration.
// It panics if n <= 0.
func N[Int intType](n Int) Int {
	if n <= 0 {
		panic("invalid argument to N")
	}
	return Int(uniform(uint64(n), Uint64))
}

// Float64 returns a value in [0, 1): the top 53 bits of a word times 2^-53,
// as the C sampler shakerand_double.
func Float64() float64 {
	return float64(Uint64()>>11) * 0x1.0p-53
}

// Float32 returns a value in [0, 1): the top 24 bits of a 32-bit word
// times 2^-24, as the C sampler shakerand_float.
func Float32() float32 {
	return float32(Uint32()>>8) * 0x1.0p-24
}

// systemSource is the system generator as a math/rand/v2.Source, for the
// distributions math/rand/v2 computes from words.
type systemSource struct{}

func (systemSource) Uint64() uint64 { return Uint64() }

var global = rand.New(systemSource{})

// NormFloat64 returns a normally distributed value (mean 0, standard
// deviation 1), by math/rand/v2's method on this package's words.
func NormFloat64() float64 { return global.NormFloat64() }

// ExpFloat64 returns an exponentially distributed value (rate 1), by
// math/rand/v2's method on this package's words.
func ExpFloat64() float64 { return global.ExpFloat64() }

// Shuffle pseudo-randomizes the order of n elements with Fisher-Yates;
// swap swaps the elements with indexes i and j. It panics if n < 0.
func Shuffle(n int, swap func(i, j int)) {
	if n < 0 {
		panic("invalid argument to Shuffle")
	}
	if n < 2 {
		return
	}
	// swap may call back into this package, so the buffer is not held
	// across it: the indexes are drawn in one batch per chunk.
	var js [64]int
	for i := n - 1; i > 0; {
		k := min(i, len(js))
		p := acquire()
		for c := 0; c < k; c++ {
			js[c] = int(uniform(uint64(i-c+1), p.uint64))
		}
		release(p)
		for c := 0; c < k; c++ {
			swap(i-c, js[c])
		}
		i -= k
	}
	clear(js[:])
}

// Perm returns a uniformly random permutation of [0, n). It panics if n < 0.
func Perm(n int) []int {
	if n < 0 {
		panic("invalid argument to Perm")
	}
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}
