// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package shakerand

import "runtime"

// forceReseedForTest makes the C system generator of one OS thread reseed
// on its byte budget (16 MiB), drawing that much on the thread; test files
// cannot call C, and this is the reseed the C core's own tests hold to its
// policy. The C core counts no reseeds, so reseeded reports true.
func forceReseedForTest() (reseeded func() bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b := make([]byte, 1<<20)
	for range 17 {
		systemFill(b)
	}
	return func() bool { return true }
}
