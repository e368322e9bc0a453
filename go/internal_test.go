// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"runtime"
	"sync"
	"testing"
)

// Bytes handed out are zeroed in the buffer they came from.
func TestConsumedBytesZeroed(t *testing.T) {
	s := NewSeeded(TurboSHAKE256x8, []byte("zero"))
	s.Uint64()
	var b [13]byte
	s.Read(b[:])
	for i := 0; i < 21; i++ {
		if s.st.buf[i] != 0 {
			t.Fatalf("Source buffer byte %d not zeroed", i)
		}
	}
	nonzero := 0
	for _, c := range s.st.buf[21:] {
		if c != 0 {
			nonzero++
		}
	}
	if nonzero < (streamSize-21)/2 {
		t.Fatalf("Source buffer: only %d unconsumed bytes are non-zero", nonzero)
	}

	p := newStream(systemFiller{})
	p.uint64()
	p.uint32()
	p.read(b[:])
	for i := 0; i < 25; i++ {
		if p.buf[i] != 0 {
			t.Fatalf("pool buffer byte %d not zeroed", i)
		}
	}
	if p.pos != 25 {
		t.Fatalf("pool buffer position %d, want 25", p.pos)
	}
}

// More Ps than slots (GOMAXPROCS raised after start-up): those Ps use the
// pool, and still nothing repeats.
func TestMorePsThanSlots(t *testing.T) {
	old := runtime.GOMAXPROCS(len(slotsForTest()) + 3)
	defer runtime.GOMAXPROCS(old)
	const workers, per = 12, 3000
	out := make([][]uint64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				out[w] = append(out[w], Uint64())
				if i%97 == 0 {
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Wait()
	seen := map[uint64]bool{}
	for _, o := range out {
		for _, v := range o {
			if seen[v] {
				t.Fatalf("Uint64 repeated %x", v)
			}
			seen[v] = true
		}
	}
}

// Every order of three elements is equally likely; a naive shuffle
// (j drawn from the whole range each step) is caught by the same test.
func TestShuffleUniform(t *testing.T) {
	code := func(a []int) int { return a[0]*9 + a[1]*3 + a[2] }
	index := map[int]int{}
	for i, p := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		index[code(p)] = i
	}
	const draws = 60000
	if !checkUniform(t, "Shuffle of 3", 6, draws, func() int {
		a := []int{0, 1, 2}
		Shuffle(3, func(i, j int) { a[i], a[j] = a[j], a[i] })
		return index[code(a)]
	}) {
		t.Error("Shuffle is not uniform")
	}
	if !checkUniform(t, "Perm(3)", 6, draws, func() int { return index[code(Perm(3))] }) {
		t.Error("Perm is not uniform")
	}
	if checkUniform(t, "naive shuffle (biased)", 6, draws, func() int {
		a := []int{0, 1, 2}
		for i := range a {
			j := IntN(3)
			a[i], a[j] = a[j], a[i]
		}
		return index[code(a)]
	}) {
		t.Error("chi-square did not catch the naive shuffle")
	}
}
