// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !purego

package purego

// asmKernel is this architecture's assembly kernel, which the tests call
// directly and compare with the portable one.
var asmKernel = chacha8IterationNEON
