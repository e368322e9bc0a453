// SPDX-License-Identifier: MIT OR Apache-2.0

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

// The C samplers on a Source's engine, for the tests that hold the Go
// samplers to the C ones (cgo cannot be used in _test.go files). They
// bypass the Go buffer: call them on a fresh Source only.

func cUniformU64(s *Source, n uint64) uint64 {
	var out C.uint64_t
	if C.shakerand_uniform_u64(s.eng, C.uint64_t(n), &out) != C.SHAKERAND_OK {
		panic("shakerand_uniform_u64 failed")
	}
	runtime.KeepAlive(s)
	return uint64(out)
}

func cDouble(s *Source) float64 {
	v := float64(C.shakerand_double(s.eng))
	runtime.KeepAlive(s)
	return v
}

func cEngineFill(s *Source, b []byte) {
	var p unsafe.Pointer // NULL for an empty b, which the C API allows
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	C.shakerand_engine_fill(s.eng, p, C.size_t(len(b)))
	runtime.KeepAlive(s)
}

func cEngineU64(s *Source) uint64 {
	v := uint64(C.shakerand_engine_u64(s.eng))
	runtime.KeepAlive(s)
	return v
}

func cUUID4(s *Source) UUIDBytes {
	var u UUIDBytes
	C.shakerand_uuid4(s.eng, (*C.uint8_t)(unsafe.Pointer(&u[0])))
	runtime.KeepAlive(s)
	return u
}

func cUUIDFormat(u UUIDBytes) string {
	var t [C.SHAKERAND_UUID_STRING_SIZE]C.char
	C.shakerand_uuid_format((*C.uint8_t)(unsafe.Pointer(&u[0])), &t[0])
	return C.GoString(&t[0])
}

// cBelowBC1 is shakerand_below with RNG-BC-1 on the Source's engine.
func cBelowBC1(s *Source, r []byte) []byte {
	out := make([]byte, len(r))
	if C.shakerand_below(s.eng, C.SHAKERAND_RNG_BC_1, (*C.uint8_t)(unsafe.Pointer(&r[0])),
		C.size_t(len(r)), (*C.uint8_t)(unsafe.Pointer(&out[0])), nil) != C.SHAKERAND_OK {
		panic("shakerand_below failed")
	}
	runtime.KeepAlive(s)
	return out
}

func cKinds() []Kind {
	return []Kind{C.SHAKERAND_TURBOSHAKE256, C.SHAKERAND_SHAKE256, C.SHAKERAND_TURBOSHAKE256X8,
		C.SHAKERAND_CHACHA8RAND}
}

// cKernelName is shakerand_kernel_name(): the kernel set that runs (one
// table holds the Keccak and the ChaCha8 kernels), so the tests run under
// SHAKERAND_KERNEL can check that the one they asked for is the one used.
func cKernelName() string { return C.GoString(C.shakerand_kernel_name()) }

// cKernelSupported says whether this build has the kernel called name and
// the CPU runs it, by the same test the core's SHAKERAND_KERNEL uses.
func cKernelSupported(name string) bool {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.shakerand_kernel_find(cs) != nil
}
