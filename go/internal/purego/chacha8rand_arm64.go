// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !purego

package purego

// chacha8IterationNEON is chacha8IterationGeneric in NEON assembly
// (chacha8rand_arm64.s): the same bytes in out and the same next key in
// *key. It leaves no key or state in the vector registers and writes none
// to the stack.
//
//go:noescape
func chacha8IterationNEON(key *[8]uint32, out *[chacha8OutputBytes]byte)

func chacha8Iteration(key *[8]uint32, out *[chacha8OutputBytes]byte) {
	if useAsm {
		chacha8IterationNEON(key, out)
		return
	}
	chacha8IterationGeneric(key, out)
}

const asmKernelName = "neon"

// Every arm64 CPU has NEON (Advanced SIMD is part of ARMv8-A).
const cpuHasAsm = true
