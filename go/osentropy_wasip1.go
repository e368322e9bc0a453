// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && wasip1

package shakerand

import (
	"fmt"
	"unsafe"
)

// osEntropy fills b from the WASI host's random_get; bytes that fail
// hostSeedHealthy (a stub host) are an error.
func osEntropy(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if errno := randomGet(unsafe.Pointer(&b[0]), uint32(len(b))); errno != 0 {
		return fmt.Errorf("random_get: WASI errno %d", errno)
	}
	if !hostSeedHealthy(b) {
		clear(b)
		return errHostEntropy
	}
	return nil
}

//go:wasmimport wasi_snapshot_preview1 random_get
//go:noescape
func randomGet(buf unsafe.Pointer, bufLen uint32) uint32
