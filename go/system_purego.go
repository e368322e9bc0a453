// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shakerand/shakerand/go/internal/purego"
)

// The system generator of the pure-Go build: the C core's policy
// (docs/system.md) in Go. Each state is one engine of systemKind() keyed
// from the operating system and reseeded on the policy's budget (the
// constants below, held to the vector file's "system_policy" by
// TestSystemPolicyIsTheVectorFiles).
//
// The seed comes from the operating system directly (osEntropy, one file
// per OS), mixed with the CPU's random instructions where it has them
// (hwentropy.go), never through crypto/rand: since Go 1.24 crypto/rand.Read reads
// crypto/rand.Reader, and a program may have set that to this package's
// Reader, whose reseed would then call itself until the stack overflows,
// or be fed this generator's own output.
//
// Where the states live, and why not in a sync.Pool: a pool drops what it
// holds at a garbage collection, without a hook to wipe it, so a dropped
// state's key would lie in freed memory until the memory is reused. A
// finalizer (or runtime.AddCleanup) on it would wipe it only at some later
// collection, on another goroutine, and never if the program exits first,
// and every collection could leave another key waiting. So the states live
// in a table that is never dropped, one state per P (the most goroutines
// that can draw at once; with GOMAXPROCS raised later, a caller may wait
// for a state), each rekeyed in place: a reseed wipes the engine it
// replaces, and the chacha8rand engine overwrites its key at every
// iteration. The keys in memory are the table's live ones, no more.
//
// The policy's constants, the C core's (src/policy.h): the reseed budget in
// bytes and time, the bytes drawn between two reads of the clocks, the
// largest piece of a request, and the seed derivation's sizes and
// TurboSHAKE256 domain bytes (the hardware words' count is hwentropy.go's).
// The C core's reseed with the caller's bytes has no counterpart here.
const (
	reseedBytes       = 16 << 20
	reseedInterval    = 60 * time.Second
	clockCheckBytes   = 4096
	maxPiece          = 1 << 20
	conditionerDomain = 0x22
	osSeedBytes       = 32
	counterBytes      = 8
	seedMaterialBytes = 64
	chachaKeyDomain   = 0x24
)

// systemState is one engine and its reseed budget. The time since the
// reseed counts as the larger of two clocks: the runtime's monotonic clock
// (time.Now), which may stop while the machine is suspended (it does on
// Linux and macOS), and the system's boot clock, which does not, where the
// OS has one (bootClock, one file per OS); either reaching reseedInterval
// reseeds.
type systemState struct {
	eng       purego.Engine // nil until the first draw
	mark      epochMark     // the epoch and the VM generation it was seeded under
	drawn     int           // bytes since the reseed
	checked   int           // drawn when the clocks were last read
	monoStart time.Time
	wallStart time.Time // monoStart's wall reading alone (Round(0))
	bootStart time.Duration
	bootOK    bool
	// At the last reading of the boot clock: the monotonic time since the
	// reseed, and the wall clock's lead over the monotonic one (clockDue).
	bootReadMono, bootReadLead time.Duration
}

// When clockDue reads the boot clock: a wall clock whose lead over the
// monotonic clock moved by more than suspendSlack (a suspend moves it by
// the time suspended), or bootReadEvery of monotonic time since the last
// reading.
const (
	suspendSlack  = time.Millisecond
	bootReadEvery = time.Second
)

// systemSlot is a state with its lock; the padding keeps the fields of
// neighbouring slots 64 bytes apart, off each other's cache lines.
type systemSlot struct {
	mu sync.Mutex
	st systemState
	_  [64]byte
}

var (
	seedCounter atomic.Uint64
	systemSlots = make([]systemSlot, max(runtime.GOMAXPROCS(0), runtime.NumCPU()))
)

type systemFiller struct{}

func (systemFiller) fill(b []byte) { systemFill(b) }

func systemFill(b []byte) {
	if len(b) == 0 {
		return
	}
	noticeFork() // the states are Go memory: a child's reseed through the epoch
	vmWordOnce.Do(watchVMWord)
	s := lockSlot()
	defer s.mu.Unlock() // a panic (the OS source failing) leaves no slot locked
	s.st.fill(b)
}

// lockSlot locks and returns a free slot: the current P's if free (so a
// goroutine usually finds the state it used last, already seeded), else
// the next free one, else it waits for the current P's.
func lockSlot() *systemSlot {
	n := len(systemSlots)
	first := currentP() % n
	for i := 0; i < n; i++ {
		if s := &systemSlots[(first+i)%n]; s.mu.TryLock() {
			return s
		}
	}
	s := &systemSlots[first]
	s.mu.Lock()
	return s
}

func (s *systemState) fill(b []byte) {
	for len(b) > 0 {
		piece := min(len(b), maxPiece)
		if s.eng == nil || s.drawn+piece > reseedBytes || s.mark != currentEpoch() ||
			s.clockDue() {
			s.reseed()
		}
		s.eng.Fill(b[:piece])
		s.drawn += piece
		b = b[piece:]
	}
}

