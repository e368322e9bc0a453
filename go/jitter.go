// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"encoding/binary"
	"sync"
	"sync/atomic"

	"github.com/shakerand/shakerand/go/internal/purego"
)

// The CPU-jitter sample after a restore, the C core's
// (src/entropy/conditioner.c, whose reasons these are; docs/system.md,
// "Without a hardware source"): two clones of one snapshot whose kernel
// was not reseeded and whose CPU has no random instruction read the same
// bytes from every source, and what still differs between them is how long
// each takes to run the same code. A seed after a restore the process saw
// appends the digest of jitterSamples timed runs of memory touches to its
// material (seedMaterial). Mixed in, never counted: whoever runs the
// hypervisor can predict or steer the guest's timing.
//
// The sizes and domain bytes are the C core's (src/policy.h), held to the
// reference model by TestTheMaterialAfterARestoreIsTheModels.
const (
	jitterSamples            = 2048
	jitterTouches            = 16       // memory touches per timed run
	jitterMemory             = 64 << 10 // larger than a first-level data cache
	jitterStride             = 64*7 + 8 // a new cache line each touch, wrapping unevenly
	jitterDomain             = 0x25     // the digest: TurboSHAKE256(deltas, D = 0x25)
	jitterDigestBytes        = 32
	restoreConditionerDomain = 0x26 // the conditioner's, with a digest appended
)

// restoreMark names the restore a seed follows: NewEpoch's calls so far
// and the watched VM generation word. Two restores the process sees never
// share both.
type restoreMark struct{ calls, vm uint64 }

var (
	// pureRestores counts NewEpoch's calls (a restore hook's; a fork moves
	// the epoch without counting one).
	pureRestores atomic.Uint64
	// vmWordStart is the watched word's value when the process began to
	// watch it (watchWord): a seed under another value follows a restore.
	vmWordStart atomic.Uint64
)

// restoreSeen returns the restore a seed follows, given NewEpoch's count
// and the watched word w with its value vm, both read after the epoch (so
// a state seeded under NewEpoch's epoch sees its call counted); false
// before any restore: a process that first draws after the restore sees
// none.
func restoreSeen(calls uint64, w *uint64, vm uint64) (restoreMark, bool) {
	if calls == 0 && (w == &zeroWord || vm == vmWordStart.Load()) {
		return restoreMark{}, false
	}
	return restoreMark{calls, vm}, true
}

// jitterTimer is the sample's timer: the cycle counter where Go assembly
// reads it (jittertimer_*.go), else the monotonic clock in nanoseconds;
// the tests replace it.
var jitterTimer = cycleCounter

// jitter is the digest of the last restore a seed named, with the pid of
// the process that took it (a forked child takes its own), and the
// sample's memory; all under mu. A later seed of the same restore, on any
// goroutine, waits for the sample and reuses its digest.
var jitter struct {
	mu     sync.Mutex
	valid  bool
	of     restoreMark
	pid    int64
	digest [jitterDigestBytes]byte
	deltas [jitterSamples * 8]byte // little-endian; cleared once hashed
	memory [jitterMemory]byte      // its contents are no secret
}

// jitterDigest copies to digest the sample's digest for restore r, taking
// the sample if this process has none for r.
func jitterDigest(r restoreMark, digest *[jitterDigestBytes]byte) {
	pid := processID()
	jitter.mu.Lock()
	defer jitter.mu.Unlock()
	if !jitter.valid || jitter.of != r || jitter.pid != pid {
		jitterSample(&jitter.digest)
		jitter.valid, jitter.of, jitter.pid = true, r, pid
	}
	*digest = jitter.digest
}

// jitterSample times jitterSamples runs of jitterTouches memory touches and
// hashes every raw delta. The walk's next line depends on the last delta,
// so two clones that differ once also walk differently from then on.
// Under jitter.mu.
func jitterSample(digest *[jitterDigestBytes]byte) {
	timer := jitterTimer
	pos := 0
	before := timer()
	for i := range jitterSamples {
		for range jitterTouches {
			pos = (pos + jitterStride) & (jitterMemory - 1)
			jitter.memory[pos]++
		}
		now := timer()
		delta := now - before
		before = now
		pos = (pos + int(delta&0x3F)) & (jitterMemory - 1)
		binary.LittleEndian.PutUint64(jitter.deltas[8*i:], delta)
	}
	purego.TurboSHAKE256Sum(digest[:], jitter.deltas[:], jitterDomain)
	clear(jitter.deltas[:])
}
