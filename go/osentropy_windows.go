// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"fmt"
	"syscall"
	"unsafe"
)

// ProcessPrng, in bcryptprimitives.dll, is the system's generator (Windows
// 10 and later), documented always to succeed. Go's runtime loads the same
// DLL from System32 at start-up and stops if it is missing, so there is no
// older API to fall back on; syscall.LoadDLL loads it from System32 too
// (the standard library registers the name as a System32 DLL).
var processPrng = syscall.NewLazyDLL("bcryptprimitives.dll").NewProc("ProcessPrng")

// osEntropy fills b from ProcessPrng.
func osEntropy(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if err := processPrng.Find(); err != nil {
		return err
	}
	if ok, _, _ := processPrng.Call(uintptr(unsafe.Pointer(&b[0])), uintptr(len(b))); ok&0xff == 0 { // a BOOL
		return fmt.Errorf("ProcessPrng returned %d", ok)
	}
	return nil
}
