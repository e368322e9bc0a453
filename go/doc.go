// SPDX-License-Identifier: MIT OR Apache-2.0

// Package shakerand gives cryptographically secure random numbers at the
// speed of math/rand, from the shakerand C core (compiled with cgo from the
// module's src/ directory: building needs only Go and a C compiler).
//
// Three ways in:
//
//   - The top-level functions (Uint64, IntN, Float64, Shuffle, ...) mirror
//     math/rand/v2 and draw from the system generator: non-deterministic,
//     safe for concurrent use, seeded from the operating system; it runs a
//     ChaCha8Rand engine per thread unless SHAKERAND_SYSTEM_ENGINE says
//     otherwise (SystemKind says which).
//   - Reader and Read are an io.Reader over the same generator that, like
//     crypto/rand.Read since Go 1.24, always fills the buffer and never
//     returns an error: a failure to get entropy from the operating system
//     crashes the program (the C core's fatal handler).
//   - NewSource and NewSeeded return a *Source, a math/rand/v2.Source and
//     math/rand.Source64 for rand.New. A seeded Source's stream equals the C
//     library's engine stream for the same kind and seed, on every platform.
//
// Int (big ranges, RNG-BC-1), UUID, UUIDv7 and Text complete the set.
//
// The engine kinds (docs/engines.md defines them) are TurboSHAKE256 and
// SHAKE256 (RandomSHAKE's streams), TurboSHAKE256x8 and ChaCha8Rand, the
// fastest. ChaCha8Rand is C2SP chacha8rand, the generator of math/rand/v2's
// ChaCha8: its seed is exactly 32 bytes, and NewSeeded(ChaCha8Rand, seed[:])
// gives the same Uint64 values and Read bytes as rand.NewChaCha8(seed),
// computed by the C core (with SIMD kernels where the CPU has them).
//
// Import it as
//
//	import shakerand "github.com/shakerand/shakerand/go"
package shakerand
