// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"bytes"
	"os"
	"runtime"
	"testing"
)

// After NewEpoch no byte a buffer held is handed out: what the current P's
// buffer would have given next is compared with what Uint64, Uint32 and a
// small Read give (one P, so the buffer is the one they use).
func TestNewEpochDropsTheBufferedBytes(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, draw := range []struct {
		name string
		get  func() []byte
	}{
		{"Uint64", func() []byte { return le64(Uint64()) }},
		{"Uint32", func() []byte { v := Uint32(); return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }},
		{"Read", func() []byte { b := make([]byte, 16); Read(b); return b }},
	} {
		var held []byte
		for i := 0; i < 100 && len(held) < 8; i++ { // the race build's pool drops a quarter of its Puts
			Uint64() // the buffer is filled
			held = heldForTest()
		}
		if len(held) < 8 {
			t.Fatalf("%s: the buffer holds %d bytes after a draw", draw.name, len(held))
		}
		NewEpoch()
		got := draw.get()
		if bytes.Contains(held, got[:4]) {
			t.Errorf("%s after NewEpoch handed out bytes buffered before it", draw.name)
		}
	}
}

func le64(v uint64) []byte {
	return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24), byte(v >> 32), byte(v >> 40),
		byte(v >> 48), byte(v >> 56)}
}

// A system stream filled before NewEpoch is emptied when handed out
// (acquire, the pool), whatever the build.
func TestAStreamOfAnEarlierEpochIsEmptied(t *testing.T) {
	s := newStream(systemFiller{})
	s.refill()
	if ofThisEpoch(s).pos != 0 {
		t.Fatal("a stream of this epoch was emptied")
	}
	NewEpoch()
	if !(ofThisEpoch(s).pos == streamSize && bytes.Equal(s.buf[:], make([]byte, streamSize))) {
		t.Fatal("a stream filled before NewEpoch kept its bytes")
	}
}

func TestWatchesVMGeneration(t *testing.T) {
	// Both builds watch Linux's vmclock device, and nothing where there is
	// none (this machine kind; a file laid out as one: vmclock_purego_test.go).
	if _, err := os.Stat("/dev/vmclock0"); err != nil && WatchesVMGeneration() {
		t.Fatal("a VM generation word is watched with no vmclock device")
	}
	t.Logf("WatchesVMGeneration: %v", WatchesVMGeneration())
}

// A version 7 UUID after NewEpoch moves to a later millisecond with a
// fresh counter: a restored copy does not go on with the snapshot's.
func TestUUIDv7AfterNewEpochLeavesTheSnapshotsMillisecond(t *testing.T) {
	ms := func(u UUID) uint64 {
		var v uint64
		for _, b := range u[:6] {
			v = v<<8 | uint64(b)
		}
		return v
	}
	for i := 0; i < 20; i++ {
		a := NewUUIDv7()
		NewEpoch()
		if b := NewUUIDv7(); ms(b) <= ms(a) {
			t.Fatalf("after NewEpoch: millisecond %d, before %d", ms(b), ms(a))
		}
	}
}
