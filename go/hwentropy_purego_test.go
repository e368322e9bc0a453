// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"encoding/hex"
	"os"
	"runtime"
	"strings"
	"testing"
)

// withSources runs f with the table replaced by srcs and the health check
// not yet run, then puts the table back (checked again at the next seed).
func withSources(t *testing.T, srcs []hwSource, f func()) {
	t.Helper()
	hwMu.Lock()
	saved := hwSources
	hwSources, hwChecked = srcs, false
	hwMu.Unlock()
	defer func() {
		hwMu.Lock()
		hwSources, hwChecked = saved, false
		hwMu.Unlock()
	}()
	f()
}

// withOS runs f with the operating system's bytes replaced by fill's.
func withOS(t *testing.T, fill func([]byte) error, f func()) {
	t.Helper()
	saved := osRead
	osRead = fill
	defer func() { osRead = saved }()
	f()
}

// listSource hands out words in turn; past the end it fails.
func listSource(name string, words ...uint64) hwSource {
	i := 0
	return hwSource{name, func() bool { return true }, func() (uint64, bool) {
		if i == len(words) {
			return 0, false
		}
		i++
		return words[i-1], true
	}}
}

// The fake sources of the known answer: word i of A is 0x9E3779B97F4A7C15
// times i+1, of B 0xD1B54A32D192ED03 times i+1 (mod 2^64).
func mulSource(name string, m uint64, n int) hwSource {
	w := make([]uint64, n)
	for i := range w {
		w[i] = m * uint64(i+1)
	}
	return listSource(name, w...)
}

func countingOS(b []byte) error {
	for i := range b {
		b[i] = byte(i)
	}
	return nil
}

// The CPU's sources of this machine are the ones /proc/cpuinfo names (the
// kernel's CPUID reading, not this package's), and each gives distinct
// words that pass the health check.
func TestHardwareSourcesAreThisCPUs(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		if len(hwSources) != 0 {
			t.Fatalf("%d sources on %s", len(hwSources), runtime.GOARCH)
		}
		return
	}
	want := map[string]bool{}
	if e := os.Getenv("SHAKERAND_TEST_EXPECT_HWRNG"); e != "" {
		// Under qemu-user, whose /proc/cpuinfo is the host's: the runner
		// says what the -cpu it chose has.
		for _, src := range hwSources {
			want[src.name] = e == "1"
		}
	} else if runtime.GOARCH == "amd64" {
		info, err := os.ReadFile("/proc/cpuinfo")
		if err != nil {
			t.Skip("no /proc/cpuinfo:", err)
		}
		flags := ""
		for _, line := range strings.Split(string(info), "\n") {
			if strings.HasPrefix(line, "flags") {
				flags = " " + strings.SplitN(line, ":", 2)[1] + " "
				break
			}
		}
		want["rdrand"] = strings.Contains(flags, " rdrand ")
		want["rdseed"] = strings.Contains(flags, " rdseed ")
	}
	for _, src := range hwSources {
		present := src.present()
		t.Logf("%s: present %v", src.name, present)
		if w, ok := want[src.name]; ok && w != present {
			t.Errorf("%s: present %v, expected %v", src.name, present, w)
		}
		if !present {
			continue
		}
		seen := map[uint64]bool{}
		for range 64 {
			v, ok := src.read()
			if !ok || v == 0 || v == ^uint64(0) || seen[v] {
				t.Fatalf("%s: read %#x, %v after %d distinct words", src.name, v, ok, len(seen))
			}
			seen[v] = true
		}
		if r := hwHealthy(src); r != "" {
			t.Errorf("%s: %s", src.name, r)
		}
	}
}

// The start-up health check refuses a source that is absent, stuck,
// all-zeros or all-ones, repeats a value it gave before, or stops within
// its eight words; the seed then holds nothing of it.
func TestHealthCheckRejectsABadSource(t *testing.T) {
	good := []uint64{1, 2, 3, 4, 5, 6, 7, 8}
	cases := []struct {
		src  hwSource
		want string
	}{
		{listSource("good", good...), ""},
		{hwSource{"absent", func() bool { return false }, nil}, "not supported by this CPU"},
		{listSource("stuck", 5, 5, 5, 5, 5, 5, 5, 5), "repeated a value"},
		{listSource("repeat", 1, 2, 3, 4, 5, 6, 7, 3), "repeated a value"},
		{listSource("zeros", 1, 2, 0, 4, 5, 6, 7, 8), "all-zeros or all-ones"},
		{listSource("ones", 1, 2, 3, ^uint64(0), 5, 6, 7, 8), "all-zeros or all-ones"},
		{listSource("short", 1, 2, 3, 4, 5, 6, 7), "no value within the retry budget"},
	}
	for _, c := range cases {
		got := hwHealthy(c.src)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.src.name, got, c.want)
		}
	}
	// Through the seed: a stuck source is not used, so the material is the
	// OS bytes' and the counter's alone.
	var alone, stuck [seedMaterialBytes]byte
	withOS(t, countingOS, func() {
		withSources(t, nil, func() { mustSeed(t, &alone, 7) })
		withSources(t, []hwSource{listSource("stuck", 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5)}, func() {
			mustSeed(t, &stuck, 7)
			if len(hwInUse()) != 0 {
				t.Error("the stuck source is in use")
			}
		})
	})
	if alone != stuck {
		t.Error("a stuck source's words reached the seed")
	}
}

