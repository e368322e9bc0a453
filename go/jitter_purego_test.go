// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"encoding/hex"
	"sync"
	"sync/atomic"
	"testing"
)

// withTimer makes timer the jitter sample's until the test ends, and
// returns how many samples it has timed (each reads it jitterSamples+1
// times). The digest on hand is forgotten now and at the end, so the
// first seed after a restore samples with this timer, and none later
// reuses a digest it made.
func withTimer(t *testing.T, timer func() uint64) (samples func() int) {
	t.Helper()
	var readings atomic.Int64
	forget := func() {
		jitter.mu.Lock()
		jitter.valid = false
		jitter.mu.Unlock()
	}
	forget()
	saved := jitterTimer
	jitterTimer = func() uint64 {
		readings.Add(1)
		return timer()
	}
	t.Cleanup(func() {
		jitterTimer = saved
		forget()
	})
	return func() int {
		n := readings.Load()
		if n%(jitterSamples+1) != 0 {
			t.Fatalf("%d timer readings: not whole samples", n)
		}
		return int(n / (jitterSamples + 1))
	}
}

// tickingTimer counts up by 100 a reading, as the C core's fixed timer
// does: every sample's deltas are 100, in every process.
func tickingTimer() func() uint64 {
	var ticks uint64
	return func() uint64 {
		ticks += 100
		return ticks
	}
}

// withNoRestoreSeen holds NewEpoch's count at 0 and the watched word at
// none until the test ends.
func withNoRestoreSeen(t *testing.T) {
	t.Helper()
	vmWordOnce.Do(watchVMWord)
	calls, w, start := pureRestores.Load(), vmWord.Load(), vmWordStart.Load()
	pureRestores.Store(0)
	vmWord.Store(&zeroWord)
	t.Cleanup(func() {
		pureRestores.Store(calls)
		vmWordStart.Store(start)
		vmWord.Store(w)
	})
}

// sameWordsSource passes the health check with its first eight words,
// then gives the same four words at every seed.
func sameWordsSource() hwSource {
	i := 0
	return hwSource{"same", func() bool { return true }, func() (uint64, bool) {
		i++
		if i <= hwHealthWords {
			return uint64(i), true
		}
		return uint64(100 + (i-hwHealthWords-1)%hwSeedWords), true
	}}
}

func mustSeedAfter(t *testing.T, m *[seedMaterialBytes]byte, counter uint64, r restoreMark) {
	t.Helper()
	if err := seedMaterial(m, counter, &r); err != nil {
		t.Fatal(err)
	}
}

// Restores no other test names (NewEpoch's count stays far below).
var testRestore atomic.Uint64

func newTestRestore() restoreMark { return restoreMark{1 << 40, testRestore.Add(1)} }

// With the OS bytes, the hardware words and the counter held fixed, two
// seeds after two restores differ through the jitter sample, and only
// through it: with its timer ticking alike they are equal. Each takes a
// sample of its own.
func TestSeedsAfterARestoreDifferOnlyByTheSample(t *testing.T) {
	var real1, real2, tick1, tick2, none [seedMaterialBytes]byte
	withOS(t, countingOS, func() {
		withSources(t, []hwSource{sameWordsSource()}, func() {
			samples := withTimer(t, cycleCounter)
			mustSeedAfter(t, &real1, 7, newTestRestore())
			mustSeedAfter(t, &real2, 7, newTestRestore())
			if n := samples(); n != 2 {
				t.Fatalf("%d samples for two restores", n)
			}
			samples = withTimer(t, tickingTimer())
			mustSeedAfter(t, &tick1, 7, newTestRestore())
			mustSeedAfter(t, &tick2, 7, newTestRestore())
			if n := samples(); n != 2 {
				t.Fatalf("%d samples for two restores, the timer ticking", n)
			}
			mustSeed(t, &none, 7)
		})
	})
	if real1 == real2 {
		t.Error("two restores' seeds are equal: the sample did not reach them")
	}
	if tick1 != tick2 {
		t.Error("with the timer ticking alike the seeds differ: something besides the sample does")
	}
	if tick1 == none {
		t.Error("the material after a restore is the material without one")
	}
}

// reseedEveryState reseeds every system state, each from a goroutine of
// its own, as seeds on many goroutines do.
func reseedEveryState() {
	var wg sync.WaitGroup
	for i := range systemSlots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &systemSlots[i]
			s.mu.Lock()
			s.st.reseed()
			s.mu.Unlock()
		}()
	}
	wg.Wait()
}

// One sample per restore for the process: every state's seed after
// NewEpoch, on many goroutines, shares one, and so do later reseeds of the
// same restore; the next NewEpoch takes one more.
func TestOneSamplePerRestore(t *testing.T) {
	samples := withTimer(t, cycleCounter)
	NewEpoch()
	reseedEveryState()
	if n := samples(); n != 1 {
		t.Fatalf("%d samples for one restore, %d states reseeded", n, len(systemSlots))
	}
	reseedEveryState()
	if n := samples(); n != 1 {
		t.Fatalf("%d samples after a second reseed of one restore", n)
	}
	NewEpoch()
	var b [8]byte
	systemFill(b[:]) // through the epoch
	reseedEveryState()
	if n := samples(); n != 2 {
		t.Fatalf("%d samples after two restores", n)
	}
}

