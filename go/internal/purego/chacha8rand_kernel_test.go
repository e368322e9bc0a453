// SPDX-License-Identifier: MIT OR Apache-2.0

package purego

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// forEachKernel runs f once per chacha8rand kernel this CPU and build have,
// with chacha8Iteration switched to it: the portable one, then the
// assembly one (AVX2 on amd64, NEON on arm64), so both are tested in every
// run whatever SHAKERAND_KERNEL says. Running the portable kernel is also
// what a CPU without AVX2 does.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	defer func(saved bool) { useAsm = saved }(useAsm)
	useAsm = false
	t.Run("kernel=portable", f)
	if asmKernel == nil || !cpuHasAsm {
		t.Logf("no assembly kernel in this build or on this CPU (%s)", KernelName())
		return
	}
	useAsm = true
	t.Run("kernel="+asmKernelName, f)
}

// TestKernelName says which kernel the engines run unless a test switches
// it (tools/go/run-tests.sh prints the line), and why.
func TestKernelName(t *testing.T) {
	why := "detected"
	switch {
	case asmKernel == nil:
		why = "no_assembly_in_this_build"
	case !cpuHasAsm:
		why = "the_CPU_lacks_it"
	case !useAsm:
		why = "SHAKERAND_KERNEL"
	}
	t.Logf("kernel %s (%s)", KernelName(), why)
}

// The assembly kernel against the portable one on random keys, with the
// output and the key at every alignment, the output filled with junk
// beforehand (the kernel must write all of it) and guard bytes around both
// (it must write nothing else); each key runs a chain of iterations, each
// keyed by the last one's next key, as the engine runs them.
func TestAsmKernelEqualsPortable(t *testing.T) {
	if asmKernel == nil || !cpuHasAsm {
		t.Skipf("no assembly kernel in this build or on this CPU")
	}
	r := rand.New(rand.NewPCG(11, 12))
	const guard = 64
	outBuf := make([]byte, guard+chacha8OutputBytes+guard+32)
	var keyBuf [8 + 16]uint32
	for i := 0; i < 3000; i++ {
		var want [8]uint32
		for j := range want {
			want[j] = r.Uint32()
		}
		switch i {
		case 0:
			want = [8]uint32{} // the all-zero key
		case 1:
			want = [8]uint32{^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0)}
		}
		off := guard + i%32
		koff := 8 + i%8
		for k := range outBuf {
			outBuf[k] = byte(r.Uint32())
		}
		for k := range keyBuf {
			keyBuf[k] = r.Uint32()
		}
		before := bytes.Clone(outBuf)
		keyBefore := keyBuf
		key := (*[8]uint32)(keyBuf[koff : koff+8])
		*key = want
		out := (*[chacha8OutputBytes]byte)(outBuf[off : off+chacha8OutputBytes])
		var ref [chacha8OutputBytes]byte
		for it := 0; it < 1+i%4; it++ {
			chacha8IterationGeneric(&want, &ref)
			asmKernel(key, out)
			if *out != ref {
				t.Fatalf("key %d, iteration %d, output offset %d: the output differs from the portable kernel's", i, it, off)
			}
			if *key != want {
				t.Fatalf("key %d, iteration %d: the next key differs from the portable kernel's", i, it)
			}
		}
		if !bytes.Equal(outBuf[:off], before[:off]) || !bytes.Equal(outBuf[off+chacha8OutputBytes:], before[off+chacha8OutputBytes:]) {
			t.Fatalf("key %d: the kernel wrote outside its output", i)
		}
		for k := range keyBuf {
			if (k < koff || k >= koff+8) && keyBuf[k] != keyBefore[k] {
				t.Fatalf("key %d: the kernel wrote outside its key", i)
			}
		}
	}
}

// The first iteration of every kernel for the seed of math/rand/v2's
// ChaCha8, word by word, so a failure says which words (and so which rows
// or blocks) are wrong.
func TestKernelsFirstIterationIsMathRandV2s(t *testing.T) {
	seed := [32]byte([]byte("chacha8rand kernels: iteration 0"))
	want := make([]byte, chacha8OutputBytes)
	rand.NewChaCha8(seed).Read(want)
	forEachKernel(t, func(t *testing.T) {
		var key [8]uint32
		for i := range key {
			key[i] = binary.LittleEndian.Uint32(seed[4*i:])
		}
		var out [chacha8OutputBytes]byte
		chacha8Iteration(&key, &out)
		wrong := 0
		for o := 0; o < chacha8OutputBytes && wrong < 8; o += 4 {
			if !bytes.Equal(out[o:o+4], want[o:o+4]) {
				g, w, j := o/256, o%256/16, o%16/4
				t.Errorf("byte %d (block %d, word %d): %x, math/rand/v2 gives %x", o, 4*g+j, w, out[o:o+4], want[o:o+4])
				wrong++
			}
		}
	})
}
