// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	_ "unsafe" // go:linkname
)

// runtime.getAuxv is the auxiliary vector the kernel gave the process; the
// runtime keeps the name for golang.org/x/sys/cpu, which reads it so.
//
//go:linkname runtimeGetAuxv runtime.getAuxv
func runtimeGetAuxv() []uintptr

// hwcap2RNG reports AT_HWCAP2 (26)'s HWCAP2_RNG (bit 16).
func hwcap2RNG() bool {
	a := runtimeGetAuxv()
	for i := 0; i+1 < len(a); i += 2 {
		if a[i] == 26 {
			return a[i+1]&(1<<16) != 0
		}
	}
	return false
}
