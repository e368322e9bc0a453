// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build linux && !cgo

package shakerand

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"unsafe"

	"github.com/shakerand/shakerand/go/internal/purego"
)

// vmclockFile is a regular file laid out as the vmclock device's page
// (struct vmclock_abi), mapped shared so the tests write what the
// hypervisor would and the package's own mapping sees it.
type vmclockFile struct {
	path string
	page []byte
}

const (
	vmclockFlagsWithCounter = vmclockFlagVMGenKept
	vmclockPageBytes        = 4096
)

// newVMClockFile makes the file: size bytes (at least the header's 32),
// with the magic, declared size, version and flags given, and the
// generation counter at 7 if the file holds it. Its page is mapped whole:
// past the file's end it reads zeros.
func newVMClockFile(t *testing.T, size int, magic, declared uint32, version uint16, flags uint64) *vmclockFile {
	t.Helper()
	path := filepath.Join(t.TempDir(), "vmclock")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(int64(size)); err != nil {
		t.Fatal(err)
	}
	page, err := syscall.Mmap(int(f.Fd()), 0, vmclockPageBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(page) }) // the package's own mapping of it stays
	v := &vmclockFile{path: path, page: page}
	// The device's header is little-endian whatever the host (a short file
	// holds it still).
	binary.LittleEndian.PutUint32(page[0:], magic)
	binary.LittleEndian.PutUint32(page[vmclockSizeOffset:], declared)
	binary.LittleEndian.PutUint16(page[vmclockVersionOffset:], version)
	binary.LittleEndian.PutUint64(page[vmclockFlagsOffset:], flags)
	if size >= vmclockABIBytes {
		v.set(vmclockVMGenOffset, 7)
	}
	return v
}

func newDevicePage(t *testing.T, flags uint64) *vmclockFile {
	return newVMClockFile(t, vmclockPageBytes, vmclockMagic, vmclockPageBytes, 1, flags)
}

func (v *vmclockFile) seq() *uint32 { return (*uint32)(unsafe.Pointer(&v.page[vmclockSeqOffset])) }

// set writes the word at off as the hypervisor does: the sequence count
// odd, the value, the count even.
func (v *vmclockFile) set(off int, value uint64) {
	atomic.AddUint32(v.seq(), 1)
	atomic.StoreUint64((*uint64)(unsafe.Pointer(&v.page[off])), value)
	atomic.AddUint32(v.seq(), 1)
}

// watch makes the package watch the file as it would the device, until the
// test ends.
func (v *vmclockFile) watch(t *testing.T) {
	t.Helper()
	vmWordOnce.Do(watchVMWord)
	before, beforeStart := vmWord.Load(), vmWordStart.Load()
	t.Cleanup(func() {
		vmWordStart.Store(beforeStart)
		vmWord.Store(before)
	})
	w := mapVMClock(v.path, false)
	if w == nil {
		w = &zeroWord
	}
	watchWord(w)
}

// seedAllStates draws from every system state, so each is seeded, and
// returns their engines.
func seedAllStates() []purego.Engine {
	engines := make([]purego.Engine, len(systemSlots))
	var b [16]byte
	for i := range systemSlots {
		s := &systemSlots[i]
		s.mu.Lock()
		s.st.fill(b[:])
		engines[i] = s.st.eng
		s.mu.Unlock()
	}
	return engines
}

// reseededStates draws from every state again and counts those whose
// engine is no longer the one given (a reseed replaces it).
func reseededStates(before []purego.Engine) int {
	n := 0
	var b [16]byte
	for i := range systemSlots {
		s := &systemSlots[i]
		s.mu.Lock()
		s.st.fill(b[:])
		if s.st.eng != before[i] {
			n++
		}
		s.mu.Unlock()
	}
	return n
}

