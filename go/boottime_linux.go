// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"syscall"
	"time"
	"unsafe"
)

const clockBoottime = 7 // CLOCK_BOOTTIME

// bootClock reads CLOCK_BOOTTIME, which counts the time suspended (the
// runtime's monotonic clock, CLOCK_MONOTONIC, does not). It reports false
// if the call fails (a seccomp filter may forbid it: the vDSO usually
// answers clock_gettime without a system call); the reseed then goes by
// the monotonic clock alone. RawSyscall: the call does not block.
func bootClock() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockBoottime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
