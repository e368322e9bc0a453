// SPDX-License-Identifier: MIT OR Apache-2.0

// Package cpu asks the CPU what it has, for the two packages that need it:
// the pure-Go build's hardware sources (RDRAND and RDSEED, in the shakerand
// package) and internal/purego's AVX2 kernel. It is built in every build,
// with or without cgo and the purego tag, so neither of those packages'
// build tags decides whether the other can ask.
package cpu
