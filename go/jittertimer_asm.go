// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && (amd64 || arm64)

package shakerand

// cycleCounter reads the CPU's counter as the C core's jitter_clock does:
// RDTSC on amd64 (jittertimer_amd64.s), CNTVCT_EL0 on arm64
// (jittertimer_arm64.s), which Linux, macOS and Windows let user space read.
func cycleCounter() uint64
