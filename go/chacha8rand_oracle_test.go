// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

// Go's own math/rand/v2 ChaCha8 is an implementation of chacha8rand that
// shares no code with the C core, so it is the outside oracle for the
// ChaCha8Rand engine and for the chacha8rand entries of
// vectors/shakerand.json (made by the Python model, tools/shakerand_ref.py).
// go/run-tests.sh runs these tests once per kernel (SHAKERAND_KERNEL), and
// under qemu-aarch64 for NEON.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"math/rand/v2"
	"os"
	"testing"
	"time"
)

var chacha8OracleSeed = flag.Uint64("chacha8.seed", 0,
	"seed of the ChaCha8 oracle tests' random choices (0: the clock)")

// chacha8Iter is the output of one chacha8rand iteration: 1024 bytes, of
// which the last 32 become the next key.
const chacha8Iter = 992

// checkKernel fails the test if SHAKERAND_KERNEL asks for a kernel other
// than the one that runs, and skips it if the CPU (or this build) lacks that
// kernel: the core then falls back to the detected one, and passing on it
// would say nothing about the kernel asked for.
func checkKernel(t *testing.T) {
	t.Helper()
	got := cKernelName()
	want := os.Getenv("SHAKERAND_KERNEL")
	if want == "" {
		t.Logf("kernel %s (detected)", got)
		return
	}
	if got == want {
		t.Logf("kernel %s (SHAKERAND_KERNEL)", got)
		return
	}
	if !cKernelSupported(want) {
		t.Skipf("SHAKERAND_KERNEL=%s: not a kernel this CPU and build have (%s runs)", want, got)
	}
	t.Fatalf("SHAKERAND_KERNEL=%s, but kernel %s runs", want, got)
}

// oracleRand returns the random choices of one test, and says how to
// repeat them.
func oracleRand(t *testing.T) *rand.Rand {
	t.Helper()
	s := *chacha8OracleSeed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	t.Logf("random choices from -chacha8.seed=%d", s)
	return rand.New(rand.NewPCG(s, 0x636861636861386f))
}

// pieceSize is the length of the next read: the edges (0, 1, a word and
// its neighbours, an iteration's output, the Source's buffer) and random
// lengths up to a few iterations.
func pieceSize(r *rand.Rand) int {
	switch r.IntN(4) {
	case 0:
		sizes := []int{0, 1, 7, 8, 9, 31, 32, 33, 64, chacha8Iter - 1, chacha8Iter, chacha8Iter + 1,
			1024, srcBufSize - 1, srcBufSize, srcBufSize + 1, 4096, 4096 + 992}
		return sizes[r.IntN(len(sizes))]
	case 1:
		return r.IntN(16)
	case 2:
		return r.IntN(chacha8Iter + 64)
	default:
		return 4096 + r.IntN(6000)
	}
}

// TestChaCha8OracleRandom compares, for random seeds and lengths up to
// 20 KB (about 20 iterations), Go's rand.NewChaCha8(seed) with the engine
// read four ways: Source.Read in random pieces, the C engine's fill in
// random pieces (no Go buffer), Source.Uint64, and the C engine's u64; and
// a Source's reads and words interleaved.
func TestChaCha8OracleRandom(t *testing.T) {
	checkKernel(t)
	r := oracleRand(t)
	seeds := 500
	if testing.Short() {
		seeds = 50
	}
	for i := 0; i < seeds; i++ {
		var seed [32]byte
		for j := range 4 {
			binary.LittleEndian.PutUint64(seed[8*j:], r.Uint64())
		}
		n := r.IntN(20 * 1024)
		if i < 4 {
			n = 20 * 1024 // always some streams of the full length
		}
		want := make([]byte, n)
		rand.NewChaCha8(seed).Read(want)

		viaRead := readPieces(r, n, NewSeeded(ChaCha8Rand, seed[:]).Read)
		if j := firstDiff(viaRead, want); j >= 0 {
			t.Fatalf("seed %x, %d bytes: Source.Read in pieces differs from ChaCha8 at byte %d", seed, n, j)
		}
		c := NewSeeded(ChaCha8Rand, seed[:])
		viaFill := readPieces(r, n, func(b []byte) (int, error) { cEngineFill(c, b); return len(b), nil })
		if j := firstDiff(viaFill, want); j >= 0 {
			t.Fatalf("seed %x, %d bytes: shakerand_engine_fill in pieces differs from ChaCha8 at byte %d", seed, n, j)
		}

		words := n / 8
		g, s, e := rand.NewChaCha8(seed), NewSeeded(ChaCha8Rand, seed[:]), NewSeeded(ChaCha8Rand, seed[:])
		for k := 0; k < words; k++ {
			w := g.Uint64()
			if v := s.Uint64(); v != w {
				t.Fatalf("seed %x: Source.Uint64 word %d is %016x, ChaCha8 gives %016x", seed, k, v, w)
			}
			if v := cEngineU64(e); v != w {
				t.Fatalf("seed %x: shakerand_engine_u64 word %d is %016x, ChaCha8 gives %016x", seed, k, v, w)
			}
		}

		// Words and pieces in one stream: a word takes the next 8 bytes,
		// wherever the reads left off.
		m := NewSeeded(ChaCha8Rand, seed[:])
		got := make([]byte, 0, n)
		for len(got) < n {
			if n-len(got) >= 8 && r.IntN(3) == 0 {
				got = binary.LittleEndian.AppendUint64(got, m.Uint64())
				continue
			}
			b := make([]byte, min(pieceSize(r), n-len(got)))
			m.Read(b)
			got = append(got, b...)
		}
		if j := firstDiff(got, want); j >= 0 {
			t.Fatalf("seed %x, %d bytes: Uint64 and Read interleaved differ from ChaCha8 at byte %d", seed, n, j)
		}
	}
}