// A source that passed at start-up and then repeats, or gives all-ones, is
// dropped at the seed that sees it, its words not absorbed.
func TestASourceBrokenLaterIsDropped(t *testing.T) {
	var alone, broken [seedMaterialBytes]byte
	withOS(t, countingOS, func() {
		withSources(t, nil, func() { mustSeed(t, &alone, 7) })
		words := append([]uint64{1, 2, 3, 4, 5, 6, 7, 8}, 9, 9, 10, 11)
		withSources(t, []hwSource{listSource("later", words...)}, func() {
			mustSeed(t, &broken, 7)
			if len(hwInUse()) != 0 || !strings.Contains(hwReason[0], "at seed time: repeated") {
				t.Errorf("still in use, or the reason %q", hwReason[0])
			}
		})
	})
	if alone != broken {
		t.Error("a broken source's words reached the seed")
	}
}

func mustSeed(t *testing.T, m *[seedMaterialBytes]byte, counter uint64) {
	t.Helper()
	if err := seedMaterial(m, counter, nil); err != nil {
		t.Fatal(err)
	}
}

// The material is the reference model's (tools/shakerand_ref.py,
// system_conditioner) for OS bytes 00..1f, the counter 7 and the words
// each source gives after its eight health-check words, in table order;
// the values below were computed by the model, not by this package.
func TestHardwareWordsAreConditionedAsTheModelSays(t *testing.T) {
	const (
		both  = "40535384c6abf6fd6c4f2030bee0c1d7ade6fa42333b7ab5c48340db7d186bc7602aa44519e650f18133d77528e84ecdb96feac6bf0c7ac95fde455ce43e621e"
		onlyA = "632543d75ce37d9a38d07d1c10be78e0ee77ed9bd0cc3f65d4fd8be6600e7150c7207bfd6be38068137b5f5f5d8af4ff69097173371d5dc2d0b0906345d8c49c"
		none  = "de88bb611c252593761498218f8f3638eab58d60effc75c21a49cc2068601a0edf9f985e044ab773e9d04e9def75bf05bdf37047b729b0e53ae0a5bc6c2912f5"
	)
	for _, c := range []struct {
		srcs []hwSource
		want string
	}{
		{[]hwSource{mulSource("A", 0x9E3779B97F4A7C15, 12), mulSource("B", 0xD1B54A32D192ED03, 12)}, both},
		{[]hwSource{mulSource("A", 0x9E3779B97F4A7C15, 12), {"absent", func() bool { return false }, nil}}, onlyA},
		{nil, none},
	} {
		var m [seedMaterialBytes]byte
		withOS(t, countingOS, func() {
			withSources(t, c.srcs, func() { mustSeed(t, &m, 7) })
		})
		if got := hex.EncodeToString(m[:]); got != c.want {
			t.Errorf("%d sources: material %s, the model's %s", len(c.srcs), got, c.want)
		}
	}
}

// With the operating system made to repeat itself and the counter held,
// two seeds differ only through this CPU's words: they reach the seed
// (the control, with no source, repeats).
func TestCPUWordsReachTheSeedWhenTheOSRepeats(t *testing.T) {
	inUse := 0
	for _, s := range hwSources {
		if s.present() {
			inUse++
		}
	}
	if inUse == 0 {
		t.Skip("no CPU source on this machine")
	}
	var a, b, c, d [seedMaterialBytes]byte
	withOS(t, countingOS, func() {
		withSources(t, hwSources, func() {
			mustSeed(t, &a, 7)
			mustSeed(t, &b, 7)
		})
		withSources(t, nil, func() {
			mustSeed(t, &c, 7)
			mustSeed(t, &d, 7)
		})
	})
	if a == b {
		t.Error("the same OS bytes and counter gave the same seed with the CPU's sources")
	}
	if c != d {
		t.Error("the control: without sources the same inputs gave different seeds")
	}
}

// What a seed's gathering costs with this CPU's sources and without (the
// OS call and the conditioner are in both).
func BenchmarkSeedMaterial(b *testing.B) {
	for _, c := range []struct {
		name string
		srcs []hwSource
	}{{"os", nil}, {"os+cpu", hwSources}} {
		b.Run(c.name, func(b *testing.B) {
			var m [seedMaterialBytes]byte
			hwMu.Lock()
			saved := hwSources
			hwSources, hwChecked = c.srcs, false
			hwMu.Unlock()
			defer func() {
				hwMu.Lock()
				hwSources, hwChecked = saved, false
				hwMu.Unlock()
			}()
			for i := 0; i < b.N; i++ {
				if err := seedMaterial(&m, 1, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
