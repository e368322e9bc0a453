// SPDX-License-Identifier: MIT OR Apache-2.0

package purego

import "os"

// The chacha8rand kernels: the portable one (chacha8IterationGeneric) on
// every architecture, and an assembly one on amd64 with AVX2
// (chacha8rand_amd64.s, eight blocks at a time) and on arm64
// (chacha8rand_arm64.s, NEON, four blocks at a time), unless the build tag
// purego leaves the assembly out. useAsm says whether chacha8Iteration
// runs the assembly: set once from the CPU (cpuHasAsm) and
// SHAKERAND_KERNEL=portable, which forces the portable kernel as it does in
// the C core; the tests switch it to run both kernels in one process.
var useAsm = cpuHasAsm && os.Getenv("SHAKERAND_KERNEL") != "portable"

// KernelName names the chacha8rand kernel in use: "avx2", "neon" or
// "portable".
func KernelName() string {
	if useAsm {
		return asmKernelName
	}
	return "portable"
}
