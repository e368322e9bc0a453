// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import "fmt"

// Kind names an engine (docs/engines.md has the definitions); the values
// are the C enum shakerand_kind's.
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

var kindNames = map[Kind]string{
	TurboSHAKE256: "turboshake256", SHAKE256: "shake256",
	TurboSHAKE256x8: "turboshake256x8", ChaCha8Rand: "chacha8rand",
}

// String returns the kind's name, as the C library and the other front
// ends spell it ("turboshake256x8", ...).
func (k Kind) String() string {
	if name, ok := kindNames[k]; ok {
		return name
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// A ChaCha8Rand seed is one ChaCha key, as rand.NewChaCha8's [32]byte.
const chacha8SeedSize = 32

// checkSeed panics, before anything is allocated, for an unknown kind or a
// ChaCha8Rand seed of another length than 32 bytes.
func checkSeed(kind Kind, seed []byte) {
	if _, ok := kindNames[kind]; !ok {
		panic(fmt.Sprintf("shakerand: unknown engine kind %d", int(kind)))
	}
	if kind == ChaCha8Rand && len(seed) != chacha8SeedSize {
		panic(fmt.Sprintf("shakerand: a chacha8rand seed is exactly %d bytes, not %d",
			chacha8SeedSize, len(seed)))
	}
}
