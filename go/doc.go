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
// C core's derivation from the operating system mixed with the CPU's
// random instructions (RDSEED/RDRAND on amd64, RNDRRS/RNDR on Linux
// arm64, in Go assembly; never used alone), the operating system read
// directly: getrandom on Linux (/dev/urandom before 3.17),
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
// core's wipe does not reach). A child made by fork reseeds them before its
// first byte (see Fork). NewEpoch reseeds its states (and empties the buffers) after
// a snapshot's restore; on Linux this build also watches the vmclock
// device's word as the C core does (see Snapshots).
// Pure reports which build this is and Kernel returns "purego".
//
// # Fork
//
// A child made by fork hands out nothing its parent buffered and never goes
// on with its parent's generator, in either build, with or without fork
// handlers: a raw fork or clone system call runs none (and is the only
// fork a pure-Go program can make). On Linux the per-P buffers live in
// pages marked MADV_WIPEONFORK, which a child sees zeroed, and the first
// value a child takes from elsewhere starts a new epoch (as NewEpoch
// does: every other buffer refills and the pure-Go generator reseeds).
// Where the pages are not known to be wiped (a kernel before 4.14 refuses
// the advice, the mapping fails, or the system has no such advice: macOS,
// the BSDs, the other Unix systems, Plan 9) the per-P buffers are not used
// and every value compares the pid first, as the C core does there: a
// getpid system call a value, which costs far more than the value (on the
// loaded Linux VM where it was measured: 1.1 µs a Uint64, against 30 ns
// with the pages wiped). Windows, js/wasm and WASI have no fork. Not
// covered, as in the C core: an emulator that accepts the advice and does
// not wipe (qemu-user before 8.1).
//
// How it was checked: TestRawForkChildRepeatsNothing forks with the raw
// system call (linux/amd64, natively) and compares the child's Uint64
// values (from the per-P buffer and from the pool), small and large Reads,
// UUIDs and UUIDv7s with the parent's, with WIPEONFORK working, refused
// (tests/no_wipeonfork.c, a seccomp filter) and with the mapping refused,
// in both builds and under the race detector. It fails with any one of
// the checks removed, in each build that has it: the guard word, the pid,
// the wiping, the pure-Go generator's and UUIDv7's own calls. The other
// systems' paths are built (go vet of the pure-Go build for darwin,
// freebsd, plan9, windows, js/wasm and wasip1), not run.
//
// A Source from NewSource is the program's own engine, seeded once: a
// child goes on with its parent's stream, as with math/rand/v2's ChaCha8;
// make a new Source in the child.
//
// # Snapshots
//
// A VM or process restored from a snapshot, perhaps many times over, resumes
// with the generator's state and buffers as they were. Call NewEpoch from a
// restore hook: every goroutine's next value then comes from a reseeded
// generator, nothing buffered before the call handed out after it. On
// Linux a restore is also detected without the call, in both builds, where
// the vmclock device (/dev/vmclock0) is there (WatchesVMGeneration): its
// VM generation counter where its flags say the hypervisor keeps one (as
// Firecracker does), else its clock disruption marker, which a restore
// moves (stock QEMU). The cgo build compares the C core's word; the pure-Go
// build maps the device itself, read-only, and compares its word (one
// load) before each value, each state and buffer holding the value it was
// filled under, the state's read under the page's sequence count. The
// pure-Go build's reading of the page is tested with a regular file laid
// out as the device (vmclock_purego_test.go: the counter, the marker, a
// page that is not the device's, a sequence count left odd); the real
// device in make test-vm (tests/vm/run.sh), under QEMU 10.0.13 (TCG) with
// Debian's 7.3.4 kernel: wherever the guest has the device, no clone of a
// snapshot goes on with the snapshot's stream, in either build. Two
// clones of one snapshot differ only if the reseed reads something that
// differs between them: both builds mix in the CPU's random instructions
// as the C core does, and after a restore they saw (NewEpoch, or the
// watched word moved) the digest of a CPU-jitter sample, once per restore
// for the process, never counted as entropy (the pure build's of both
// tested natively, under qemu-user and in make test-vm's guest; its
// sample in jitter.go). On a CPU without random instructions, and with no
// reseed of the guest kernel's generator after the restore (vmgenid does
// that), only the timing of that sample separates the clones, which
// whoever runs the hypervisor can predict or steer.
// docs/system.md, "Snapshots and clones", has the scenarios.
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
