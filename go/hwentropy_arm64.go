// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

// RNDRRS (reseeded before the read, preferred for seeding) and RNDR
// (hwentropy_arm64.s), both or neither, where the kernel says the CPU has
// them (hwcap2RNG: AT_HWCAP2's HWCAP2_RNG on Linux), as the C core does
// (src/entropy/hw_arm64.c).

func rndrStep() (v uint64, ok bool)
func rndrrsStep() (v uint64, ok bool)

var hwSources = []hwSource{
	{"rndrrs", hwcap2RNG, func() (uint64, bool) { return rndrRead(rndrrsStep) }},
	{"rndr", hwcap2RNG, func() (uint64, bool) { return rndrRead(rndrStep) }},
}

// 10 tries, as for RDRAND.
func rndrRead(step func() (uint64, bool)) (uint64, bool) {
	for range 10 {
		if v, ok := step(); ok {
			return v, true
		}
	}
	return 0, false
}
