// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand_test

import (
	"fmt"
	"math/big"
	mathrand "math/rand"
	"math/rand/v2"

	shakerand "github.com/shakerand/shakerand/go"
)

func Example() {
	// Drop-in for math/rand/v2's top-level functions, but secure.
	dice := shakerand.IntN(6) + 1
	fmt.Println(dice >= 1 && dice <= 6)
	// Output: true
}

func ExampleRead() {
	key := make([]byte, 32)
	shakerand.Read(key) // always fills key; never returns an error
	fmt.Println(len(key))
	// Output: 32
}

func ExampleNewSource() {
	// A secure source for code that wants a *rand.Rand.
	r := rand.New(shakerand.NewSource())
	fmt.Println(r.IntN(10) < 10)
	// Output: true
}

func ExampleNewSource_mathRand() {
	// math/rand (v1) takes it too: Source implements rand.Source64.
	r := mathrand.New(shakerand.NewSource())
	fmt.Println(r.Int63() >= 0)
	// Output: true
}

func ExampleNewSeeded() {
	// A repeatable stream, the same as the C library's engine (and every
	// other front end) for this kind and seed.
	s := shakerand.NewSeeded(shakerand.TurboSHAKE256x8, []byte("my seed"))
	t := shakerand.NewSeeded(shakerand.TurboSHAKE256x8, []byte("my seed"))
	fmt.Println(s.Uint64() == t.Uint64(), s.Uint64N(100) == t.Uint64N(100))
	// Output: true true
}

func ExampleNewSeeded_chaCha8Rand() {
	// ChaCha8Rand's stream is math/rand/v2's ChaCha8's for the same
	// 32-byte seed.
	seed := [32]byte([]byte("chacha8rand key, thirty-two byte"))
	s := shakerand.NewSeeded(shakerand.ChaCha8Rand, seed[:])
	g := rand.NewChaCha8(seed)
	fmt.Println(s.Uint64() == g.Uint64(), s.Uint64() == g.Uint64())
	// Output: true true
}

func ExampleSource_Float64() {
	// The Source's Float64 is every front end's value for the stream (the
	// C sampler shakerand_double: the top 53 bits of a word); a rand.Rand
	// over the same stream computes math/rand/v2's (the low 53 bits).
	seed := []byte("my seed")
	s := shakerand.NewSeeded(shakerand.TurboSHAKE256x8, seed)
	r := rand.New(shakerand.NewSeeded(shakerand.TurboSHAKE256x8, seed))
	w := shakerand.NewSeeded(shakerand.TurboSHAKE256x8, seed).Uint64()
	a, b := s.Float64(), r.Float64()
	fmt.Printf("word      %#016x\n", w)
	fmt.Println("Source   ", a, a == float64(w>>11)*0x1p-53)
	fmt.Println("rand.Rand", b, b == float64(w<<11>>11)*0x1p-53)
	// Output:
	// word      0x3a06546e0882a9b1
	// Source    0.22665908514364708 true
	// rand.Rand 0.19780637418926095 true
}

func ExampleBigIntN() {
	p256 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(189))
	k := shakerand.BigIntN(p256) // uniform in [0, p256)
	fmt.Println(k.Cmp(p256) < 0)
	// Output: true
}

func ExampleNewUUID() {
	id := shakerand.NewUUID()
	s := id.String()
	fmt.Println(len(s), s[14:15])
	// Output: 36 4
}

func ExampleNewUUIDv7() {
	a, b := shakerand.NewUUIDv7(), shakerand.NewUUIDv7()
	fmt.Println(a.String() < b.String())
	// Output: true
}

func ExampleText() {
	fmt.Println(len(shakerand.Text()))
	// Output: 26
}

func ExampleShuffle() {
	words := []string{"alpha", "beta", "gamma", "delta"}
	shakerand.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	fmt.Println(len(words))
	// Output: 4
}
