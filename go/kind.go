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

// kindRow is one row of the table of engine kinds, which the backend
// keeps: the C core's (src/engine.c kind_rows) in the cgo build,
// internal/purego's in the pure-Go build. This package lists no kinds of
// its own (the exported constants only name rows), so a new kind needs
// nothing here but its constant.
type kindRow struct {
	kind      Kind
	name      string
	seedSize  int // the exact seed length, or 0: any length, empty included
	blockSize int // bytes handed out between two ratchets or rekeys
}

// row returns k's row of the backend's table (kindTable), if it has one.
// The lookup compares Kind values in Go, so a value outside the C enum's
// range never matches a kind it would truncate to.
func (k Kind) row() (kindRow, bool) {
	for _, r := range kindTable {
		if r.kind == k {
			return r, true
		}
	}
	return kindRow{}, false
}

// String returns the kind's name, as the C library and the other front
// ends spell it ("turboshake256x8", ...).
func (k Kind) String() string {
	if r, ok := k.row(); ok {
		return r.name
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// checkSeed panics, before anything is allocated, for an unknown kind or
// a seed of another length than the one its kind requires (ChaCha8Rand's
// 32 bytes).
func checkSeed(kind Kind, seed []byte) {
	r, ok := kind.row()
	if !ok {
		panic(fmt.Sprintf("shakerand: unknown engine kind %d", int(kind)))
	}
	if r.seedSize != 0 && len(seed) != r.seedSize {
		panic(fmt.Sprintf("shakerand: a %s seed is exactly %d bytes, not %d",
			r.name, r.seedSize, len(seed)))
	}
}
