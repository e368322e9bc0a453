// SPDX-License-Identifier: MIT OR Apache-2.0

package purego

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/shakerand/shakerand/go/internal/vectorfile"
)

func loadVectors(t *testing.T) *vectorfile.File {
	t.Helper()
	f, err := vectorfile.Load()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// mustNew returns the engine of the kind called name (a name of the table,
// as the vector file spells it).
func mustNew(t testing.TB, name string, seed []byte) Engine {
	t.Helper()
	i := slices.IndexFunc(kindRows, func(r KindRow) bool { return r.Name == name })
	if i < 0 {
		t.Fatalf("no kind %q in the table", name)
	}
	e, err := New(kindRows[i].Value, seed)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestVectors(t *testing.T) {
	v := loadVectors(t)
	forEachKernel(t, func(t *testing.T) {
		slicings := [][]int{{65536}, {1, 7, 8, 135, 136, 137, 991, 992, 1055, 1056, 1088, 4096}, {3}}
		for _, entry := range v.Engines {
			seed, _ := hex.DecodeString(entry.SeedHex)
			for si, sizes := range slicings {
				e := mustNew(t, entry.Engine, seed)
				stream := make([]byte, 0, 65536)
				for i := 0; len(stream) < 65536; i++ {
					n := min(sizes[i%len(sizes)], 65536-len(stream))
					part := make([]byte, n)
					e.Fill(part)
					stream = append(stream, part...)
				}
				if got := sha256.Sum256(stream); hex.EncodeToString(got[:]) != entry.SHA256 {
					t.Fatalf("%s seed %s slicing %d: sha256 %x", entry.Engine, entry.SeedHex, si, got)
				}
				for _, c := range entry.Chunks {
					want, _ := hex.DecodeString(c.Hex)
					if c.Offset+len(want) <= len(stream) && !bytes.Equal(stream[c.Offset:c.Offset+len(want)], want) {
						t.Fatalf("%s offset %d", entry.Engine, c.Offset)
					}
				}
			}
		}
	})
}

func TestWordsAreTheNextBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range kindRows {
		name := k.Name
		seed := make([]byte, 32)
		for i := range seed {
			seed[i] = byte(i)
		}
		ref := make([]byte, 20000)
		mustNew(t, name, seed).Fill(ref)
		e := mustNew(t, name, seed)
		pos := 0
		for pos < len(ref)-64 {
			if r.IntN(2) == 0 {
				if got := e.Uint64(); got != binary.LittleEndian.Uint64(ref[pos:]) {
					t.Fatalf("%s: word at %d", name, pos)
				}
				pos += 8
			} else {
				n := r.IntN(40)
				b := make([]byte, n)
				e.Fill(b)
				if !bytes.Equal(b, ref[pos:pos+n]) {
					t.Fatalf("%s: %d bytes at %d", name, n, pos)
				}
				pos += n
			}
		}
	}
}

func TestC2SPChaCha8Rand(t *testing.T) {
	v := loadVectors(t)
	forEachKernel(t, func(t *testing.T) {
		seed, _ := hex.DecodeString(v.C2SP.SeedHex)
		e := mustNew(t, "chacha8rand", seed)
		for i, h := range v.C2SP.Uint64Hex {
			want, _ := hex.DecodeString(h)
			if got := e.Uint64(); got != binary.BigEndian.Uint64(want) {
				t.Fatalf("word %d: %x", i, got)
			}
		}
	})
}

// The repository's known answers (tests/kat: RFC 9861 and FIPS 202), the
// 256-bit functions.
func TestKnownAnswers(t *testing.T) {
	type vector struct {
		Function string `json:"function"`
		Message  struct {
			Kind   string `json:"kind"`
			Hex    string `json:"hex"`
			Length int    `json:"length"`
		} `json:"message"`
		Domain   json.Number `json:"domain"`
		Length   json.Number `json:"output_length"`
		Skip     json.Number `json:"skip"`
		Expected string      `json:"expected_hex"`
	}
	path, err := vectorfile.Path()
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, file := range []string{"rfc9861.json", "fips202.json"} {
		raw, err := os.ReadFile(filepath.Join(filepath.Dir(path), "..", "tests", "kat", file))
		if err != nil {
			t.Skipf("no known-answer file (outside a checkout): %v", err)
		}
		var set struct {
			Vectors []vector `json:"vectors"`
		}
		if err := json.Unmarshal(raw, &set); err != nil {
			t.Fatal(err)
		}
		for _, v := range set.Vectors {
			if v.Function != "TurboSHAKE256" && v.Function != "SHAKE256" {
				continue
			}
			msg, _ := hex.DecodeString(v.Message.Hex)
			if v.Message.Kind == "ptn" {
				msg = ptn(v.Message.Length)
			}
			n, _ := v.Length.Int64()
			skip, _ := v.Skip.Int64()
			d, _ := v.Domain.Int64()
			out := make([]byte, n) // output_length counts the skipped bytes
			if v.Function == "SHAKE256" {
				SHAKE256Sum(out, msg)
			} else {
				TurboSHAKE256Sum(out, msg, byte(d))
			}
			if got := hex.EncodeToString(out[skip:]); got != v.Expected {
				t.Fatalf("%s(%d bytes, D=%d)[%d:]: %.64s...", v.Function, len(msg), d, skip, got)
			}
			ran++
		}
	}
	if ran < 10 {
		t.Fatalf("only %d known answers ran", ran)
	}
}

func ptn(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// New takes the seeds each row's seed size allows, and only those.
func TestErrors(t *testing.T) {
	for _, k := range kindRows {
		for _, n := range []int{0, 1, 8, 31, 32, 33, 64, 136} {
			_, err := New(k.Value, make([]byte, n))
			if want := k.SeedSize != 0 && n != k.SeedSize; want != errors.Is(err, ErrSeedLength) {
				t.Errorf("%s, seed of %d bytes: %v", k.Name, n, err)
			}
		}
	}
	if _, err := New(9, nil); err == nil {
		t.Fatal("unknown kind accepted")
	}
}

// After Wipe the engine holds no output it had not handed out: its next
// bytes are not the stream's.
func TestWipe(t *testing.T) {
	for _, k := range kindRows {
		name := k.Name
		seed := make([]byte, 32)
		ref := make([]byte, 64)
		mustNew(t, name, seed).Fill(ref)
		e := mustNew(t, name, seed)
		e.Fill(ref[:8])
		e.Wipe()
		if x, ok := e.(*x1); ok && (x.s.lanes != [25]uint64{} || x.s.buf != [Rate]byte{}) {
			t.Fatalf("%s: state left after Wipe", name)
		}
		if x, ok := e.(*x8); ok && x.refill != [x8RefillBytes]byte{} {
			t.Fatalf("%s: state left after Wipe", name)
		}
		if c, ok := e.(*chacha8); ok && (c.key != [8]uint32{} || c.out != [chacha8OutputBytes]byte{}) {
			t.Fatalf("%s: state left after Wipe", name)
		}
	}
}

// Bytes handed out are zeroed in the engine's buffer.
func TestDeliveredBytesAreZeroed(t *testing.T) {
	e := mustNew(t, "turboshake256x8", nil).(*x8)
	b := make([]byte, 100)
	e.Fill(b)
	if [100]byte(e.refill[:100]) != [100]byte{} {
		t.Fatal("delivered bytes left in the buffer")
	}
	x := mustNew(t, "turboshake256", nil).(*x1)
	x.Fill(b)
	if [100]byte(x.s.buf[:100]) != [100]byte{} {
		t.Fatal("delivered bytes left in the buffer")
	}
	c := mustNew(t, "chacha8rand", make([]byte, 32)).(*chacha8)
	c.Fill(b)
	c.Uint64()
	if [108]byte(c.out[:108]) != [108]byte{} {
		t.Fatal("delivered bytes left in the buffer")
	}
	if [chacha8OutputBytes - 108]byte(c.out[108:]) == [chacha8OutputBytes - 108]byte{} {
		t.Fatal("the bytes not yet handed out are zero")
	}
}

// chacha8rand's key erasure: once an iteration is computed the engine holds
// the next iteration's key, never the one that made the bytes it hands
// out. An engine keyed with what the state holds continues the stream at
// the next iteration (math/rand/v2 is the oracle).
func TestChaCha8HoldsTheNextKey(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		seed := [32]byte([]byte("chacha8rand holds the next key!!"))
		want := make([]byte, 3*chacha8OutputBytes)
		rand.NewChaCha8(seed).Read(want)
		e := mustNew(t, "chacha8rand", seed[:]).(*chacha8)
		for r := 1; r <= 2; r++ {
			// Part of iteration r-1 through the buffer, or all of it straight
			// into the caller's memory.
			n := 1
			if r == 2 {
				n = chacha8OutputBytes
				e.Fill(make([]byte, chacha8OutputBytes-1)) // the rest of iteration 0
			}
			e.Fill(make([]byte, n))
			var key [32]byte
			for i, w := range e.key {
				binary.LittleEndian.PutUint32(key[4*i:], w)
			}
			if key == seed {
				t.Fatalf("after iteration %d the engine still holds the first key", r-1)
			}
			got := make([]byte, chacha8OutputBytes)
			mustNew(t, "chacha8rand", key[:]).Fill(got)
			if !bytes.Equal(got, want[r*chacha8OutputBytes:(r+1)*chacha8OutputBytes]) {
				t.Fatalf("after iteration %d the engine holds another key than the next iteration's", r-1)
			}
		}
	})
}

