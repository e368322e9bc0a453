// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"syscall"
	"time"
	"unsafe"
)

const clockMonotonicRaw = 4 // CLOCK_MONOTONIC_RAW in <time.h>

// bootClock reads CLOCK_MONOTONIC_RAW, which on macOS keeps counting while
// the system sleeps (clock_gettime(3); it is mach_continuous_time, where
// the runtime's monotonic clock, mach_absolute_time, stops), through the C
// library (osentropy_darwin.go). It reports false if the call fails; the
// reseed then goes by the monotonic clock alone.
func bootClock() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscallSyscall(libcClockGettimeTrampolineAddr, clockMonotonicRaw, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
