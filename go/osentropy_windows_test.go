// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// A ProcessPrng that returns FALSE is an error, whatever the upper half of
// the return register holds (a BOOL is 32 bits; the callee may leave
// anything above them); a TRUE with high bits set or clear is success. The
// fake gets the caller's buffer and length unchanged.
func TestProcessPrngResult(t *testing.T) {
	var gotPtr, gotLen uintptr
	var result uintptr
	fake := syscall.NewCallback(func(p, n uintptr) uintptr {
		gotPtr, gotLen = p, n
		return result
	})
	b := make([]byte, 100)
	for _, c := range []struct {
		ret uintptr
		ok  bool
	}{
		{0, false},
		{uintptr(0xdeadbeef00000000 & uint64(^uintptr(0))), false}, // FALSE, the upper half set (64-bit)
		{1, true},
		{0x100, true},
		{^uintptr(0), true},
	} {
		result = c.ret
		err := callProcessPrng(fake, b)
		if (err == nil) != c.ok {
			t.Errorf("ProcessPrng returning %#x: error %v", c.ret, err)
		}
		if gotPtr != uintptr(unsafe.Pointer(&b[0])) || gotLen != uintptr(len(b)) {
			t.Errorf("called with (%#x, %d), want (%p, %d)", gotPtr, gotLen, &b[0], len(b))
		}
	}
}

// The ProcessPrng found is bcryptprimitives.dll's in the system directory.
func TestProcessPrngFromSystem32(t *testing.T) {
	proc, err := processPrng()
	if err != nil {
		t.Fatal(err)
	}
	k32 := syscall.NewLazyDLL("kernel32.dll")
	var module uintptr
	// GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | _UNCHANGED_REFCOUNT
	if r, _, err := k32.NewProc("GetModuleHandleExW").Call(4|2, proc, uintptr(unsafe.Pointer(&module))); r == 0 {
		t.Fatal("GetModuleHandleExW:", err)
	}
	path := make([]uint16, 1024)
	n, _, err := k32.NewProc("GetModuleFileNameW").Call(module, uintptr(unsafe.Pointer(&path[0])), uintptr(len(path)))
	if n == 0 {
		t.Fatal("GetModuleFileNameW:", err)
	}
	dir := make([]uint16, 1024)
	m, _, err := k32.NewProc("GetSystemDirectoryW").Call(uintptr(unsafe.Pointer(&dir[0])), uintptr(len(dir)))
	if m == 0 {
		t.Fatal("GetSystemDirectoryW:", err)
	}
	got := strings.ToLower(syscall.UTF16ToString(path[:n]))
	want := strings.ToLower(syscall.UTF16ToString(dir[:m]) + `\bcryptprimitives.dll`)
	if got != want {
		t.Fatalf("ProcessPrng is in %s, want %s", got, want)
	}
}