// The engine against math/rand/v2's ChaCha8 for random seeds, read in
// random pieces (whole iterations go straight to the caller's memory) and
// words mixed, under each kernel (forEachKernel).
func TestChaCha8Oracle(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		for i := 0; i < 200; i++ {
			var seed [32]byte
			for j := range 4 {
				binary.LittleEndian.PutUint64(seed[8*j:], r.Uint64())
			}
			n := r.IntN(12000)
			want := make([]byte, n)
			rand.NewChaCha8(seed).Read(want)
			e := mustNew(t, "chacha8rand", seed[:])
			got := make([]byte, 0, n)
			for len(got) < n {
				if n-len(got) >= 8 && r.IntN(4) == 0 {
					got = binary.LittleEndian.AppendUint64(got, e.Uint64())
					continue
				}
				sizes := []int{r.IntN(17), r.IntN(2000), chacha8OutputBytes - 1, chacha8OutputBytes, chacha8OutputBytes + 1}
				b := make([]byte, min(sizes[r.IntN(len(sizes))], n-len(got)))
				e.Fill(b)
				got = append(got, b...)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %x, %d bytes: differs from math/rand/v2's ChaCha8", seed, n)
			}
			g := rand.NewChaCha8(seed)
			w := mustNew(t, "chacha8rand", seed[:])
			for k := 0; k < 300; k++ {
				if a, b := w.Uint64(), g.Uint64(); a != b {
					t.Fatalf("seed %x: word %d is %016x, ChaCha8 gives %016x", seed, k, a, b)
				}
			}
		}
	})
}

