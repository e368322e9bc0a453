// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/shakerand/shakerand/go/internal/vectorfile"
)

// kinds is the kinds of the backend's table, in its order.
func kinds() []Kind {
	ks := make([]Kind, len(kindTable))
	for i, r := range kindTable {
		ks[i] = r.kind
	}
	return ks
}

// kindNamed is the kind of the backend's table called name.
func kindNamed(t *testing.T, name string) Kind {
	t.Helper()
	for _, r := range kindTable {
		if r.name == name {
			return r.kind
		}
	}
	t.Fatalf("unknown engine %q", name)
	return 0
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readMixed reads n bytes of s's stream through Read in uneven slices and
// Uint64 words, so every path through the buffer is used.
func readMixed(s *Source, n int) []byte {
	out := make([]byte, 0, n)
	sizes := []int{1, 7, 8, 0, 100, 3000, 13, 4096, 2048, 9000, 64}
	for i := 0; len(out) < n; i++ {
		if i%3 == 2 && n-len(out) >= 8 {
			out = binary.LittleEndian.AppendUint64(out, s.Uint64())
			continue
		}
		k := min(sizes[i%len(sizes)], n-len(out))
		b := make([]byte, k)
		s.Read(b)
		out = append(out, b...)
	}
	return out
}

func readSharedVectors(t *testing.T) *vectorfile.File {
	t.Helper()
	f, err := vectorfile.Load()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// c2spWords is the published vector's words as numbers.
func c2spWords(t *testing.T, f *vectorfile.File) []uint64 {
	t.Helper()
	w := make([]uint64, len(f.C2SP.Uint64Hex))
	for i, h := range f.C2SP.Uint64Hex {
		v, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		w[i] = v
	}
	return w
}

func TestSharedVectors(t *testing.T) {
	f := readSharedVectors(t)
	seen := map[string]bool{}
	for _, e := range f.Engines {
		seen[e.Engine] = true
		kind := kindNamed(t, e.Engine)
		seed := mustHex(t, e.SeedHex)
		// One plain Read and one mixed reading must both give the stream.
		plain := make([]byte, 65536)
		NewSeeded(kind, seed).Read(plain)
		mixed := readMixed(NewSeeded(kind, seed), 65536)
		if !bytes.Equal(plain, mixed) {
			t.Errorf("%s seed %d bytes: mixed reading differs from one Read", e.Engine, len(seed))
		}
		if got := sha256.Sum256(plain); hex.EncodeToString(got[:]) != e.SHA256 {
			t.Errorf("%s seed %d bytes: sha256 %x", e.Engine, len(seed), got)
		}
		for _, c := range e.Chunks {
			want := mustHex(t, c.Hex)
			if !bytes.Equal(plain[c.Offset:c.Offset+len(want)], want) {
				t.Errorf("%s seed %d bytes: chunk at %d differs", e.Engine, len(seed), c.Offset)
			}
		}
	}
	for _, r := range kindTable {
		if !seen[r.name] {
			t.Errorf("no vectors for %s", r.name)
		}
	}
	// The C2SP chacha8rand vector, through Uint64 and, as little-endian
	// words, through Read.
	seed := mustHex(t, f.C2SP.SeedHex)
	words := c2spWords(t, f)
	s, r := NewSeeded(ChaCha8Rand, seed), NewSeeded(ChaCha8Rand, seed)
	b := make([]byte, 8*len(words))
	r.Read(b)
	for i, w := range words {
		if got := s.Uint64(); got != w {
			t.Errorf("c2sp_chacha8rand word %d: Uint64 %016x, want %016x", i, got, w)
		}
		if got := binary.LittleEndian.Uint64(b[8*i:]); got != w {
			t.Errorf("c2sp_chacha8rand word %d: Read gives %016x, want %016x", i, got, w)
		}
	}
}

// A string seed is its UTF-8 bytes (docs/engines.md, "Seeds"): in Go,
// []byte(s), which is s's own bytes.
func TestStringSeeds(t *testing.T) {
	f := readSharedVectors(t)
	if len(f.StringSeeds) != len(kindTable) {
		t.Errorf("%d string seeds for %d kinds", len(f.StringSeeds), len(kindTable))
	}
	for _, c := range f.StringSeeds {
		kind := kindNamed(t, c.Engine)
		if seed := []byte(c.SeedText); !bytes.Equal(seed, mustHex(t, c.SeedHex)) {
			t.Errorf("%s: []byte(%q) is %x, want %s", c.Engine, c.SeedText, seed, c.SeedHex)
		}
		got := make([]byte, 64)
		NewSeeded(kind, []byte(c.SeedText)).Read(got)
		if hex.EncodeToString(got) != c.First64Hex {
			t.Errorf("%s seeded with %q: %x, want %s", c.Engine, c.SeedText, got, c.First64Hex)
		}
	}
}

func TestRandomSHAKEVectors(t *testing.T) {
	raw, err := os.ReadFile("../vectors/randomshake.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Vectors []struct {
			Engine  string `json:"engine"`
			SeedHex string `json:"seed_hex"`
			First64 string `json:"first_64_hex"`
			At1088  string `json:"bytes_1088_to_1152_hex"`
			SHA256  string `json:"sha256_of_first_65536"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	for _, v := range f.Vectors {
		kind := kindNamed(t, v.Engine)
		got := readMixed(NewSeeded(kind, mustHex(t, v.SeedHex)), 65536)
		if !bytes.Equal(got[:64], mustHex(t, v.First64)) ||
			!bytes.Equal(got[1088:1152], mustHex(t, v.At1088)) {
			t.Errorf("%s: stream differs", v.Engine)
		}
		if h := sha256.Sum256(got); hex.EncodeToString(h[:]) != v.SHA256 {
			t.Errorf("%s: sha256 %x", v.Engine, h)
		}
	}
}

// The Go samplers on a seeded Source give what the C samplers give on an
// engine with the same seed, word for word (rejections included).
func TestSeededSamplersEqualC(t *testing.T) {
	for _, k := range kinds() {
		seed := []byte("samplers against the C core, 32B")[:32]
		goSrc, cSrc := NewSeeded(k, seed), NewSeeded(k, seed)
		// 2^63 + 1 rejects about half the words; 3 almost never; powers
		// of two never.
		bounds := []uint64{1, 2, 3, 10, 1 << 32, 1<<63 + 1, 1<<64 - 1, 0xAAAAAAAAAAAAAAAB, 6}
		for i := 0; i < 3000; i++ {
			n := bounds[i%len(bounds)]
			if g, c := goSrc.Uint64N(n), cUniformU64(cSrc, n); g != c {
				t.Fatalf("%v: draw %d below %d: Go %d, C %d", k, i, n, g, c)
			}
			if i%5 == 0 {
				if g, c := goSrc.Float64(), cDouble(cSrc); g != c {
					t.Fatalf("%v: Float64 %v, C %v", k, g, c)
				}
			}
		}
	}
}

func TestSeedAndInt63(t *testing.T) {
	s := NewSeeded(TurboSHAKE256x8, []byte("x"))
	s.Uint64()
	s.Seed(42)
	want := NewSeeded(TurboSHAKE256x8, []byte{42, 0, 0, 0, 0, 0, 0, 0})
	for i := 0; i < 1000; i++ {
		if a, b := s.Uint64(), want.Uint64(); a != b {
			t.Fatalf("after Seed(42), word %d: %x, want %x", i, a, b)
		}
	}
	// ChaCha8Rand's seed is 32 bytes: the 8 of the int64, then zeros.
	c := NewSeeded(ChaCha8Rand, make([]byte, 32))
	c.Uint64()
	c.Seed(-2)
	want = NewSeeded(ChaCha8Rand, []byte{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 31: 0})
	for i := 0; i < 1000; i++ {
		if a, b := c.Uint64(), want.Uint64(); a != b {
			t.Fatalf("chacha8rand after Seed(-2), word %d: %x, want %x", i, a, b)
		}
	}
	src := NewSource()
	var or int64
	for i := 0; i < 100000; i++ {
		v := src.Int63()
		if v < 0 {
			t.Fatalf("Int63 gave %d", v)
		}
		or |= v
	}
	if or != 1<<63-1 {
		t.Fatalf("Int63: bits never set: %x", ^or&(1<<63-1))
	}
}

// A word right after a Read that stopped 1..7 bytes before the end of the
// Source's buffer is the stream's next 8 bytes: the bytes left over come
// first, none are skipped.
func TestWordAcrossRefill(t *testing.T) {
	seed := make([]byte, 32)
	for _, k := range kinds() {
		want := make([]byte, 3*streamSize)
		NewSeeded(k, seed).Read(want)
		for left := 0; left <= 8; left++ {
			for _, int63 := range []bool{false, true} {
				s := NewSeeded(k, seed)
				got := make([]byte, streamSize-left)
				s.Read(got)
				if int63 {
					got = binary.LittleEndian.AppendUint64(got, uint64(s.Int63()))
				} else {
					got = binary.LittleEndian.AppendUint64(got, s.Uint64())
				}
				got = binary.LittleEndian.AppendUint64(got, s.Uint64())
				w := bytes.Clone(want[:len(got)])
				if int63 {
					w[len(w)-9] &^= 0x80 // Int63 clears the top bit
				}
				if !bytes.Equal(got, w) {
					t.Errorf("%v: a word (Int63 %v) after reading to %d bytes before a refill is not the stream's next 8 bytes",
						k, int63, left)
				}
			}
		}
	}
}

// Two non-deterministic Sources differ; a seeded Source and the C engine
// with the same seed agree byte for byte through Read.
func TestSourceStreams(t *testing.T) {
	a, b := make([]byte, 64), make([]byte, 64)
	NewSource().Read(a)
	NewSource().Read(b)
	if bytes.Equal(a, b) {
		t.Fatal("two NewSource streams are equal")
	}
	g, c := NewSeeded(SHAKE256, nil), NewSeeded(SHAKE256, nil)
	gb, cb := make([]byte, 5000), make([]byte, 5000)
	g.Read(gb)
	cEngineFill(c, cb)
	if !bytes.Equal(gb, cb) {
		t.Fatal("Source.Read differs from shakerand_engine_fill")
	}
}

// The backend's table of kinds (the C core's, or internal/purego's in the
// pure-Go build) is the vector file's "kinds", row for row and in order:
// the reference model's table, which the C suite holds the core to.
func TestKindTableIsTheVectorFiles(t *testing.T) {
	f := readSharedVectors(t)
	if len(kindTable) != len(f.Kinds) {
		t.Errorf("%d kinds in the backend's table (Pure %v), %d in the vector file", len(kindTable), Pure, len(f.Kinds))
	}
	for i := range max(len(kindTable), len(f.Kinds)) {
		var got vectorfile.KindRow
		if i < len(kindTable) {
			r := kindTable[i]
			got = vectorfile.KindRow{Name: r.name, Value: int(r.kind), SeedSize: r.seedSize, BlockSize: r.blockSize}
		}
		var want vectorfile.KindRow
		if i < len(f.Kinds) {
			want = f.Kinds[i]
		}
		if got != want {
			t.Errorf("kind %d: the backend has %+v, the vector file %+v", i, got, want)
		}
	}
	// Each exported constant is its kind's row, and String gives its name.
	for k, name := range map[Kind]string{TurboSHAKE256: "turboshake256", SHAKE256: "shake256",
		TurboSHAKE256x8: "turboshake256x8", ChaCha8Rand: "chacha8rand"} {
		if k.String() != name {
			t.Errorf("Kind %d is %q in the table, want %q", int(k), k.String(), name)
		}
	}
	unknown := []Kind{0, -1, math.MinInt, math.MaxInt}
	if strconv.IntSize == 64 {
		// A kind plus 2^32: that kind again, were a Kind truncated to the
		// C enum's 32 bits before the lookup.
		shift := 32
		unknown = append(unknown, kindTable[0].kind+Kind(1)<<shift)
	}
	for _, k := range unknown {
		if _, ok := k.row(); ok {
			t.Errorf("%d is a kind", int(k))
		}
		if k.String() != fmt.Sprintf("Kind(%d)", int(k)) {
			t.Errorf("Kind(%d).String() = %q", int(k), k.String())
		}
	}
}

// The ChaCha8Oracle tests. Go's own math/rand/v2 ChaCha8 is an
// implementation of chacha8rand that shares no code with the C core, so it
// is the outside oracle for the ChaCha8Rand engine and for the chacha8rand
// entries of vectors/shakerand.json (made by the Python model,
// tools/shakerand_ref.py). tools/go/run-tests.sh runs these tests once per kernel
// (SHAKERAND_KERNEL), and under qemu-aarch64 for NEON.

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
	got := Kernel()
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
			1024, streamSize - 1, streamSize, streamSize + 1, 4096, 4096 + 992}
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
