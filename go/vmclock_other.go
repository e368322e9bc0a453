// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !linux && !cgo

package shakerand

// Only Linux has a vmclock device (vmclock_linux.go): nothing is watched.

const vmclockDevice = ""

func mapVMClock(string, bool) *uint64 { return nil }

func vmGenerationRead(*uint64) uint64 { return 0 }