func BenchmarkFill1MiB(b *testing.B) {
	for _, k := range kindRows {
		b.Run(k.Name, func(b *testing.B) {
			e := mustNew(b, k.Name, make([]byte, 32))
			p := make([]byte, 1<<20)
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				e.Fill(p)
			}
		})
	}
}

// The chacha8rand engine beside math/rand/v2's ChaCha8 (Go's assembly on
// amd64 and arm64), in the same run.
func BenchmarkChaCha8Rand(b *testing.B) {
	var seed [32]byte
	p := make([]byte, 1<<20)
	b.Run("impl=purego/size=1MiB", func(b *testing.B) {
		e := mustNew(b, "chacha8rand", seed[:])
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			e.Fill(p)
		}
	})
	b.Run("impl=mathrandv2/size=1MiB", func(b *testing.B) {
		g := rand.NewChaCha8(seed)
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			g.Read(p)
		}
	})
	b.Run("impl=purego/op=Uint64", func(b *testing.B) {
		e := mustNew(b, "chacha8rand", seed[:])
		var s uint64
		for b.Loop() {
			s += e.Uint64()
		}
		sink = s
	})
	b.Run("impl=mathrandv2/op=Uint64", func(b *testing.B) {
		g := rand.NewChaCha8(seed)
		var s uint64
		for b.Loop() {
			s += g.Uint64()
		}
		sink = s
	})
}

var sink uint64
