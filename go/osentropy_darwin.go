// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"syscall"
	"unsafe"
)

// osEntropy fills b from getentropy(2), at most 256 bytes a call (its
// limit).
func osEntropy(b []byte) error {
	return fillFrom(b, 256, "getentropy", func(p []byte) (int, error) {
		_, _, errno := syscallSyscall(libcGetentropyTrampolineAddr,
			uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), 0)
		if errno != 0 {
			return 0, errno
		}
		return len(p), nil
	})
}

// macOS has no stable system-call interface: its C library is the
// interface. Without cgo, a Go package calls a C library function the way
// the standard library and golang.org/x/sys/unix do on macOS: a trampoline
// in osentropy_darwin.s jumps to the function the dynamic linker binds
// (the cgo_import_dynamic lines below), and the runtime's syscall.syscall
// runs it on the system stack and returns errno if it returns -1.
//
//go:linkname syscallSyscall syscall.syscall
func syscallSyscall(fn, a1, a2, a3 uintptr) (r1, r2 uintptr, err syscall.Errno)

// The trampolines' addresses, set in osentropy_darwin.s.
var (
	libcGetentropyTrampolineAddr   uintptr
	libcClockGettimeTrampolineAddr uintptr
)

//go:cgo_import_dynamic libc_getentropy getentropy "/usr/lib/libSystem.B.dylib"
//go:cgo_import_dynamic libc_clock_gettime clock_gettime "/usr/lib/libSystem.B.dylib"
