// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && !amd64 && !arm64

package shakerand

// No CPU source on this architecture in the pure-Go build (the C core's
// DARN on ppc64le has no counterpart here).
var hwSources []hwSource
