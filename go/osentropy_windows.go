// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"errors"
	"sync"
	"syscall"
	"unsafe"
)

// ProcessPrng, in bcryptprimitives.dll, is the system's generator (Windows
// 10 and later); Microsoft documents it as always returning TRUE. Go's
// runtime loads the same DLL from System32 at start-up and stops if it is
// missing, so every Go program on Windows already depends on it and no
// older API is needed as a fallback.
//
// It is found as the runtime finds it: LoadLibraryExW with
// LOAD_LIBRARY_SEARCH_SYSTEM32, so that only System32 is searched and a
// DLL of that name in the program's folder or the current one is never
// loaded, then GetProcAddress. (syscall.LoadDLL would search System32 only
// because the standard library's internal/syscall/windows registers the
// name; this does not depend on that.)
var processPrng = sync.OnceValues(func() (uintptr, error) {
	if err := loadLibraryExW.Find(); err != nil {
		return 0, err
	}
	name, err := syscall.UTF16PtrFromString("bcryptprimitives.dll")
	if err != nil {
		return 0, err
	}
	h, _, errno := loadLibraryExW.Call(uintptr(unsafe.Pointer(name)), 0, loadLibrarySearchSystem32)
	if h == 0 {
		return 0, &syscall.DLLError{Err: errno, ObjName: "bcryptprimitives.dll",
			Msg: "cannot load bcryptprimitives.dll from System32: " + errno.Error()}
	}
	return syscall.GetProcAddress(syscall.Handle(h), "ProcessPrng")
})

const loadLibrarySearchSystem32 = 0x00000800

// kernel32.dll is loaded by every Windows process and is registered by the
// syscall package as a System32 DLL.
var loadLibraryExW = syscall.NewLazyDLL("kernel32.dll").NewProc("LoadLibraryExW")

// osEntropy fills b from ProcessPrng.
func osEntropy(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	proc, err := processPrng()
	if err != nil {
		return err
	}
	return callProcessPrng(proc, b)
}

// callProcessPrng calls the ProcessPrng at proc for all of b (it takes a
// SIZE_T length: no pieces). Its result is a BOOL, a 32-bit int: only the
// low half of the return register is its value, so that is what is tested.
// A FALSE is an error even though the documentation says it never happens:
// the bytes are then not a seed.
func callProcessPrng(proc uintptr, b []byte) error {
	r, _, _ := syscall.SyscallN(proc, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if uint32(r) == 0 {
		return errors.New("ProcessPrng returned FALSE")
	}
	return nil
}
