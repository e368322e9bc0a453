// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"syscall"
	"time"
	"unsafe"
)

var getTickCount64 = syscall.NewLazyDLL("kernel32.dll").NewProc("GetTickCount64")

// bootClock is GetTickCount64, which counts the time the system sleeps or
// hibernates (its documentation sends those who want the time awake only
// to QueryUnbiasedInterruptTime). Its 10 to 16 ms resolution is plenty for
// a 60-second deadline. Go's monotonic clock on Windows is the interrupt
// time, which counts sleep as well, so the two should agree here; the
// tick count is read anyway so that the reseed does not rest on how one
// Go release implements time.Now.
func bootClock() (time.Duration, bool) {
	if getTickCount64.Find() != nil {
		return 0, false
	}
	lo, hi, _ := getTickCount64.Call()
	ms := uint64(lo)
	if unsafe.Sizeof(lo) == 4 { // 386: the high half comes in EDX
		ms |= uint64(hi) << 32
	}
	return time.Duration(ms) * time.Millisecond, true
}
