// SPDX-License-Identifier: MIT OR Apache-2.0

// Package shakerand gives cryptographically secure random numbers at the
// speed of math/rand: math/rand/v2's API on a secure generator, the same
// seeded streams as the shakerand C library and its other front ends.
//
// Three ways in:
//
//   - The top-level functions mirror math/rand/v2's, every one with its
//     signature (Int, IntN, Int32, Int32N, Int64, Int64N, Uint, UintN,
//     Uint32, Uint32N, Uint64, Uint64N, N, Float32, Float64, NormFloat64,
//     ExpFloat64, Perm, Shuffle), so replacing the import compiles. They
//     draw from the system generator: non-deterministic, safe for
//     concurrent use, seeded from the operating system; it runs a
//     ChaCha8Rand engine unless SHAKERAND_SYSTEM_ENGINE says otherwise
//     (SystemKind says which). Bounded integers are unbiased (Lemire's
//     method, as the C samplers; math/rand/v2's 32-bit functions use
//     another method, so the values differ from its for the same words).
//   - Reader and Read are an io.Reader over the same generator that, like
//     crypto/rand.Read since Go 1.24, always fills the buffer and never
//     returns an error: a failure to get entropy from the operating system
//     crashes the program. crypto/rand.Int(Reader, max) and
//     crypto/rand.Prime(Reader, bits) work with it, and a program may set
//     crypto/rand.Reader = shakerand.Reader: neither build seeds its
//     generator through crypto/rand.
//   - NewSource and NewSeeded return a *Source, a math/rand/v2.Source and
//     math/rand.Source64 for rand.New. A seeded Source's stream equals the C
//     library's engine stream for the same kind and seed, on every platform.
//     Its own Uint64N, Float64 and BigIntN give the C samplers' values, the
//     same in every front end; a *rand.Rand over it computes its values by
//     math/rand/v2's methods instead, from the same words: rand.New(s).Float64()
//     is the low 53 bits of a word times 2^-53, s.Float64() the top 53, so
//     the two differ (ExampleSource_Float64).
//
// BigIntN (big ranges by RNG-BC-1), NewUUID, NewUUIDv7 (a UUID type that
// converts to github.com/google/uuid's; uuid.SetRand(shakerand.Reader)
// makes that package draw from this one) and Text complete the set.
//
// The engine kinds (docs/engines.md defines them) are TurboSHAKE256 and
// SHAKE256 (RandomSHAKE's streams), TurboSHAKE256x8 and ChaCha8Rand, the
// fastest. ChaCha8Rand is C2SP chacha8rand, the generator of math/rand/v2's
// ChaCha8: its seed is exactly 32 bytes, and NewSeeded(ChaCha8Rand, seed[:])
// gives the same Uint64 values and Read bytes as rand.NewChaCha8(seed)
// (mixed, they agree while reads are multiples of 8 bytes: after a read
// that stops inside a word, this package hands out that word's rest first,
// math/rand/v2's Uint64 skips it).
//
// # Two builds
//
// With cgo (CGO_ENABLED=1 and a C compiler, Go's default for native
// builds; on Windows MinGW-w64 GCC, the compiler cgo uses there, with
// winpthreads linked statically) the package compiles the C core from the
// module's src/ directory: SIMD kernels chosen at run time, the operating
// system's entropy mixed with the CPU's random instructions (RDSEED/RDRAND,
// DARN, RNDR), and a system generator per OS thread that reseeds in a
// child after fork.
//
// Without cgo (CGO_ENABLED=0, Go's default for cross-compiles, and the
// usual way to build static and distroless images) the same API gives the
// same seeded streams from Go (internal/purego; its ChaCha8Rand gives
// math/rand/v2's ChaCha8 stream, and is tested against it, and runs Go
// assembly, which needs no cgo, on amd64 with AVX2 and on arm64, portable
// Go elsewhere or under the build tag purego). The
// system generator is in Go: states of the same engine kind, keyed by the
// C core's derivation from the operating system alone (no hardware
// sources), read directly: getrandom on Linux (/dev/urandom before 3.17),
// getentropy on macOS, getrandom on FreeBSD, ProcessPrng on Windows, the
// random device on the other Unix systems and Plan 9,
// crypto.getRandomValues under js/wasm, random_get under WASI; if it fails
// the program panics, with no other source to fall back on.
// They reseed on the C core's policy (docs/system.md), its time budget
// counted on a clock that includes time suspended where the OS has
// one (CLOCK_BOOTTIME on Linux, CLOCK_MONOTONIC_RAW on macOS,
// GetTickCount64 on Windows; elsewhere only the monotonic clock, which may
// stop while suspended). The runtime's monotonic clock is read every 4 KiB
// drawn, as the C core reads its clock; the clock that counts suspend (a
// system call on Linux) only when the wall clock moved against the
// monotonic one, as a suspend moves it, or a second after its last
// reading: a suspend counts at the next check after it, or at worst a
// second of running time later. As in the C core, chacha8rand overwrites its key
// with the next as soon as an iteration is computed and zeroes bytes as it
// hands them out, and a reseed wipes the engine it replaces; the states
// live in a table of their own, one per P, never in a sync.Pool, which
// would drop them unwiped. The assembly kernels zero the vector registers
// they used and keep the state off the stack; what Go does not let a
// library wipe: the registers and stack frames of the Go code (the
// portable kernel's computation among them), copies the runtime makes
// when it moves a goroutine's stack, and the frame that a signal (the
// runtime's preemption SIGURG, a CPU profiler's SIGPROF) delivered while a
// kernel runs leaves on the thread's signal stack, every vector register
// in it (a state from which the key follows), until the next signal there;
// these may keep key or output bytes until the memory is reused (in the
// cgo build too: Go delivers every signal on that stack, where the C
// core's wipe does not reach). Fork is not looked after: Go programs do not fork
// without exec. NewEpoch reseeds its states (and empties the buffers) after
// a snapshot's restore; no VM generation counter is watched in this build.
// Pure reports which build this is and Kernel returns "purego".
//
// # Snapshots
//
// A VM or process restored from a snapshot, perhaps many times over, resumes
// with the generator's state and buffers as they were. Call NewEpoch from a
// restore hook: every goroutine's next value then comes from a reseeded
// generator, nothing buffered before the call handed out after it. In the
// cgo build on Linux a restore is also detected without the call where the
// vmclock device keeps a VM generation counter (WatchesVMGeneration);
// docs/system.md, "Snapshots and clones", says what was tested.
//
// The package's directory is go/, so the import path ends in /go (as
// github.com/google/flatbuffers/go does): import it as
//
//	import shakerand "github.com/shakerand/shakerand/go"
//
// (goimports writes the name itself). The repository's root stays the C
// library's, and src/, src/entropy/ and include/ are Go packages of their
// own that hold the C core, so `go mod vendor` copies it and the go command
// hashes its C files (an edit to a header alone may not rebuild the
// packages that include it: after editing include/ or src/*.h, build
// with -a).
package shakerand
