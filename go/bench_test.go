// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand_test

// The benchmark of "Why do standard libraries of modern languages always
// implement bad random?" (shared/seeds/go-bad-random-benchmark.txt) with
// its own names: each source behind math/rand's rand.New(SOURCE).Int63.
// Then math/rand/v2's generators and ours. tools/go/run-bench.sh runs them and
// writes the table into BENCHMARKS.md.

import (
	cryptorand "crypto/rand"
	"encoding/binary"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"sync"
	"testing"

	shakerand "github.com/shakerand/shakerand/go"
)

const mask63 = 1<<63 - 1

var sinkI64 int64
var sinkU64 uint64

func benchInt63(b *testing.B, src mathrand.Source) {
	r := mathrand.New(src)
	var s int64
	for i := 0; i < b.N; i++ {
		s += r.Int63()
	}
	sinkI64 = s
}

// The seed's sources, as its author wrote them: not seedable.
type cryptoSource struct{}

func (cryptoSource) Seed(int64) { panic("not seedable") }
func (cryptoSource) Int63() int64 {
	var v int64
	if err := binary.Read(cryptorand.Reader, binary.LittleEndian, &v); err != nil {
		panic(err)
	}
	return v & mask63
}

type cryptoBufSource struct {
	buf [256]int64
	n   int
}

func (*cryptoBufSource) Seed(int64) { panic("not seedable") }
func (s *cryptoBufSource) Int63() int64 {
	if s.n == 0 {
		if err := binary.Read(cryptorand.Reader, binary.LittleEndian, &s.buf); err != nil {
			panic(err)
		}
		s.n = len(s.buf)
	}
	s.n--
	return s.buf[s.n] & mask63
}

func BenchmarkMathRand(b *testing.B)      { benchInt63(b, mathrand.NewSource(1)) }
func BenchmarkCryptoRand(b *testing.B)    { benchInt63(b, cryptoSource{}) }
func BenchmarkCryptoBufRand(b *testing.B) { benchInt63(b, &cryptoBufSource{}) }

// Ours behind the same rand.New(SOURCE).Int63.
func BenchmarkShakerandRand(b *testing.B) { benchInt63(b, shakerand.NewSource()) }

func BenchmarkChaCha8(b *testing.B) {
	var seed [32]byte
	src := randv2.NewChaCha8(seed)
	var s uint64
	for i := 0; i < b.N; i++ {
		s += src.Uint64()
	}
	sinkU64 = s
}

func BenchmarkPCG(b *testing.B) {
	src := randv2.NewPCG(1, 2)
	var s uint64
	for i := 0; i < b.N; i++ {
		s += src.Uint64()
	}
	sinkU64 = s
}

func BenchmarkSourceUint64(b *testing.B) {
	src := shakerand.NewSource()
	var s uint64
	for i := 0; i < b.N; i++ {
		s += src.Uint64()
	}
	sinkU64 = s
}

// ChaCha8 on both sides of the same run, same seed: math/rand/v2's ChaCha8
// (Go's internal/chacha8rand, with its SSE2/NEON assembly) and this
// package's ChaCha8Rand engine (the C core's kernels behind a Source), whose
// streams are equal; then the system generator, which runs chacha8rand
// unless SHAKERAND_SYSTEM_ENGINE says otherwise (the name says which ran).
var chacha8Seed = [32]byte([]byte("shakerand chacha8rand benchmark!"))

func BenchmarkChaCha8Uint64(b *testing.B) {
	b.Run("impl=mathrandv2", func(b *testing.B) {
		src := randv2.NewChaCha8(chacha8Seed)
		var s uint64
		for i := 0; i < b.N; i++ {
			s += src.Uint64()
		}
		sinkU64 = s
	})
	b.Run("impl=shakerand", func(b *testing.B) {
		src := shakerand.NewSeeded(shakerand.ChaCha8Rand, chacha8Seed[:])
		var s uint64
		for i := 0; i < b.N; i++ {
			s += src.Uint64()
		}
		sinkU64 = s
	})
	b.Run("impl=system/engine="+shakerand.SystemKind().String(), func(b *testing.B) {
		var s uint64
		for i := 0; i < b.N; i++ {
			s += shakerand.Uint64()
		}
		sinkU64 = s
	})
}

func BenchmarkChaCha8Read(b *testing.B) {
	b.Run("impl=mathrandv2/size=1MiB", func(b *testing.B) {
		benchRead(b, 1<<20, randv2.NewChaCha8(chacha8Seed).Read)
	})
	b.Run("impl=shakerand/size=1MiB", func(b *testing.B) {
		benchRead(b, 1<<20, shakerand.NewSeeded(shakerand.ChaCha8Rand, chacha8Seed[:]).Read)
	})
	b.Run("impl=system/engine="+shakerand.SystemKind().String()+"/size=1MiB", func(b *testing.B) {
		benchRead(b, 1<<20, shakerand.Read)
	})
}

// inGoroutines runs f(b.N) in g goroutines at once; ns/op is the wall time
// over b.N, so it is the time one call takes in each goroutine while the
// others run too (not the aggregate throughput RunParallel reports).
func inGoroutines(b *testing.B, g int, f func(n int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			f(b.N)
		}()
	}
	b.ResetTimer()
	close(start)
	wg.Wait()
}

func topUint64(n int) {
	var s uint64
	for i := 0; i < n; i++ {
		s += shakerand.Uint64()
	}
	sinkAtomic(s)
}

var sinkMu sync.Mutex

func sinkAtomic(v uint64) { sinkMu.Lock(); sinkU64 += v; sinkMu.Unlock() }

func BenchmarkUint64(b *testing.B) {
	b.Run("goroutines=1", func(b *testing.B) { inGoroutines(b, 1, topUint64) })
	b.Run("goroutines=2", func(b *testing.B) { inGoroutines(b, 2, topUint64) })
}

// math/rand/v2's top-level Uint64 (the runtime's per-thread ChaCha8), for
// reference.
func BenchmarkMathRandV2Uint64(b *testing.B) {
	f := func(n int) {
		var s uint64
		for i := 0; i < n; i++ {
			s += randv2.Uint64()
		}
		sinkAtomic(s)
	}
	b.Run("goroutines=1", func(b *testing.B) { inGoroutines(b, 1, f) })
	b.Run("goroutines=2", func(b *testing.B) { inGoroutines(b, 2, f) })
}

func benchRead(b *testing.B, n int, read func([]byte) (int, error)) {
	buf := make([]byte, n)
	b.SetBytes(int64(n))
	for i := 0; i < b.N; i++ {
		read(buf)
	}
}

func BenchmarkReader(b *testing.B) {
	b.Run("size=8B", func(b *testing.B) { benchRead(b, 8, shakerand.Reader.Read) })
	b.Run("size=1MiB", func(b *testing.B) { benchRead(b, 1<<20, shakerand.Reader.Read) })
}

func BenchmarkCryptoReader(b *testing.B) {
	b.Run("size=8B", func(b *testing.B) { benchRead(b, 8, cryptorand.Read) })
	b.Run("size=1MiB", func(b *testing.B) { benchRead(b, 1<<20, cryptorand.Read) })
}

var sinkUUID shakerand.UUID

func BenchmarkUUID(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sinkUUID = shakerand.NewUUID()
	}
}

func BenchmarkUUIDv7(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sinkUUID = shakerand.NewUUIDv7()
	}
}
