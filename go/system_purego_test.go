// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"bytes"
	"encoding/hex"
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

// A suspend moves the boot clock and not the monotonic one: reseedInterval
// on the boot clock since the reseed reseeds the state, as it does on the
// monotonic one. clockDue reads the boot clock at once when the wall clock
// moved against the monotonic one, as a suspend moves it, and otherwise
// once per bootReadEvery of monotonic time (a suspend during which the
// wall clock was set back as far).
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
	if s.wallStart != s.monoStart.Round(0) {
		t.Fatal("wallStart is not the reseed's wall reading alone")
	}
	s.wallStart = s.wallStart.Add(-10 * time.Millisecond) // the wall clock stepped, no suspend
	s.fill(b)
	read := s.bootReadMono
	s.fill(b)
	if s.eng != first || s.bootReadMono != read {
		t.Fatal("one step of the wall clock read the boot clock more than once")
	}
	s.wallStart = s.wallStart.Add(20 * time.Millisecond) // stepped back (a suspend with the clock set back further)
	// A mark the next reading overwrites: a coarse monotonic clock (Windows)
	// may give that reading the previous one's time.
	s.bootReadMono = read - 1
	s.fill(b)
	if s.bootReadMono == read-1 {
		t.Fatal("the wall clock set back did not read the boot clock")
	}
	s.bootStart -= reseedInterval                  // as after that long asleep,
	s.wallStart = s.wallStart.Add(-reseedInterval) // which put the wall clock as far ahead of the monotonic one
	s.fill(b)
	if s.eng == first {
		t.Fatal("no reseed reseedInterval after the last on the boot clock (the wall clock moved)")
	}
	second := s.eng
	s.bootStart -= reseedInterval // asleep, the wall clock set back by as much meanwhile
	s.fill(b)
	if s.eng != second {
		t.Fatal("the boot clock read within bootReadEvery of the last reading, the wall clock unmoved")
	}
	s.bootReadMono -= bootReadEvery
	s.fill(b)
	if s.eng == second {
		t.Fatal("no reseed reseedInterval after the last on the boot clock (bootReadEvery after its last reading)")
	}
	third := s.eng
	s.monoStart = s.monoStart.Add(-reseedInterval)
	s.fill(b)
	if s.eng == third {
		t.Fatal("no reseed reseedInterval after the last on the monotonic clock")
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
		t.Fatal("no reseed at the byte budget")
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

// The policy of this build is the vector file's "system_policy", as the C
// core's (src/policy.h) is: every value the file has is held here or named
// as having no counterpart in this build.
func TestSystemPolicyIsTheVectorFiles(t *testing.T) {
	file := readSharedVectors(t).SystemPolicy.Values
	have := map[string]uint64{
		"reseed_bytes":           reseedBytes,
		"reseed_seconds":         uint64(reseedInterval / time.Second),
		"clock_check_bytes":      clockCheckBytes,
		"max_piece_bytes":        maxPiece,
		"conditioner_domain":     conditionerDomain,
		"os_seed_bytes":          osSeedBytes,
		"counter_bytes":          counterBytes,
		"seed_material_bytes":    seedMaterialBytes,
		"chacha8rand_key_domain": chachaKeyDomain,
		"hw_seed_bytes":          hwSeedBytes,
	}
	none := map[string]string{
		"extra_domain":       "no reseed with the caller's bytes",
		"extra_digest_bytes": "no reseed with the caller's bytes",
	}
	if reseedInterval%time.Second != 0 {
		t.Errorf("reseedInterval %v is not whole seconds", reseedInterval)
	}
	for name, want := range file {
		got, ok := have[name]
		switch {
		case ok && got != want:
			t.Errorf("system_policy.%s: the file has %d, this build %d", name, want, got)
		case !ok && none[name] == "":
			t.Errorf("system_policy.%s: no counterpart in the pure-Go build", name)
		}
	}
	for name := range have {
		if _, ok := file[name]; !ok {
			t.Errorf("%s is not in the vector file", name)
		}
	}
}

// The seed derivation gives the file's known answers: the conditioner's
// material for its OS bytes and counter, and each engine keyed from that
// material gives the stream of the seed the file names (the entries with
// caller bytes only for the material: this build has no reseed with them).
func TestSeedDerivationIsTheVectorFiles(t *testing.T) {
	for i, d := range readSharedVectors(t).SystemPolicy.Derivation {
		in := mustHex(t, d.OSHex)
		if len(in) != osSeedBytes {
			t.Fatalf("entry %d: %d OS bytes", i, len(in))
		}
		var material [seedMaterialBytes]byte
		conditioner(&material, in, d.Counter, nil)
		if got := hex.EncodeToString(material[:]); got != d.MaterialHex {
			t.Errorf("entry %d: material %s, the file has %s", i, got, d.MaterialHex)
			continue
		}
		if d.ExtraHex != nil {
			continue
		}
		for _, c := range []struct {
			kind Kind
			seed string
		}{{ChaCha8Rand, d.ChaCha8RandKeyHex}, {TurboSHAKE256x8, d.TurboSHAKE256x8SeedHex}} {
			got, err := keyEngine(c.kind, &material)
			if err != nil {
				t.Fatal(err)
			}
			want, err := purego.New(int(c.kind), mustHex(t, c.seed))
			if err != nil {
				t.Fatal(err)
			}
			a, b := make([]byte, 256), make([]byte, 256)
			got.Fill(a)
			want.Fill(b)
			if !bytes.Equal(a, b) {
				t.Errorf("entry %d: %v keyed from the material is not the stream of the file's seed", i, c.kind)
			}
		}
	}
}

// The budgets act where the vector file says: no reseed a clock check short
// of reseed_bytes or a second short of reseed_seconds, one a check past.
func TestReseedsWhereThePolicySays(t *testing.T) {
	p := readSharedVectors(t).SystemPolicy.Values
	budget, check := int(p["reseed_bytes"]), int(p["clock_check_bytes"])
	interval := time.Duration(p["reseed_seconds"]) * time.Second
	var s systemState
	defer s.wipe()
	piece := make([]byte, check)
	s.fill(piece)
	first := s.eng
	for n := check; n+check < budget; n += check {
		s.fill(piece)
	}
	if s.eng != first {
		t.Fatal("reseeded before the byte budget")
	}
	s.fill(piece)
	s.fill(piece)
	if s.eng == first {
		t.Fatal("no reseed at the byte budget")
	}
	second := s.eng
	s.monoStart = time.Now().Add(-interval + time.Second)
	s.bootStart, s.bootOK = bootClock()
	for range 3 {
		s.fill(piece)
	}
	if s.eng != second {
		t.Fatal("reseeded before the time budget")
	}
	s.monoStart = time.Now().Add(-interval - time.Second)
	for range 3 {
		s.fill(piece)
	}
	if s.eng == second {
		t.Fatal("no reseed at the time budget")
	}
}

// NewEpoch: the pure-Go states reseed at their next fill.
func TestNewEpochReseedsThePureGoStates(t *testing.T) {
	b := make([]byte, directReadMin)
	Read(b) // a state seeded
	before := seedCounter.Load()
	NewEpoch()
	Read(b)
	if seedCounter.Load() != before+1 {
		t.Fatalf("seeds: %d after NewEpoch, want %d", seedCounter.Load(), before+1)
	}
	Read(b)
	if seedCounter.Load() != before+1 {
		t.Fatal("a second fill reseeded again")
	}
}