// Without a restore no seed takes a sample: not at the first seed, not at
// a reseed, not after a fork's epoch (newEpoch, which counts no restore).
func TestNoSampleWithoutARestore(t *testing.T) {
	withNoRestoreSeen(t)
	samples := withTimer(t, cycleCounter)
	if _, ok := restoreSeen(pureRestores.Load(), vmWord.Load(), 0); ok {
		t.Fatal("a restore seen with none")
	}
	reseedEveryState()
	newEpoch()
	var b [8]byte
	systemFill(b[:])
	reseedEveryState()
	if n := samples(); n != 0 {
		t.Fatalf("%d samples with no restore", n)
	}
	pureRestores.Store(1) // the control: a restore is seen
	reseedEveryState()
	if n := samples(); n != 1 {
		t.Fatalf("%d samples once a restore is seen", n)
	}
}

// A forked child takes a sample of its own for the restore its parent
// sampled: the digest's pid is not the child's.
func TestAChildSamplesItsOwn(t *testing.T) {
	samples := withTimer(t, cycleCounter)
	r := newTestRestore()
	var m [seedMaterialBytes]byte
	mustSeedAfter(t, &m, 1, r)
	mustSeedAfter(t, &m, 2, r)
	if n := samples(); n != 1 {
		t.Fatalf("%d samples for one restore in one process", n)
	}
	jitter.mu.Lock()
	jitter.pid = processID() + 1 // as if the parent had sampled
	jitter.mu.Unlock()
	mustSeedAfter(t, &m, 3, r)
	if n := samples(); n != 2 {
		t.Fatalf("%d samples: the child reused its parent's digest", n)
	}
}

// The material after a restore, with every input fixed, is the reference
// model's (tools/shakerand_ref.py: system_conditioner(os, [], counter,
// jitter_digest([100] * 2048)), os byte i being 0xA5 ^ i; the values were
// computed by the model, and are tests/test_snapshot.cpp's for the C core):
// domain byte 0x26 over the OS bytes, the counter and the digest of 2048
// deltas of 100 ticks. A later seed of the same restore, the timer real
// again, mixes in the same digest (counter 2) and takes no sample. Through
// the generator: after NewEpoch a state's first bytes are those of an
// engine keyed from that material.
func TestTheMaterialAfterARestoreIsTheModels(t *testing.T) {
	const (
		first = "71b6af073081489ee43a97fbc7244cc4bdd5b5e08660f7ff62d2d2134e875fd0" +
			"d9481a41387e242dcb9198eb59439f806fe9c4bfbe3f81e2e507aa0289881979"
		later = "91b22e14639ace76e6f59ed2699b00d780299414905e12b9db1f7cb9dcb86678" +
			"124d659e4668b21cc576ac8aea4b6a4cfa03af36a4ac8e49fe9ab8c85f4b50bc"
	)
	fixedOS := func(b []byte) error {
		for i := range b {
			b[i] = byte(0xA5 ^ i)
		}
		return nil
	}
	withOS(t, fixedOS, func() {
		withSources(t, nil, func() {
			r := newTestRestore()
			var m [seedMaterialBytes]byte
			withTimer(t, tickingTimer())
			mustSeedAfter(t, &m, 1, r)
			if got := hex.EncodeToString(m[:]); got != first {
				t.Errorf("material %s, the model's %s", got, first)
			}
			samples := withTimer(t, cycleCounter)
			jitter.mu.Lock()
			jitter.valid = true // the ticking sample's digest, kept for the later seed
			jitter.mu.Unlock()
			mustSeedAfter(t, &m, 2, r)
			if got := hex.EncodeToString(m[:]); got != later || samples() != 0 {
				t.Errorf("a later seed of the restore: material %s, the model's %s; %d samples", got, later, samples())
			}

			withTimer(t, tickingTimer())
			NewEpoch()
			seedCounter.Store(0)
			var s systemState
			defer s.wipe()
			got := make([]byte, 64)
			s.fill(got)
			want, err := keyEngine(systemKind(), (*[seedMaterialBytes]byte)(mustHex(t, first)))
			if err != nil {
				t.Fatal(err)
			}
			wantBytes := make([]byte, 64)
			want.Fill(wantBytes)
			if hex.EncodeToString(got) != hex.EncodeToString(wantBytes) {
				t.Error("after NewEpoch the generator's bytes are not those of the model's material")
			}
		})
	})
}

// What the sample costs, and a seed after a restore that takes it against
// one that reuses the digest (the OS call and the conditioner are in both).
func BenchmarkJitterSample(b *testing.B) {
	var d [jitterDigestBytes]byte
	jitter.mu.Lock()
	defer jitter.mu.Unlock()
	for i := 0; i < b.N; i++ {
		jitterSample(&d)
	}
}

func BenchmarkSeedMaterialAfterRestore(b *testing.B) {
	var m [seedMaterialBytes]byte
	b.Run("sampled", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := newTestRestore()
			if err := seedMaterial(&m, 1, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reused", func(b *testing.B) {
		r := newTestRestore()
		for i := 0; i < b.N; i++ {
			if err := seedMaterial(&m, 1, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