// clockDue reports whether reseedInterval has passed since the reseed, on
// either clock. It reads the runtime's clocks (the vDSO on Linux: tens of
// nanoseconds) once per clockCheckBytes drawn, as the C core reads its
// clock. The boot clock is a system call on Linux (Go calls the vDSO for
// its own clocks only), measured at 4 to 7 % of Uint64's time when read at
// every check, so it is read when it can differ from the monotonic clock:
// a suspend moves the wall clock, as it moves the boot clock, by the time
// suspended, so a wall clock that moved against the monotonic one since
// the last reading sends clockDue to the boot clock at once; and, in case
// the wall clock was also set back by as much during a suspend, once per
// bootReadEvery of monotonic time. A suspend is then counted at the first
// check after it, or at worst bootReadEvery of running time later.
func (s *systemState) clockDue() bool {
	if s.drawn-s.checked < clockCheckBytes {
		return false
	}
	s.checked = s.drawn
	now := time.Now()
	mono := now.Sub(s.monoStart)
	if mono >= reseedInterval {
		return true
	}
	if !s.bootOK {
		return false
	}
	lead := now.Sub(s.wallStart) - mono // wallStart has no monotonic reading: the wall clocks' difference
	if moved := lead - s.bootReadLead; moved < suspendSlack && moved > -suspendSlack &&
		mono-s.bootReadMono < bootReadEvery {
		return false
	}
	s.bootReadMono, s.bootReadLead = mono, lead
	boot, ok := bootClock()
	return ok && boot-s.bootStart >= reseedInterval
}

// reseed keys the state afresh from osSeedBytes of the OS, the CPU's words
// and the next counter, and after a restore the process saw the jitter
// sample's digest (seedMaterial, keyEngine). If the OS gives nothing it
// panics, the state wiped: the CPU's words are never used alone.
func (s *systemState) reseed() {
	// Before the OS's bytes: a NewEpoch or a restore meanwhile shows. The
	// VM generation word is read under the device's sequence count; the
	// restore count after the epoch, as NewEpoch counts before it moves it.
	w := vmWord.Load()
	mark := epochMark{atomic.LoadUint64(&pureEpoch), vmGenerationRead(w)}
	var after *restoreMark
	if r, ok := restoreSeen(pureRestores.Load(), w, mark.vm); ok {
		after = &r
	}
	var material [seedMaterialBytes]byte
	if err := seedMaterial(&material, seedCounter.Add(1), after); err != nil {
		s.wipe()
		panic("shakerand: the operating system's random source failed: " + err.Error())
	}
	s.wipe()
	var err error
	s.eng, err = keyEngine(systemKind(), &material)
	clear(material[:])
	if err != nil {
		panic("shakerand: " + err.Error())
	}
	s.mark = mark
	s.monoStart = time.Now()
	s.wallStart = s.monoStart.Round(0)
	s.bootStart, s.bootOK = bootClock()
	s.bootReadMono, s.bootReadLead = 0, 0
}

// osRead is where seedMaterial reads the operating system (osEntropy; the
// tests replace it).
var osRead = osEntropy

// seedMaterial is the C core's gathering (src/entropy/conditioner.c): the
// operating system's bytes, then the words of each CPU source in use
// (hwAppend), conditioned with counter and, after a restore (after not
// nil), that restore's jitter digest (jitter.go).
func seedMaterial(material *[seedMaterialBytes]byte, counter uint64, after *restoreMark) error {
	// Room for every source's words, the counter and the digest: the
	// message is never moved, so one clear wipes it.
	msg := make([]byte, osSeedBytes, osSeedBytes+len(hwSources)*hwSeedBytes+counterBytes+jitterDigestBytes)
	defer func() { clear(msg[:cap(msg)]) }()
	if err := osRead(msg); err != nil {
		return err
	}
	msg = hwAppend(msg)
	if after == nil {
		conditioner(material, msg, counter, nil)
		return nil
	}
	var digest [jitterDigestBytes]byte
	jitterDigest(*after, &digest)
	conditioner(material, msg, counter, &digest)
	clear(digest[:])
	return nil
}

// conditioner is the C core's (src/entropy/conditioner.c):
// material = TurboSHAKE256(OS bytes || hardware words || counter, all
// little-endian, D = conditionerDomain)[0, seedMaterialBytes), and after a
// restore TurboSHAKE256(OS bytes || hardware words || counter || digest,
// D = restoreConditionerDomain)[0, seedMaterialBytes), so material with a
// digest never meets material without one. in holds the OS bytes and the
// hardware words and has room for the rest, which is appended; the caller
// clears in.
func conditioner(material *[seedMaterialBytes]byte, in []byte, counter uint64, digest *[jitterDigestBytes]byte) {
	in = binary.LittleEndian.AppendUint64(in, counter)
	if digest == nil {
		purego.TurboSHAKE256Sum(material[:], in, conditionerDomain)
		return
	}
	in = append(in, digest[:]...)
	purego.TurboSHAKE256Sum(material[:], in, restoreConditionerDomain)
}

// keyEngine is an engine of kind keyed from the material as the C core keys
// its own (src/system_seed.c): chacha8rand with TurboSHAKE256(material,
// D = chachaKeyDomain)[0, 32), turboshake256x8 with the material itself.
func keyEngine(kind Kind, material *[seedMaterialBytes]byte) (purego.Engine, error) {
	if kind != ChaCha8Rand {
		return purego.New(int(kind), material[:])
	}
	var key [32]byte
	purego.TurboSHAKE256Sum(key[:], material[:], chachaKeyDomain)
	eng, err := purego.New(int(ChaCha8Rand), key[:])
	clear(key[:])
	return eng, err
}

// wipe zeroes the engine and forgets it: the next draw reseeds.
func (s *systemState) wipe() {
	if s.eng != nil {
		s.eng.Wipe()
		s.eng = nil
	}
	s.drawn, s.checked = 0, 0
}
