// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !race

package shakerand

import (
	"bytes"
	"reflect"
	"runtime"
	"testing"
)

// The tests below run on one P: P 0's slot is then the only one drawn from,
// and no other goroutine of the package touches it.

// needSlots skips a test of the slots where there are none: where a child
// made by fork would not get them wiped, the pool's path alone serves,
// comparing the pid (fork.go).
func needSlots(t *testing.T) {
	if len(slots) == 0 {
		t.Skipf("no per-P slots here (fork defence: %s)", forkDefenceForTest())
	}
}

// Fresh slots are empty: a slot's zero value is 4 KiB of zeros marked with
// the first epoch, which the fast paths would hand out as words.
func TestNewSlotsAreEmpty(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	old := slots
	defer func() { slots = old }()
	slots = newSlots(len(old))
	for i := range slots {
		slots[i].mark = currentEpoch() // as the zero value's mark is, before any NewEpoch
	}
	for range 8 {
		if Uint64() == 0 {
			t.Fatal("a fresh slot handed out a zero word")
		}
	}
}

// release moves a stream's unread bytes into the slot when the slot holds
// fewer or older ones: the stream is left empty and zeroed (else the pool
// would hand out the bytes the slot hands out), the slot's replaced bytes
// are zeroed; a fuller slot of this epoch, or a stream of an older epoch,
// is left as it was.
func TestReleaseMovesBytesOnce(t *testing.T) {
	needSlots(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s := &slots[0]
	filled := func(pos int) *stream {
		b := newStream(systemFiller{})
		b.refill()
		clear(b.buf[:pos])
		b.pos = pos
		return b
	}
	for _, c := range []struct {
		name      string
		slotPos   int
		slotStale bool
		bPos      int
		bStale    bool
		moved     bool
	}{
		{"slot emptier", streamSize - 16, false, 100, false, true},
		{"slot of an older epoch", 50, true, 100, false, true},
		{"slot fuller", 50, false, 100, false, false},
		{"stream of an older epoch", streamSize, false, 100, true, false},
		{"stream empty", streamSize, false, streamSize, false, false},
	} {
		fill := filled(c.slotPos) // the slot's bytes: those before its position handed out, zero
		*s = slot{pos: c.slotPos, mark: fill.mark, buf: fill.buf}
		if c.slotStale {
			s.mark.epoch--
		}
		b := filled(c.bPos)
		if c.bStale {
			b.mark.epoch--
		}
		slotBefore, bBefore := s.buf, b.buf
		release(b)
		if !c.moved {
			if s.pos != c.slotPos || s.buf != slotBefore || b.pos != c.bPos || b.buf != bBefore {
				t.Errorf("%s: moved", c.name)
			}
			continue
		}
		if s.pos != c.bPos || s.mark != b.mark || !bytes.Equal(s.buf[c.bPos:], bBefore[c.bPos:]) {
			t.Errorf("%s: the stream's bytes not moved into the slot", c.name)
		}
		if b.pos != streamSize || b.buf != [streamSize]byte{} {
			t.Errorf("%s: the stream kept the moved bytes (pos %d)", c.name, b.pos)
		}
		if !allZero(s.buf[:c.bPos]) {
			t.Errorf("%s: the slot kept bytes it replaced", c.name)
		}
	}
	clear(s.buf[:])
	s.pos = streamSize
}

// The slot's bytes are zeroed as the fast paths hand them out, 8-byte reads
// (their own path) included.
func TestSlotBytesZeroedAsHandedOut(t *testing.T) {
	needSlots(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s := &slots[0]
	clear(s.buf[:]) // emptied as a slot is: nothing before its position but zeros
	s.pos = streamSize
	Uint64() // the slot refilled; its first word handed out
	var b8 [8]byte
	var b13 [13]byte
	Read(b8[:])
	Uint64()
	Read(b13[:])
	Uint32()
	Read(b8[:])
	if s.pos != 8+8+8+13+4+8 {
		t.Fatalf("slot position %d: the draws did not all come from the slot", s.pos)
	}
	if !allZero(s.buf[:s.pos]) {
		t.Fatal("bytes handed out from the slot not zeroed")
	}
	if allZero(s.buf[s.pos : s.pos+64]) {
		t.Fatal("the slot's unread bytes are zero")
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// Where a child made by fork gets them wiped, the slots live outside the Go
// heap (fork.go), where the garbage collector does not look: a pointer in a
// slot would not keep what it points to alive.
func TestSlotHoldsNoPointers(t *testing.T) {
	var holdsPointer func(reflect.Type) bool
	holdsPointer = func(ty reflect.Type) bool {
		switch k := ty.Kind(); {
		case k >= reflect.Bool && k <= reflect.Complex128:
			return false
		case k == reflect.Array:
			return holdsPointer(ty.Elem())
		case k == reflect.Struct:
			for i := range ty.NumField() {
				if holdsPointer(ty.Field(i).Type) {
					return true
				}
			}
			return false
		}
		return true
	}
	if holdsPointer(reflect.TypeOf(slot{})) {
		t.Fatal("a slot holds a pointer")
	}
}
