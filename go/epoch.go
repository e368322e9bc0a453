// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import "sync/atomic"

// NewEpoch starts a new epoch of the system generator: every goroutine's
// next value comes from a reseeded generator, and no byte buffered before
// the call is handed out by a call that starts after it (a call already
// running may finish as it began). Call it
// after a restore from a snapshot (a VM or a process restored, perhaps many
// times over: Firecracker, AWS Lambda SnapStart, CRaC), from a restore hook
// or a SIGCONT handler; it is one atomic increment. In the cgo build it is
// the C library's shakerand_system_new_epoch; the pure-Go build has its
// own epoch. In both a restore is also detected without this call where
// the vmclock device is watched (WatchesVMGeneration). docs/system.md,
// "Snapshots and clones".
func NewEpoch() { restoreEpoch() }

// WatchesVMGeneration reports whether a restored VM snapshot is detected
// without NewEpoch: on Linux, in either build, when the vmclock device
// (/dev/vmclock0) is there; its VM generation counter is watched where its
// flags say the hypervisor keeps one, else its clock disruption marker.
func WatchesVMGeneration() bool { return watchesVMGeneration() }

// epochMark is what a buffer of system output was filled under: the
// epoch word and the VM generation word (zero when none is watched).
type epochMark struct{ epoch, vm uint64 }

// The words, for the buffers' checks: set by the back end, never nil (a
// zero word stands for the VM generation where none is watched).
var (
	zeroWord  uint64
	epochWord atomic.Pointer[uint64]
	vmWord    atomic.Pointer[uint64]
)

func init() {
	epochWord.Store(backendEpochWord())
	vmWord.Store(&zeroWord)
}

// currentEpoch (backend_cgo.go, backend_purego.go) reads both words, as a
// buffer records them before a fill and compares them before it hands out
// a value.
