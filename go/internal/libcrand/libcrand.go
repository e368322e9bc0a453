// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !windows

// Package libcrand calls libc's arc4random_buf through cgo, for the
// benchmarks that re-make the "bad random" table (glibc 2.36+, the BSDs,
// macOS; not Windows, whose C runtimes have no arc4random_buf).
package libcrand

/*
#include <stdlib.h>
#include <stdint.h>

static uint64_t libcrand_u64(void)
{
    uint64_t v;
    arc4random_buf(&v, sizeof v);
    return v;
}
*/
import "C"

import "unsafe"

// Uint64 is one arc4random_buf call for 8 bytes.
func Uint64() uint64 { return uint64(C.libcrand_u64()) }

// Fill is one arc4random_buf call for all of b.
func Fill(b []byte) {
	if len(b) > 0 {
		C.arc4random_buf(unsafe.Pointer(&b[0]), C.size_t(len(b)))
	}
}
