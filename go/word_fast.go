// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build amd64 || arm64

package shakerand

import "unsafe"

// take8 returns the 8 bytes at w as a little-endian word and zeroes them:
// one load and one store, as these architectures are little-endian and
// allow unaligned access.
func take8(w *[8]byte) uint64 {
	p := (*uint64)(unsafe.Pointer(w))
	v := *p
	*p = 0
	return v
}
