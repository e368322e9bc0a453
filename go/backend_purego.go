// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

// The pure-Go build (CGO_ENABLED=0, the default of every cross-compile):
// the same API and the same seeded streams from go/internal/purego, and a
// system generator in Go (system_purego.go). What differs from the cgo
// build (doc.go, "Two builds"): the entropy sources are the OS
// (osentropy_*.go) and the CPU's instructions on amd64 and arm64 only
// (hwentropy*.go), and the engines run Go (chacha8rand with Go assembly on
// amd64 and arm64: internal/purego). A fork is noticed by fork.go, as in
// the cgo build.

import (
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shakerand/shakerand/go/internal/purego"
)

// Pure says whether this is the pure-Go build (true: no cgo).
const Pure = true

// kindTable is internal/purego's table of the kinds it implements (kind.go
// looks kinds up in it).
var kindTable = func() []kindRow {
	src := purego.Kinds()
	rows := make([]kindRow, len(src))
	for i, r := range src {
		rows[i] = kindRow{kind: Kind(r.Value), name: r.Name, seedSize: r.SeedSize, blockSize: r.BlockSize}
	}
	return rows
}()

type engine struct {
	e purego.Engine
}

func newEngine(kind Kind, seed []byte) *engine {
	checkSeed(kind, seed)
	e, err := purego.New(int(kind), seed)
	if err != nil {
		panic("shakerand: " + err.Error())
	}
	return &engine{e: e}
}

func (e *engine) fill(b []byte) {
	if e.e == nil {
		panic("shakerand: use of a freed engine") // fail closed, as the C core does
	}
	e.e.Fill(b)
}

// free wipes the engine and disables it: a later use panics instead of
// producing the stream of a known (zero) key.
func (e *engine) free() {
	e.e.Wipe()
	e.e = nil
}

var systemKindOnce = sync.OnceValue(func() Kind {
	switch v := os.Getenv("SHAKERAND_SYSTEM_ENGINE"); v {
	case "", "chacha8rand":
		return ChaCha8Rand
	case "turboshake256x8":
		return TurboSHAKE256x8
	default:
		fmt.Fprintf(os.Stderr, "shakerand: SHAKERAND_SYSTEM_ENGINE=%q is not chacha8rand or turboshake256x8; ignored\n", v)
		return ChaCha8Rand
	}
})

func systemKind() Kind { return systemKindOnce() }

// uuid7 keeps version 7 UUIDs increasing within the process, as the C
// library's shakerand_uuid7 (RFC 9562 section 6.2, method 1, a 42-bit
// counter): a new millisecond starts the counter at a random value with
// its top bit clear; within one it increments; on overflow, or a clock
// that stalls or steps back, the timestamp moves on.
// After NewEpoch (a restored snapshot) it moves on as after an overflow:
// a later millisecond and a fresh counter, never the snapshot's.
var v7 struct {
	sync.Mutex
	lastMS, counter uint64
	epoch           epochMark
}

func uuid7(u *UUID) {
	noticeFork()            // in a child, v7 is the parent's: the epoch moves on, as after a restore
	epoch := currentEpoch() // before the draw, which is then of this epoch or a later one
	var random [12]byte
	readSmall(random[:])
	fresh := binary.BigEndian.Uint64(random[:8]) & (1<<41 - 1)
	now := uint64(time.Now().UnixMilli()) & (1<<48 - 1)
	v7.Lock()
	copied := v7.epoch != epoch
	if now > v7.lastMS && !copied {
		v7.lastMS, v7.counter = now, fresh
	} else if v7.counter++; copied || v7.counter>>42 != 0 {
		v7.lastMS = max(now, v7.lastMS+1)
		v7.counter = fresh
		v7.epoch = epoch
	}
	ms, c := v7.lastMS, v7.counter
	v7.Unlock()
	for i := 0; i < 6; i++ {
		u[i] = byte(ms >> (40 - 8*i))
	}
	u[6] = byte(0x70 | (c>>38)&0x0F)
	u[7] = byte(c >> 30)
	u[8] = byte(0x80 | (c>>24)&0x3F)
	u[9] = byte(c >> 16)
	u[10] = byte(c >> 8)
	u[11] = byte(c)
	copy(u[12:], random[8:])
	clear(random[:])
}

// Kernel returns "purego" in this build (the cgo build names the C core's
// kernel set).
func Kernel() string { return "purego" }

// The pure-Go system generator's epoch (NewEpoch, and a fork noticed:
// fork.go): its states reseed at their next fill when it moved, and the
// per-P buffers compare it. It starts at 1: a slot a fork wiped is of epoch
// zero.
var pureEpoch uint64 = 1

func backendEpochWord() *uint64 { return &pureEpoch }

// currentEpoch is epoch.go's two words: pureEpoch, at a fixed address, and
// the VM generation word (epoch.go's zero word unless the vmclock device's
// is watched: vmclock_linux.go), one load through its pointer either way,
// as in the cgo build.
func currentEpoch() epochMark {
	return epochMark{atomic.LoadUint64(&pureEpoch), atomic.LoadUint64(vmWord.Load())}
}

// The device is looked for at the first fill (systemFill) or question, as
// the C core looks at its set-up: a buffer marked before that is refilled
// once after it.
var vmWordOnce sync.Once

func watchVMWord() {
	if w := mapVMClock(vmclockDevice, true); w != nil {
		watchWord(w)
	}
}

// watchWord watches w from now on: a seed under a value other than its
// present one follows a restore (jitter.go).
func watchWord(w *uint64) {
	vmWordStart.Store(vmGenerationRead(w))
	vmWord.Store(w) // after its start: a seed that finds w finds its start
}

func newEpoch() { atomic.AddUint64(&pureEpoch, 1) }

// restoreEpoch is NewEpoch's: the restore counted (jitter.go), then a new
// epoch.
func restoreEpoch() {
	pureRestores.Add(1)
	newEpoch()
}

func watchesVMGeneration() bool {
	vmWordOnce.Do(watchVMWord)
	return vmWord.Load() != &zeroWord
}
