// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

var kindByName = map[string]Kind{
	"turboshake256":   TurboSHAKE256,
	"shake256":        SHAKE256,
	"turboshake256x8": TurboSHAKE256x8,
	"chacha8rand":     ChaCha8Rand,
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

// sharedVectors is vectors/shakerand.json.
type sharedVectors struct {
	Engines []struct {
		Engine  string `json:"engine"`
		SeedHex string `json:"seed_hex"`
		Chunks  []struct {
			Offset int    `json:"offset"`
			Hex    string `json:"hex"`
		} `json:"chunks"`
		SHA256 string `json:"sha256_of_first_65536"`
	} `json:"engines"`
	// The test vector published with the C2SP chacha8rand specification:
	// the first Uint64 values for its seed, as hexadecimal numbers.
	C2SP struct {
		SeedHex   string   `json:"seed_hex"`
		Uint64Hex []string `json:"uint64_hex"`
	} `json:"c2sp_chacha8rand"`
}

func readSharedVectors(t *testing.T) sharedVectors {
	t.Helper()
	raw, err := os.ReadFile("../vectors/shakerand.json")
	if err != nil {
		t.Fatal(err)
	}
	var f sharedVectors
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Engines) == 0 {
		t.Fatal("no vectors")
	}
	if len(f.C2SP.Uint64Hex) == 0 {
		t.Fatal("no c2sp_chacha8rand vector")
	}
	return f
}

// c2spWords is the published vector's words as numbers.
func c2spWords(t *testing.T, f sharedVectors) []uint64 {
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
		kind, ok := kindByName[e.Engine]
		if !ok {
			t.Fatalf("unknown engine %q", e.Engine)
		}
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
	for name := range kindByName {
		if !seen[name] {
			t.Errorf("no vectors for %s", name)
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
		kind, ok := kindByName[v.Engine]
		if !ok {
			t.Fatalf("unknown engine %q", v.Engine)
		}
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
	for _, k := range cKinds() {
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
	for _, k := range cKinds() {
		want := make([]byte, 3*srcBufSize)
		NewSeeded(k, seed).Read(want)
		for left := 0; left <= 8; left++ {
			for _, int63 := range []bool{false, true} {
				s := NewSeeded(k, seed)
				got := make([]byte, srcBufSize-left)
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

func TestKindValuesAndNames(t *testing.T) {
	want := []Kind{TurboSHAKE256, SHAKE256, TurboSHAKE256x8, ChaCha8Rand}
	if len(cKinds()) != len(want) || len(kindByName) != len(want) {
		t.Fatalf("%d kinds in C, %d named here, want %d", len(cKinds()), len(kindByName), len(want))
	}
	for i, k := range cKinds() {
		if k != want[i] {
			t.Fatalf("Kind %v is %d in C", want[i], int(k))
		}
	}
	for name, k := range kindByName {
		if k.String() != name {
			t.Fatalf("%d.String() = %q, want %q", int(k), k.String(), name)
		}
	}
	if Kind(9).String() != "Kind(9)" {
		t.Fatal(Kind(9).String())
	}
}
