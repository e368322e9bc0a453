// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !(amd64 || arm64)

package shakerand

import "encoding/binary"

// take8 returns the 8 bytes at w as a little-endian word and zeroes them.
func take8(w *[8]byte) uint64 {
	v := binary.LittleEndian.Uint64(w[:])
	*w = [8]byte{}
	return v
}