// A moved generation counter reseeds every state before its next byte,
// and the per-P buffer's bytes from before the move are not handed out.
func TestVMClockCounterReseedsEveryState(t *testing.T) {
	v := newDevicePage(t, vmclockFlagsWithCounter)
	v.watch(t)
	if !WatchesVMGeneration() {
		t.Fatal("a page with the counter is not watched")
	}
	before := seedAllStates()
	if n := reseededStates(before); n != 0 {
		t.Fatalf("%d states reseeded with nothing moved", n)
	}
	v.set(vmclockVMGenOffset, 8)
	if n := reseededStates(before); n != len(systemSlots) {
		t.Fatalf("%d of %d states reseeded after the counter moved", n, len(systemSlots))
	}

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for g := uint64(9); g < 12; g++ {
		var held []byte
		for i := 0; i < 100 && len(held) < 8; i++ {
			Uint64()
			held = heldForTest()
		}
		if len(held) < 8 {
			t.Fatalf("the buffer holds %d bytes after a draw", len(held))
		}
		v.set(vmclockVMGenOffset, g)
		if got := le64(Uint64()); bytes.Contains(held, got[:4]) {
			t.Fatal("Uint64 after the counter moved handed out bytes buffered before it")
		}
	}
}

// snapshotState copies a seeded state, its engine's memory included, as a
// VM snapshot holds it (the system engine, chacha8rand by default, holds
// no pointer, so a shallow copy of it is whole).
func snapshotState(t *testing.T, st *systemState) systemState {
	t.Helper()
	e := reflect.ValueOf(st.eng).Elem()
	for i := 0; i < e.NumField(); i++ {
		switch e.Field(i).Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Interface, reflect.Map, reflect.Func:
			t.Skipf("the system engine %T holds a %s: not copied whole", st.eng, e.Field(i).Kind())
		}
	}
	c := reflect.New(e.Type())
	c.Elem().Set(e)
	cp := *st
	cp.eng = c.Interface().(purego.Engine)
	return cp
}

// Two restores of one snapshot, each seeing the counter move to the same
// new value (as two clones of one VM do), hand out different bytes, and
// neither the snapshot's continuation.
func TestVMClockTwoRestoresOfOneSnapshotDiffer(t *testing.T) {
	for _, c := range []struct {
		name  string
		flags uint64
		off   int
	}{{"counter", vmclockFlagsWithCounter, vmclockVMGenOffset}, {"disruption marker", 0, vmclockDisruptionOff}} {
		v := newDevicePage(t, c.flags)
		v.set(vmclockDisruptionOff, 1)
		v.watch(t)
		var st systemState
		var b [64]byte
		st.fill(b[:])
		snap := snapshotState(t, &st)
		next := func() []byte { // the snapshot's continuation
			s := snapshotState(t, &snap)
			out := make([]byte, 64)
			s.fill(out)
			return out
		}()
		v.set(c.off, 100)
		var clones [2][]byte
		for i := range clones {
			s := snapshotState(t, &snap)
			clones[i] = make([]byte, 64)
			s.fill(clones[i])
			s.wipe()
		}
		if bytes.Equal(clones[0], clones[1]) || bytes.Equal(clones[0], next) || bytes.Equal(clones[1], next) {
			t.Errorf("%s: a restored state went on with the snapshot's stream", c.name)
		}
		st.wipe()
		snap.wipe()
	}
}

// Without the flag the disruption marker is watched and the counter's
// bytes mean nothing; with it, the marker alone (a live migration) does not
// reseed.
func TestVMClockWatchesTheWordTheFlagsSay(t *testing.T) {
	for _, c := range []struct {
		name           string
		flags          uint64
		moved, ignored int
	}{
		{"no counter", 0, vmclockDisruptionOff, vmclockVMGenOffset},
		{"counter", vmclockFlagsWithCounter, vmclockVMGenOffset, vmclockDisruptionOff},
	} {
		v := newDevicePage(t, c.flags)
		v.watch(t)
		if !WatchesVMGeneration() {
			t.Fatalf("%s: the page is not watched", c.name)
		}
		before := seedAllStates()
		v.set(c.ignored, 1234)
		if n := reseededStates(before); n != 0 {
			t.Errorf("%s: %d states reseeded when the word not watched moved", c.name, n)
		}
		v.set(c.moved, 99)
		if n := reseededStates(before); n != len(systemSlots) {
			t.Errorf("%s: %d of %d states reseeded when the watched word moved", c.name, n, len(systemSlots))
		}
	}
}

