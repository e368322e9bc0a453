// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// No 16-byte output repeats across goroutines hammering every path that
// shares the pooled buffers (run with -race).
func TestConcurrentNoRepeats(t *testing.T) {
	const workers, per = 8, 5000
	results := make([][][16]byte, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			out := make([][16]byte, 0, 4*per)
			for i := 0; i < per; i++ {
				var a [16]byte
				Read(a[:])
				out = append(out, a)
				var b [16]byte
				putWord(b[:8], Uint64())
				putWord(b[8:], Uint64())
				out = append(out, b)
				u := NewUUID()
				u[6], u[8] = 0, 0 // fixed bits aside, the rest must differ too
				out = append(out, u)
				var d [16]byte // 8-byte reads have a path of their own
				Read(d[:8])
				Read(d[8:])
				out = append(out, d)
				if i%7 == 0 {
					var odd [3]byte // the words after it straddle the buffer's 8-byte grid
					Read(odd[:])
				}
				_ = IntN(10) + int(Uint32N(7)) + Perm(3)[0]
				if i%100 == 0 {
					big := make([]byte, 600) // the direct path
					Reader.Read(big)
					var c [16]byte
					copy(c[:], big[300:])
					out = append(out, c)
				}
			}
			results[w] = out
		}(w)
	}
	wg.Wait()
	// Every 8-byte half on its own: one word handed to two goroutines must
	// show even when its neighbour differs.
	seen := make(map[[8]byte]bool)
	for _, r := range results {
		for _, v := range r {
			for _, half := range [][8]byte{[8]byte(v[:8]), [8]byte(v[8:])} {
				if seen[half] {
					t.Fatalf("8-byte output repeated: %x", half)
				}
				seen[half] = true
			}
		}
	}
}

func putWord(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

func TestReadAlwaysFills(t *testing.T) {
	for _, n := range []int{0, 1, 8, 511, 512, 1023, 1024, 1025, 5000, 1 << 20} {
		b := make([]byte, n)
		got, err := Read(b)
		if got != n || err != nil {
			t.Fatalf("Read(%d) = %d, %v", n, got, err)
		}
		if n >= 64 {
			zeros := 0
			for _, c := range b {
				if c == 0 {
					zeros++
				}
			}
			// Expected n/256 zero bytes; far more means unfilled memory.
			if zeros > n/64+8 {
				t.Fatalf("Read(%d): %d zero bytes", n, zeros)
			}
		}
	}
	// Small reads (the buffered path): over 32 reads every position must
	// have been written with something other than zero at least once.
	for _, n := range []int{1, 8, 63} {
		var written [63]bool
		for range 32 {
			b := make([]byte, n)
			Read(b)
			for i, c := range b {
				written[i] = written[i] || c != 0
			}
		}
		for i := range n {
			if !written[i] {
				t.Fatalf("Read(%d): byte %d stayed zero in 32 reads", n, i)
			}
		}
	}
}

func expectPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", name)
		}
	}()
	f()
}

func TestSystemKind(t *testing.T) {
	want := ChaCha8Rand
	if os.Getenv("SHAKERAND_SYSTEM_ENGINE") == "turboshake256x8" {
		want = TurboSHAKE256x8
	}
	if k := SystemKind(); k != want {
		t.Fatalf("SystemKind() = %v, want %v", k, want)
	}
}

func TestArgumentPanics(t *testing.T) {
	expectPanic(t, "Uint64N(0)", func() { Uint64N(0) })
	expectPanic(t, "Uint32N(0)", func() { Uint32N(0) })
	expectPanic(t, "UintN(0)", func() { UintN(0) })
	expectPanic(t, "IntN(0)", func() { IntN(0) })
	expectPanic(t, "IntN(-1)", func() { IntN(-1) })
	expectPanic(t, "Int64N(0)", func() { Int64N(0) })
	expectPanic(t, "Int64N(-5)", func() { Int64N(-5) })
	expectPanic(t, "Int32N(-1)", func() { Int32N(-1) })
	expectPanic(t, "N(0)", func() { N(0) })
	expectPanic(t, "N(-time.Second)", func() { N(-time.Second) })
	expectPanic(t, "N(uint8(0))", func() { N(uint8(0)) })
	expectPanic(t, "Shuffle(-1)", func() { Shuffle(-1, func(i, j int) {}) })
	expectPanic(t, "Perm(-1)", func() { Perm(-1) })
	expectPanic(t, "Int(0)", func() { BigIntN(big.NewInt(0)) })
	expectPanic(t, "Int(-3)", func() { BigIntN(big.NewInt(-3)) })
	expectPanic(t, "Source.Uint64N(0)", func() { NewSource().Uint64N(0) })
	expectPanic(t, "Seed on NewSource", func() { NewSource().Seed(1) })
	expectPanic(t, "NewSeeded(Kind(9))", func() { NewSeeded(Kind(9), nil) })
	for _, n := range []int{0, 1, 31, 33, 64} {
		func() {
			defer func() {
				want := fmt.Sprintf("shakerand: a chacha8rand seed is exactly 32 bytes, not %d", n)
				if r := recover(); r != want {
					t.Errorf("NewSeeded(ChaCha8Rand, %d bytes): panic %v, want %q", n, r, want)
				}
			}()
			NewSeeded(ChaCha8Rand, make([]byte, n))
		}()
	}
}

