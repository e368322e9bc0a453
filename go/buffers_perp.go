// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !race

package shakerand

import (
	"runtime"
	_ "unsafe" // go:linkname
)

// One buffer per P (the scheduler's processor), reached by pinning the
// goroutine to its P: while pinned it cannot be preempted or moved, so no
// other goroutine can touch that P's slot; this is how sync.Pool keeps its
// own per-P private item, without the pool's extra bookkeeping (a Get and
// Put measured about 10 ns here; a pin and unpin are two short runtime
// calls, about 1 ns in a profile of Uint64).
//
// runtime.procPin and runtime.procUnpin are reached by linkname; the
// runtime keeps them for that use (go.dev/issue/67401, "do not remove or
// change the type signature"). Under the race detector, which cannot see
// the ordering that pinning gives, the package uses sync.Pool alone
// (buffers_race.go).

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// slots[i] is P i's buffer, or nil while a goroutine has taken it out. A P
// id beyond the slice (GOMAXPROCS raised after start-up) uses the pool.
// Each slot has a cache line of its own (128 bytes covers the CPUs with
// 128-byte lines), so Ps writing their own slots do not contend.
type slot struct {
	b *stream
	_ [120]byte
}

var slots = make([]slot, max(runtime.GOMAXPROCS(0), runtime.NumCPU()))

// acquire hands the caller a buffer for its exclusive use until release.
func acquire() *stream {
	var b *stream
	if pid := procPin(); pid < len(slots) {
		b = slots[pid].b
		slots[pid].b = nil
	}
	procUnpin()
	if b == nil {
		return getStream()
	}
	return ofThisEpoch(b)
}

// release gives the buffer back to the current P's slot if it is empty,
// else to the pool.
func release(b *stream) {
	if pid := procPin(); pid < len(slots) && slots[pid].b == nil {
		slots[pid].b = b
		b = nil
	}
	procUnpin()
	if b != nil {
		putStream(b)
	}
}

// Uint64 returns a uniformly distributed 64-bit value.
func Uint64() uint64 {
	// The word comes from the current P's buffer without taking the buffer
	// out of its slot; a refill (a cgo call, which must not happen while
	// pinned) goes the slow way. The fast path is written out here rather
	// than in a helper: one call less per value.
	if pid := procPin(); pid < len(slots) {
		if b := slots[pid].b; b != nil && b.pos <= streamSize-8 && b.current() {
			v := take8((*[8]byte)(b.buf[b.pos : b.pos+8]))
			b.pos += 8
			procUnpin()
			return v
		}
	}
	procUnpin()
	return uint64Slow()
}

// fastRead fills out from the current P's buffer without taking the buffer
// out of its slot, if the buffer holds enough bytes; else it returns false
// and out is untouched.
func fastRead(out []byte) (ok bool) {
	if pid := procPin(); pid < len(slots) {
		if b := slots[pid].b; b != nil && len(out) <= streamSize-b.pos && b.current() {
			src := b.buf[b.pos : b.pos+len(out)]
			copy(out, src)
			clear(src)
			b.pos += len(out)
			ok = true
		}
	}
	procUnpin()
	return ok
}

// currentP returns the id of the P running the caller, which may have
// changed by the time the caller uses it: a hint, for spreading work over
// per-P resources (system_purego.go).
func currentP() int {
	pid := procPin()
	procUnpin()
	return pid
}

func slotsForTest() []slot { return slots }
