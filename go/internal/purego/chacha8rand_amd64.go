// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !purego

package purego

import "github.com/shakerand/shakerand/go/internal/cpu"

// chacha8IterationAVX2 is chacha8IterationGeneric in AVX2 assembly
// (chacha8rand_amd64.s): the same bytes in out and the same next key in
// *key. It leaves no key or state in the vector registers and writes none
// to the stack but scratch, which it zeroes before it returns (the stack
// cannot move meanwhile: an assembly function is no safe point).
//
//go:noescape
func chacha8IterationAVX2(key *[8]uint32, out *[chacha8OutputBytes]byte, scratch *[32]byte)

func chacha8Iteration(key *[8]uint32, out *[chacha8OutputBytes]byte) {
	if useAsm {
		var scratch [32]byte
		chacha8IterationAVX2(key, out, &scratch)
		return
	}
	chacha8IterationGeneric(key, out)
}

const asmKernelName = "avx2"

var cpuHasAsm = hasAVX2()

// hasAVX2 reports whether the CPU has AVX2 and the operating system saves
// the YMM registers across context switches: CPUID.1:ECX has OSXSAVE
// (bit 27) and AVX (bit 28), XCR0 has the SSE and AVX state bits (1 and
// 2), and CPUID.(7,0):EBX has AVX2 (bit 5). The module asks the CPU itself
// (internal/cpu) rather than depending on golang.org/x/sys/cpu for one bit
// (the runtime's internal/cpu cannot be imported).
func hasAVX2() bool {
	maxLeaf, _, _, _ := cpu.CPUID(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpu.CPUID(1, 0)
	if ecx1&(1<<27) == 0 || ecx1&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := cpu.XGETBV0(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpu.CPUID(7, 0)
	return ebx7&(1<<5) != 0
}