func TestRanges(t *testing.T) {
	for i := 0; i < 10000; i++ {
		if v := IntN(7); v < 0 || v >= 7 {
			t.Fatalf("IntN(7) = %d", v)
		}
		if v := Int64N(1 << 40); v < 0 || v >= 1<<40 {
			t.Fatalf("Int64N = %d", v)
		}
		if v := Int64(); v < 0 {
			t.Fatalf("Int64 = %d", v)
		}
		if v := N(3 * time.Second); v < 0 || v >= 3*time.Second {
			t.Fatalf("N = %v", v)
		}
		if v := Float64(); v < 0 || v >= 1 {
			t.Fatalf("Float64 = %v", v)
		}
		if v := Float32(); v < 0 || v >= 1 {
			t.Fatalf("Float32 = %v", v)
		}
	}
	if IntN(1) != 0 || Uint64N(1) != 0 || BigIntN(big.NewInt(1)).Sign() != 0 {
		t.Fatal("a bound of 1 must give 0")
	}
	p := Perm(1000)
	sorted := append([]int(nil), p...)
	sort.Ints(sorted)
	for i, v := range sorted {
		if v != i {
			t.Fatal("Perm is not a permutation")
		}
	}
	if sort.IntsAreSorted(p) {
		t.Fatal("Perm(1000) came out sorted")
	}
}

func TestBigIntNRanges(t *testing.T) {
	maxes := []*big.Int{big.NewInt(1), big.NewInt(2), big.NewInt(3), big.NewInt(255),
		big.NewInt(256), big.NewInt(257), new(big.Int).Lsh(big.NewInt(1), 64),
		new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1)),
		new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 521), big.NewInt(1))}
	for _, m := range maxes {
		top := false
		for i := 0; i < 2000; i++ {
			v := BigIntN(m)
			if v.Sign() < 0 || v.Cmp(m) >= 0 {
				t.Fatalf("BigIntN(%v) = %v", m, v)
			}
			// The top half of the range is reached.
			if new(big.Int).Lsh(v, 1).Cmp(m) >= 0 {
				top = true
			}
		}
		if m.Cmp(big.NewInt(1)) > 0 && !top {
			t.Fatalf("BigIntN(%v) never reached the top half", m)
		}
	}
}

// chiSquare of counts against a uniform expectation.
func chiSquare(counts []int, total int) float64 {
	e := float64(total) / float64(len(counts))
	x := 0.0
	for _, c := range counts {
		d := float64(c) - e
		x += d * d / e
	}
	return x
}

// Upper 1e-9 quantiles of chi-square (df = bins - 1): the system generator's
// draws are not reproducible and several checks run in several builds per
// `make test`, so a correct sampler must fail far less often than one run in
// 10,000 each; the biased controls score in the hundreds.
var chiCritical = map[int]float64{2: 41.45, 3: 44.84, 5: 50.69, 6: 53.34, 7: 55.87, 9: 60.66}

func checkUniform(t *testing.T, name string, bins, draws int, draw func() int) bool {
	t.Helper()
	counts := make([]int, bins)
	for i := 0; i < draws; i++ {
		counts[draw()]++
	}
	x := chiSquare(counts, draws)
	limit := chiCritical[bins-1]
	if limit == 0 {
		t.Fatalf("no quantile for %d bins", bins)
	}
	t.Logf("%s: chi-square %.2f (limit %.2f, df %d)", name, x, limit, bins-1)
	return x <= limit
}

// binOf maps v in [0, n) to one of k equal-width bins.
func binOf(v, n, k uint64) int {
	hi, lo := bits.Mul64(v, k)
	q, _ := bits.Div64(hi, lo, n)
	return int(q)
}

