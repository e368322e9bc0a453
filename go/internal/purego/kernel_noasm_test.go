// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !(amd64 || arm64) || purego

package purego

// No assembly kernel in this build.
var asmKernel func(key *[8]uint32, out *[chacha8OutputBytes]byte)
