// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !(amd64 || arm64) || purego

package purego

// No assembly kernel here: the portable one always runs.
func chacha8Iteration(key *[8]uint32, out *[chacha8OutputBytes]byte) {
	chacha8IterationGeneric(key, out)
}

const asmKernelName = "portable"

const cpuHasAsm = false