// A sequence count left odd for good does not hang a draw: the value read
// is taken as it is, and reseeds once.
func TestVMClockOddSequenceCountHeldForeverDoesNotHang(t *testing.T) {
	v := newDevicePage(t, vmclockFlagsWithCounter)
	v.watch(t)
	before := seedAllStates()
	atomic.AddUint32(v.seq(), 1) // odd, for good
	atomic.StoreUint64((*uint64)(unsafe.Pointer(&v.page[vmclockVMGenOffset])), 99)
	seeds := seedCounter.Load()
	if n := reseededStates(before); n != len(systemSlots) {
		t.Fatalf("%d of %d states reseeded", n, len(systemSlots))
	}
	for range 10 {
		reseededStates(before)
	}
	if got := seedCounter.Load() - seeds; got != uint64(len(systemSlots)) {
		t.Fatalf("%d seeds for %d states: the value read under an odd count is not the one compared", got, len(systemSlots))
	}
}

// What is not such a page is ignored: nothing watched, and nothing
// reseeds when its bytes change. The device path takes a character device
// only, and a FIFO is opened without waiting for a writer.
func TestVMClockPagesThatAreNotTheDeviceAreIgnored(t *testing.T) {
	for _, c := range []struct {
		what     string
		size     int
		magic    uint32
		declared uint32
		version  uint16
	}{
		{"wrong magic", vmclockPageBytes, vmclockMagic + 1, vmclockPageBytes, 1},
		{"another version", vmclockPageBytes, vmclockMagic, vmclockPageBytes, 2},
		{"a short file", vmclockABIBytes - 8, vmclockMagic, vmclockPageBytes, 1},
		{"a size too small", vmclockPageBytes, vmclockMagic, 64, 1},
	} {
		v := newVMClockFile(t, c.size, c.magic, c.declared, c.version, vmclockFlagsWithCounter)
		v.watch(t)
		if WatchesVMGeneration() {
			t.Errorf("%s: watched", c.what)
			continue
		}
		before := seedAllStates()
		if c.size >= vmclockABIBytes {
			v.set(vmclockVMGenOffset, 1234)
			v.set(vmclockDisruptionOff, 1234)
		}
		if n := reseededStates(before); n != 0 {
			t.Errorf("%s: %d states reseeded", c.what, n)
		}
	}
	if v := newDevicePage(t, vmclockFlagsWithCounter); mapVMClock(v.path, true) != nil {
		t.Error("a regular file is taken for the device")
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if mapVMClock(fifo, false) != nil || mapVMClock(fifo, true) != nil {
		t.Error("a FIFO is taken for the device")
	}
}

// A moved word is a restore: the states' reseeds after it share one
// jitter sample, and none is taken while the word keeps the value it had
// when the watch began.
func TestAMovedWordTakesOneSample(t *testing.T) {
	withNoRestoreSeen(t)
	v := newDevicePage(t, vmclockFlagsWithCounter)
	v.watch(t)
	samples := withTimer(t, cycleCounter)
	before := seedAllStates()
	reseedEveryState()
	if n := samples(); n != 0 {
		t.Fatalf("%d samples with the word unmoved", n)
	}
	v.set(vmclockVMGenOffset, 8)
	if n := reseededStates(before); n != len(systemSlots) {
		t.Fatalf("%d of %d states reseeded after the word moved", n, len(systemSlots))
	}
	if n := samples(); n != 1 {
		t.Fatalf("%d samples after the word moved", n)
	}
}
