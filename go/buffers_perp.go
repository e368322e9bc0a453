// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !race

package shakerand

import (
	"runtime"
	"unsafe" // go:linkname, unsafe.Sizeof, unsafe.Slice
)

// One buffer per P (the scheduler's processor), reached by pinning the
// goroutine to its P: while pinned it cannot be preempted or moved, so no
// other goroutine can touch that P's slot; this is how sync.Pool keeps its
// own per-P private item, without the pool's extra bookkeeping (a Get and
// Put measured about 10 ns here; a pin and unpin are two short runtime
// calls, the floor of the fast path).
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

// slot is P i's buffer, held in the slot itself: the fast paths find the
// position, the epoch and the bytes at the slot's address, with no pointer
// to follow (measured 0.4 to 0.8 ns a word less than a pointer to a stream).
// Only a goroutine pinned on P i reads or writes slots[i], so a slot is
// never written by two Ps: a refill is made in a stream of the goroutine's
// own (acquire) and its bytes moved in while pinned (release). The padding
// keeps neighbouring slots' positions 128 bytes apart (the CPUs with
// 128-byte lines too), so Ps writing their own slots do not contend.
type slot struct {
	pos  int       // bytes of buf handed out (and zeroed); streamSize when empty
	mark epochMark // the system generator's epoch when buf was filled
	buf  [streamSize]byte
	_    [128 - (unsafe.Sizeof(int(0))+unsafe.Sizeof(epochMark{})+streamSize)%128]byte
}

// slots[i] is P i's. A P id beyond the slice (GOMAXPROCS raised after
// start-up) uses the pool alone, as every P does where the slots are not
// wiped in a child made by fork (fork.go: the slice is then empty).
var slots = placeSlots()

var slotCount = max(runtime.GOMAXPROCS(0), runtime.NumCPU())

// slotsBytes is the slots' share of fork.go's area. A slot holds no
// pointer, so the slots may live outside the Go heap.
func slotsBytes() int { return slotCount * int(unsafe.Sizeof(slot{})) }

// placeSlots returns the empty slots: in fork.go's area where a child gets
// it wiped, in the Go heap where there is no fork, none where the pid must
// be compared before each value (the fast paths would skip that).
func placeSlots() []slot {
	switch forkHow {
	case forkWiped:
		return emptied(unsafe.Slice((*slot)(unsafe.Pointer(&forkArea[guardSize])), slotCount))
	case forkNone:
		return newSlots(slotCount)
	}
	return nil
}

// newSlots returns n empty slots in the Go heap.
func newSlots(n int) []slot { return emptied(make([]slot, n)) }

// emptied empties s: a slot's zero value is a buffer of zeros marked with
// epoch zero, which the fast paths decline (the epoch starts at 1), but an
// empty slot says so by its position too.
func emptied(s []slot) []slot {
	for i := range s {
		s[i].pos = streamSize
	}
	return s
}

// acquire hands the caller a stream for its exclusive use until release:
// one of the pool's (the slots cannot be taken out).
func acquire() *stream { return getStream() }

// release moves b's unread bytes into the current P's slot if they are
// more than the slot holds or the slot's are of an earlier epoch (the
// slot's unread bytes are zeroed), and gives b back to the pool.
func release(b *stream) {
	if pid := procPin(); pid < len(slots) {
		slots[pid].keep(b)
	}
	procUnpin()
	putStream(b)
}

// keep runs pinned on the slot's P: it copies at most a buffer and zeroes
// at most two (well under a microsecond here, once per refill) and calls
// nothing that can block. The moved bytes keep their offsets: the slot's
// bytes before b.pos are then handed out (zero) or zeroed here.
func (s *slot) keep(b *stream) {
	if b.pos >= streamSize || !b.current() || b.pos >= s.pos && s.mark == b.mark {
		return
	}
	if s.pos < b.pos {
		clear(s.buf[s.pos:b.pos])
	}
	copy(s.buf[b.pos:], b.buf[b.pos:])
	clear(b.buf[b.pos:])
	s.pos, s.mark = b.pos, b.mark
	b.pos = streamSize
}

// Uint64 returns a uniformly distributed 64-bit value.
func Uint64() uint64 {
	// The word comes from the current P's slot; a refill (a cgo call, or a
	// lock of the pure-Go build's state, neither allowed while pinned) goes
	// the slow way. The fast path is written out here rather than in a
	// helper: one call less per value.
	if pid := procPin(); pid < len(slots) {
		s := &slots[pid]
		if p := uint(s.pos); p <= streamSize-8 && s.mark == currentEpoch() {
			v := take8((*[8]byte)(s.buf[p : p+8]))
			s.pos = int(p + 8)
			procUnpin()
			return v
		}
	}
	procUnpin()
	return uint64Slow()
}

// fastRead fills out from the current P's slot if the slot holds enough
// bytes; else it returns false and out is untouched.
func fastRead(out []byte) (ok bool) {
	if pid := procPin(); pid < len(slots) {
		s := &slots[pid]
		if p := s.pos; len(out) <= streamSize-p && s.mark == currentEpoch() {
			src := s.buf[p : p+len(out)]
			if len(src) == 8 { // Reader's commonest size: a load and two stores, no calls
				*(*[8]byte)(out) = *(*[8]byte)(src)
				*(*[8]byte)(src) = [8]byte{}
			} else {
				copy(out, src)
				clear(src)
			}
			s.pos = p + len(out)
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

// heldForTest returns a copy of the bytes the current P's slot would hand
// out next (none if the goroutine's P has no slot), or where there are no
// slots those the pool's next stream would (as in the race build).
func heldForTest() []byte {
	if len(slots) == 0 {
		p := acquire()
		held := append([]byte(nil), p.buf[p.pos:]...)
		release(p)
		return held
	}
	var held [streamSize]byte // no allocation while pinned
	n := 0
	if pid := procPin(); pid < len(slots) {
		s := &slots[pid]
		n = copy(held[:], s.buf[s.pos:])
	}
	procUnpin()
	return held[:n]
}
