// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import "github.com/shakerand/shakerand/go/internal/cpu"

// RDSEED and RDRAND (hwentropy_amd64.s), detected by CPUID (internal/cpu)
// as the C core detects them (src/entropy/hw_x86.c): RDRAND is
// CPUID.1:ECX bit 30, RDSEED CPUID.(7,0):EBX bit 18. Neither uses state
// the OS must save, so no XGETBV check is needed.

func rdrandStep() (v uint64, ok bool)
func rdseedStep() (v uint64, ok bool)
func cpuPause()

var hwSources = []hwSource{
	{"rdseed", rdseedPresent, rdseedRead},
	{"rdrand", rdrandPresent, rdrandRead},
}

func rdrandPresent() bool {
	_, _, c, _ := cpu.CPUID(1, 0)
	return c>>30&1 != 0
}

func rdseedPresent() bool {
	if maxLeaf, _, _, _ := cpu.CPUID(0, 0); maxLeaf < 7 {
		return false
	}
	_, b, _, _ := cpu.CPUID(7, 0)
	return b>>18&1 != 0
}

// RDSEED draws from the conditioner directly and may run dry under load:
// Intel's guidance is to retry with a pause. 100 tries bound the wait to a
// few microseconds; past that the source is skipped for this seed.
func rdseedRead() (uint64, bool) {
	for range 100 {
		if v, ok := rdseedStep(); ok {
			return v, true
		}
		cpuPause()
	}
	return 0, false
}

// RDRAND failing 10 times in a row means the hardware is broken (Intel's
// DRNG guide, section 5.2.1).
func rdrandRead() (uint64, bool) {
	for range 10 {
		if v, ok := rdrandStep(); ok {
			return v, true
		}
	}
	return 0, false
}
