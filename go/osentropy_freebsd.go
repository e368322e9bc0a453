// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"syscall"
	"unsafe"
)

// sysGetrandom is getrandom's system-call number on every FreeBSD
// architecture (FreeBSD 12 and later; the syscall package predates it).
const sysGetrandom = 563

// osEntropy fills b from getrandom(2) with no flags, which waits until the
// kernel's generator is seeded and then never blocks, in pieces of 256
// bytes (getentropy's limit; getrandom's own is larger, and the reseeds
// read 32).
func osEntropy(b []byte) error {
	return fillFrom(b, 256, "getrandom", func(p []byte) (int, error) {
		n, _, errno := syscall.Syscall(sysGetrandom, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), 0)
		if errno != 0 {
			return 0, errno
		}
		return int(n), nil
	})
}
