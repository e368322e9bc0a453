// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"sync/atomic"
	"unsafe"
)

// A child made by fork must not hand out what its parent buffered. The
// buffers are the package's own memory (the C core's state pages are the
// core's concern, and the pure-Go system states are reseeded through the
// epoch below), and no fork handler runs in a Go program: the runtime has
// no pthread_atfork, and a raw fork or clone system call, the only fork a
// pure-Go program can make, runs none anyway. (A C fork() in the cgo build
// does run the core's handler, which moves the core's epoch, which the
// buffers compare; this covers the forks that skip it.) So the rule is the
// C core's (src/system.c):
//
//   - Where the operating system wipes pages in a child (Linux's
//     MADV_WIPEONFORK, 4.14 and later), the per-P slots and a guard word
//     live in such a mapping. In a child the slots read as empty and of
//     epoch zero, which is never the epoch (it starts at 1), so the fast
//     paths decline them with no check of their own; the slow path
//     (getStream) finds the guard word zero, starts a new epoch, which
//     empties every pooled stream and reseeds the pure-Go states, and sets
//     the word again for the next child.
//   - Where it does not (the kernel refuses the advice, the mapping fails,
//     or the system has no such advice: macOS, the BSDs, the other Unix
//     systems, Plan 9), the slots are not used (the fast paths are closed)
//     and the slow path compares the pid (getpid, a system call) before
//     every value, starting a new epoch when it changed.
//   - Windows, js/wasm and WASI have no fork: the slots live in the Go
//     heap and nothing is compared.
//
// noticeFork is the slow path's check; the pure-Go build's system states
// and its UUIDv7 run it too, as they serve from Go memory.

// forkDefence says which of the three holds in this process.
type forkDefence int

const (
	forkNone       forkDefence = iota // no fork on this system
	forkWiped                         // the area is wiped in a child
	forkPidRefused                    // pid compared: the kernel refused to wipe the area
	forkPidNoMap                      // pid compared: the area could not be mapped
	forkPidNoWipe                     // pid compared: this system cannot wipe pages in a child
)

// guardSize is the area's guard word and the padding that keeps the slots
// after it on their 128-byte grid (buffers_perp.go).
const guardSize = 128

// The area: the guard word, then the slots (slotsBytes: none in the race
// build). mapWipedOnFork (fork_*.go) maps it, or returns nil and says why
// not. Its length, not a multiple of the page size for any slot count
// short of 31, is what tests/no_wipeonfork.c's --refuse-mmap is given to
// refuse it alone (the runtime maps whole pages).
var (
	forkArea, forkHow = mapWipedOnFork(guardSize + slotsBytes())
	forkGuard         = newForkGuard()
	knownPid          atomic.Int64 // the process's, where the pid is compared
)

func newForkGuard() *uint64 {
	if forkHow != forkWiped {
		knownPid.Store(processID())
		return nil
	}
	g := (*uint64)(unsafe.Pointer(&forkArea[0]))
	atomic.StoreUint64(g, 1)
	return g
}

// noticeFork starts a new epoch (as NewEpoch) if this process is a child
// made by fork since the last call: before it returns, no buffer filled in
// the parent is of the current epoch. Two goroutines of a child may both
// start one; an extra epoch only costs a refill.
func noticeFork() {
	if g := forkGuard; g != nil {
		if atomic.LoadUint64(g) == 0 {
			newEpoch()
			atomic.StoreUint64(g, 1) // after the epoch: a caller that sees 1 sees the new epoch
		}
		return
	}
	if forkHow == forkNone {
		return
	}
	if pid := processID(); pid != knownPid.Load() {
		newEpoch()
		knownPid.Store(pid)
	}
}

// forkDefenceForTest names forkHow.
func forkDefenceForTest() string {
	return [...]string{
		forkNone:       "none, no fork on this system",
		forkWiped:      "wiped",
		forkPidRefused: "pid, WIPEONFORK refused",
		forkPidNoMap:   "pid, mapping refused",
		forkPidNoWipe:  "pid, no page wiping on this system",
	}[forkHow]
}

func forkAreaSizeForTest() int { return guardSize + slotsBytes() }
