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
	"testing"
)

// vectorFile is vectors/shakerand.json: SHAKERAND_VECTORS, or found from
// this package's directory (a checkout).
func vectorFile(t *testing.T) string {
	if p := os.Getenv("SHAKERAND_VECTORS"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "..", "vectors", "shakerand.json")
}

type vectorSet struct {
	Engines []struct {
		Engine  string `json:"engine"`
		SeedHex string `json:"seed_hex"`
		Chunks  []struct {
			Offset int    `json:"offset"`
			Hex    string `json:"hex"`
		} `json:"chunks"`
		SHA256 string `json:"sha256_of_first_65536"`
	} `json:"engines"`
	C2SP struct {
		SeedHex string   `json:"seed_hex"`
		Uint64  []string `json:"uint64_hex"`
	} `json:"c2sp_chacha8rand"`
}

func loadVectors(t *testing.T) vectorSet {
	raw, err := os.ReadFile(vectorFile(t))
	if err != nil {
		t.Fatal(err)
	}
	var v vectorSet
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

var kinds = map[string]Kind{"turboshake256": TurboSHAKE256, "shake256": SHAKE256,
	"turboshake256x8": TurboSHAKE256x8, "chacha8rand": ChaCha8Rand}

func mustNew(t *testing.T, k Kind, seed []byte) Engine {
	e, err := New(k, seed)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestVectors(t *testing.T) {
	v := loadVectors(t)
	slicings := [][]int{{65536}, {1, 7, 8, 135, 136, 137, 991, 992, 1055, 1056, 1088, 4096}, {3}}
	for _, entry := range v.Engines {
		kind, ok := kinds[entry.Engine]
		if !ok {
			t.Fatalf("unknown engine %q in the vectors", entry.Engine)
		}
		seed, _ := hex.DecodeString(entry.SeedHex)
		for si, sizes := range slicings {
			e := mustNew(t, kind, seed)
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
}

func TestWordsAreTheNextBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, kind := range kinds {
		seed := make([]byte, 32)
		for i := range seed {
			seed[i] = byte(i)
		}
		ref := make([]byte, 20000)
		mustNew(t, kind, seed).Fill(ref)
		e := mustNew(t, kind, seed)
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
	seed, _ := hex.DecodeString(v.C2SP.SeedHex)
	e := mustNew(t, ChaCha8Rand, seed)
	for i, h := range v.C2SP.Uint64 {
		want, _ := hex.DecodeString(h)
		if got := e.Uint64(); got != binary.BigEndian.Uint64(want) {
			t.Fatalf("word %d: %x", i, got)
		}
	}
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
	ran := 0
	for _, file := range []string{"rfc9861.json", "fips202.json"} {
		raw, err := os.ReadFile(filepath.Join(filepath.Dir(vectorFile(t)), "..", "tests", "kat", file))
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

func TestErrors(t *testing.T) {
	for _, n := range []int{0, 31, 33} {
		if _, err := New(ChaCha8Rand, make([]byte, n)); !errors.Is(err, ErrSeedLength) {
			t.Fatalf("seed of %d bytes: %v", n, err)
		}
	}
	if _, err := New(Kind(9), nil); err == nil {
		t.Fatal("unknown kind accepted")
	}
}

// After Wipe the engine holds no output it had not handed out: its next
// bytes are not the stream's.
func TestWipe(t *testing.T) {
	for name, kind := range kinds {
		seed := make([]byte, 32)
		ref := make([]byte, 64)
		mustNew(t, kind, seed).Fill(ref)
		e := mustNew(t, kind, seed)
		e.Fill(ref[:8])
		e.Wipe()
		if x, ok := e.(*x1); ok && (x.s.lanes != [25]uint64{} || x.s.buf != [Rate]byte{}) {
			t.Fatalf("%s: state left after Wipe", name)
		}
		if x, ok := e.(*x8); ok && x.refill != [x8RefillBytes]byte{} {
			t.Fatalf("%s: state left after Wipe", name)
		}
	}
}

// Bytes handed out are zeroed in the engine's buffer.
func TestDeliveredBytesAreZeroed(t *testing.T) {
	e := mustNew(t, TurboSHAKE256x8, nil).(*x8)
	b := make([]byte, 100)
	e.Fill(b)
	if [100]byte(e.refill[:100]) != [100]byte{} {
		t.Fatal("delivered bytes left in the buffer")
	}
	x := mustNew(t, TurboSHAKE256, nil).(*x1)
	x.Fill(b)
	if [100]byte(x.s.buf[:100]) != [100]byte{} {
		t.Fatal("delivered bytes left in the buffer")
	}
}

func BenchmarkFill1MiB(b *testing.B) {
	for name, kind := range kinds {
		b.Run(name, func(b *testing.B) {
			e, _ := New(kind, make([]byte, 32))
			p := make([]byte, 1<<20)
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				e.Fill(p)
			}
		})
	}
}
