// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build windows || js || wasip1

package shakerand

// No fork on these systems: a process never starts as a copy of another
// (fork.go).
func mapWipedOnFork(int) ([]byte, forkDefence) { return nil, forkNone }

func processID() int64 { return 0 }