// readPieces reads n bytes through read in pieces of random sizes.
func readPieces(r *rand.Rand, n int, read func([]byte) (int, error)) []byte {
	out := make([]byte, n)
	for off := 0; ; {
		k := min(pieceSize(r), n-off)
		read(out[off : off+k])
		off += k
		if off == n {
			return out
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// TestChaCha8OracleVectors holds every chacha8rand entry of the vector
// file, and the C2SP test vector, to math/rand/v2: the file is only as
// good as its generator, and this is the check that does not trust it.
func TestChaCha8OracleVectors(t *testing.T) {
	checkKernel(t)
	f := readSharedVectors(t)
	n := 0
	for _, e := range f.Engines {
		if e.Engine != "chacha8rand" {
			continue
		}
		n++
		seed := mustHex(t, e.SeedHex)
		if len(seed) != 32 {
			t.Fatalf("chacha8rand entry with a %d-byte seed", len(seed))
		}
		want := make([]byte, 65536)
		rand.NewChaCha8([32]byte(seed)).Read(want)
		if h := sha256.Sum256(want); hex.EncodeToString(h[:]) != e.SHA256 {
			t.Errorf("seed %x: the file's sha256 is %s, math/rand/v2's %x", seed, e.SHA256, h)
		}
		for _, c := range e.Chunks {
			chunk := mustHex(t, c.Hex)
			if !bytes.Equal(want[c.Offset:c.Offset+len(chunk)], chunk) {
				t.Errorf("seed %x: the file's chunk at %d is not math/rand/v2's", seed, c.Offset)
			}
		}
		got := make([]byte, len(want))
		NewSeeded(ChaCha8Rand, seed).Read(got)
		if j := firstDiff(got, want); j >= 0 {
			t.Errorf("seed %x: the engine differs from math/rand/v2 at byte %d", seed, j)
		}
	}
	if n == 0 {
		t.Fatal("no chacha8rand entries in the vector file")
	}
	g := rand.NewChaCha8([32]byte(mustHex(t, f.C2SP.SeedHex)))
	for i, w := range c2spWords(t, f) {
		if v := g.Uint64(); v != w {
			t.Fatalf("c2sp_chacha8rand word %d: the file has %016x, math/rand/v2 gives %016x", i, w, v)
		}
	}
}

// TestChaCha8OracleSeed: Source.Seed(v) on a ChaCha8Rand Source is
// rand.NewChaCha8 of v's 8 little-endian bytes and 24 zeros.
func TestChaCha8OracleSeed(t *testing.T) {
	checkKernel(t)
	s := NewSeeded(ChaCha8Rand, make([]byte, 32))
	for _, v := range []int64{0, 1, -1, 1 << 62, -1 << 63} {
		s.Seed(v)
		var seed [32]byte
		binary.LittleEndian.PutUint64(seed[:], uint64(v))
		g := rand.NewChaCha8(seed)
		for i := 0; i < 300; i++ {
			if a, b := s.Uint64(), g.Uint64(); a != b {
				t.Fatalf("Seed(%d): word %d is %016x, ChaCha8 gives %016x", v, i, a, b)
			}
		}
	}
}