func TestChiSquare(t *testing.T) {
	const draws = 60000
	if !checkUniform(t, "BigIntN(big 6)", 6, draws, func() int { return int(BigIntN(big.NewInt(6)).Int64()) }) {
		t.Error("Int(6) is not uniform")
	}
	if !checkUniform(t, "BigIntN(big 3)", 3, draws, func() int { return int(BigIntN(big.NewInt(3)).Int64()) }) {
		t.Error("Int(3) is not uniform")
	}
	if !checkUniform(t, "IntN(10)", 10, draws, func() int { return IntN(10) }) {
		t.Error("IntN(10) is not uniform")
	}
	if !checkUniform(t, "UUID byte 9, top 3 bits", 8, draws, func() int { u := NewUUID(); return int(u[9] >> 5) }) {
		t.Error("UUID bytes are not uniform")
	}
	// Near 2/3 of 2^64, plain modulo makes the lower half of the range
	// twice as likely as the upper half; Lemire's rejection does not.
	n := uint64(0xAAAAAAAAAAAAAAAB)
	if !checkUniform(t, "Uint64N(2/3 * 2^64)", 6, draws, func() int { return binOf(Uint64N(n), n, 6) }) {
		t.Error("Uint64N near 2/3 * 2^64 is not uniform")
	}
	// The same test must catch the biased sampler, or it proves nothing.
	if checkUniform(t, "Uint64() % n (biased)", 6, draws, func() int { return binOf(Uint64()%n, n, 6) }) {
		t.Error("chi-square did not catch plain modulo")
	}
}

var uuidForm = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-([47])[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestUUIDs(t *testing.T) {
	var prev, or UUID
	defer func() {
		// Every bit other than the version and variant bits varies.
		want := UUID{}
		for i := range want {
			want[i] = 0xFF
		}
		want[6], want[8] = 0x4F, 0xBF
		if !t.Failed() && or != want {
			t.Errorf("UUID bits that never varied: %x", or)
		}
	}()
	for i := 0; i < 2000; i++ {
		u := NewUUID()
		for j := range u {
			or[j] |= u[j]
		}
		s := u.String()
		m := uuidForm.FindStringSubmatch(s)
		if m == nil || m[1] != "4" || u[6]>>4 != 4 || u[8]>>6 != 2 {
			t.Fatalf("UUID %s: bad format, version or variant", s)
		}
		if s != cUUIDFormat(u) {
			t.Fatalf("String %s, C formats %s", s, cUUIDFormat(u))
		}
		v := NewUUIDv7()
		s7 := v.String()
		if m := uuidForm.FindStringSubmatch(s7); m == nil || m[1] != "7" {
			t.Fatalf("UUIDv7 %s: bad format or version", s7)
		}
		if string(v[:]) <= string(prev[:]) {
			t.Fatalf("UUIDv7 not increasing: %x after %x", v, prev)
		}
		prev = v
		ms := int64(v[0])<<40 | int64(v[1])<<32 | int64(v[2])<<24 | int64(v[3])<<16 | int64(v[4])<<8 | int64(v[5])
		if d := time.Now().UnixMilli() - ms; i == 0 && (d < -1000 || d > 1000) {
			t.Fatalf("UUIDv7 timestamp %d is %d ms off the clock", ms, d)
		}
	}
	// The C uuid4 on an engine sets the same bits the Go UUID sets.
	c := cUUID4(NewSeeded(TurboSHAKE256, nil))
	raw := make([]byte, 16)
	NewSeeded(TurboSHAKE256, nil).Read(raw)
	raw[6] = raw[6]&0x0F | 0x40
	raw[8] = raw[8]&0x3F | 0x80
	if string(raw) != string(c[:]) {
		t.Fatal("UUID bits differ from shakerand_uuid4")
	}
}

func TestText(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	seen := map[rune]bool{}
	for i := 0; i < 1000; i++ {
		s := Text()
		if len(s) != 26 {
			t.Fatalf("Text() = %q", s)
		}
		for _, r := range s {
			if !strings.ContainsRune(alphabet, r) {
				t.Fatalf("Text() = %q", s)
			}
			seen[r] = true
		}
	}
	if len(seen) != 32 {
		t.Fatalf("Text used %d of 32 characters", len(seen))
	}
	for v := byte(0); v < 16; v++ {
		if hexDigit(v) != "0123456789abcdef"[v] {
			t.Fatalf("hexDigit(%d) = %c", v, hexDigit(v))
		}
	}
}

func TestFloat64Mean(t *testing.T) {
	sum := 0.0
	const n = 200000
	for i := 0; i < n; i++ {
		sum += Float64()
	}
	// Mean 1/2, standard deviation of the mean sqrt(1/12/n) ~ 0.00065.
	if m := sum / n; math.Abs(m-0.5) > 0.004 {
		t.Fatalf("Float64 mean %v", m)
	}
}
