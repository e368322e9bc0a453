// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package shakerand

/*
#include <stdlib.h>
#include "shakerand.h"
#include "keccakp1600.h" // shakerand_kernel_find: the core's own test of CPU support
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// The C library's samplers and formatting on a Source's engine, the
// oracles of the tests that hold the Go code to the C code (cgo cannot be
// used in _test.go files). They bypass the Source's buffer: call them on a
// fresh Source only. Test-only, in the cgo build alone.

func cEngine(s *Source) *C.shakerand_engine { return s.st.src.(*engine).p }

func cUniformU64(s *Source, n uint64) uint64 {
	var out C.uint64_t
	if C.shakerand_uniform_u64(cEngine(s), C.uint64_t(n), &out) != C.SHAKERAND_OK {
		panic("shakerand_uniform_u64 failed")
	}
	runtime.KeepAlive(s)
	return uint64(out)
}

func cDouble(s *Source) float64 {
	v := float64(C.shakerand_double(cEngine(s)))
	runtime.KeepAlive(s)
	return v
}

func cEngineFill(s *Source, b []byte) {
	var p unsafe.Pointer // NULL for an empty b, which the C API allows
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	C.shakerand_engine_fill(cEngine(s), p, C.size_t(len(b)))
	runtime.KeepAlive(s)
}

func cEngineU64(s *Source) uint64 {
	v := uint64(C.shakerand_engine_u64(cEngine(s)))
	runtime.KeepAlive(s)
	return v
}

func cUUID4(s *Source) UUID {
	var u UUID
	C.shakerand_uuid4(cEngine(s), (*C.uint8_t)(unsafe.Pointer(&u[0])))
	runtime.KeepAlive(s)
	return u
}

func cUUIDFormat(u UUID) string {
	var t [C.SHAKERAND_UUID_STRING_SIZE]C.char
	C.shakerand_uuid_format((*C.uint8_t)(unsafe.Pointer(&u[0])), &t[0])
	return C.GoString(&t[0])
}

// cBelowBC1 is shakerand_below with RNG-BC-1 on the Source's engine.
func cBelowBC1(s *Source, r []byte) []byte {
	out := make([]byte, len(r))
	if C.shakerand_below(cEngine(s), C.SHAKERAND_RNG_BC_1, (*C.uint8_t)(unsafe.Pointer(&r[0])),
		C.size_t(len(r)), (*C.uint8_t)(unsafe.Pointer(&out[0])), nil) != C.SHAKERAND_OK {
		panic("shakerand_below failed")
	}
	runtime.KeepAlive(s)
	return out
}

// cKernelSupported says whether this build has the kernel called name and
// the CPU runs it, by the same test the core's SHAKERAND_KERNEL uses.
func cKernelSupported(name string) bool {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.shakerand_kernel_find(cs) != nil
}
