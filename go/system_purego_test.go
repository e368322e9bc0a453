// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"bytes"
	"runtime"
	"testing"
	"time"

	"github.com/shakerand/shakerand/go/internal/purego"
)

// The OS source fills every length, and two reads differ.
func TestOSEntropy(t *testing.T) {
	for _, n := range []int{1, 31, 32, 255, 256, 257, 4096, 65537} {
		a, b := make([]byte, n), make([]byte, n)
		if err := osEntropy(a); err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if err := osEntropy(b); err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if n >= 8 && (bytes.Equal(a, b) || bytes.Equal(a, make([]byte, n))) {
			t.Fatalf("%d bytes: the OS source repeated itself or gave zeros", n)
		}
	}
}

// A suspend moves the boot clock and not the monotonic one: 60 seconds on
// the boot clock since the reseed reseed the state, as 60 monotonic ones do.
func TestReseedCountsSuspend(t *testing.T) {
	if _, ok := bootClock(); !ok {
		t.Skipf("no clock that counts suspend on %s: the reseed goes by the monotonic clock alone", runtime.GOOS)
	}
	var s systemState
	defer s.wipe()
	b := make([]byte, clockCheckBytes)
	s.fill(b)
	first := s.eng
	s.fill(b)
	if s.eng != first {
		t.Fatal("reseeded with no clock due")
	}
	s.bootStart -= reseedInterval // as after 60 seconds asleep
	s.fill(b)
	if s.eng == first {
		t.Fatal("no reseed 60 seconds after the last on the boot clock")
	}
	second := s.eng
	s.monoStart = s.monoStart.Add(-reseedInterval)
	s.fill(b)
	if s.eng == second {
		t.Fatal("no reseed 60 seconds after the last on the monotonic clock")
	}
}

// A reseed leaves no key behind: the engine it replaces is wiped (a wiped
// chacha8rand engine holds the all-zero key and no output).
func TestReseedWipesTheOldEngine(t *testing.T) {
	if systemKind() != ChaCha8Rand {
		t.Skip("the system generator runs", systemKind())
	}
	var s systemState
	defer s.wipe()
	s.fill(make([]byte, 100))
	old := s.eng
	s.drawn = reseedBytes // the byte budget spent
	s.fill(make([]byte, 1))
	if s.eng == old {
		t.Fatal("no reseed at 16 MiB")
	}
	got, want := make([]byte, 2000), make([]byte, 2000)
	old.Fill(got)
	zero, _ := purego.New(int(ChaCha8Rand), make([]byte, 32))
	zero.Fill(want)
	if !bytes.Equal(got, want) {
		t.Fatal("the replaced engine was not wiped")
	}
}

// The states are the table's and outlive garbage collections (a sync.Pool
// would have dropped them, unwiped, at the second).
func TestSystemStatesSurviveGC(t *testing.T) {
	Read(make([]byte, directReadMin))
	engines := map[purego.Engine]bool{}
	for i := range systemSlots {
		s := &systemSlots[i]
		s.mu.Lock()
		if s.st.eng != nil {
			engines[s.st.eng] = true
		}
		s.mu.Unlock()
	}
	if len(engines) == 0 {
		t.Fatal("no seeded state after a draw")
	}
	runtime.GC()
	runtime.GC()
	for i := range systemSlots {
		s := &systemSlots[i]
		s.mu.Lock()
		if s.st.eng != nil {
			delete(engines, s.st.eng)
		}
		s.mu.Unlock()
	}
	if len(engines) != 0 {
		t.Fatalf("%d states gone after two collections", len(engines))
	}
}

// More goroutines than states: callers wait for a state, none repeats.
func TestMoreDrawersThanStates(t *testing.T) {
	const g = 4
	n := len(systemSlots)*g + 1
	done := make(chan []byte, n)
	for range n {
		go func() {
			b := make([]byte, 256<<10)
			systemFill(b)
			done <- b
		}()
	}
	seen := map[[16]byte]bool{}
	deadline := time.After(time.Minute)
	for range n {
		select {
		case b := <-done:
			for i := 0; i < len(b); i += 16 {
				k := [16]byte(b[i:])
				if seen[k] {
					t.Fatal("a 16-byte block repeated")
				}
				seen[k] = true
			}
		case <-deadline:
			t.Fatal("drawers stuck")
		}
	}
}
