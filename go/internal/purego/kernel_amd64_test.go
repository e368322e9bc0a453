// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !purego

package purego

// asmKernel is this architecture's assembly kernel, which the tests call
// directly and compare with the portable one.
var asmKernel = func(key *[8]uint32, out *[chacha8OutputBytes]byte) {
	var scratch [32]byte
	chacha8IterationAVX2(key, out, &scratch)
	if scratch != [32]byte{} {
		panic("the AVX2 kernel left its scratch unzeroed")
	}
}
