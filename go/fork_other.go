// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !linux && !windows && !js && !wasip1

package shakerand

import "syscall"

// These systems fork but give Go no way to have a page zeroed in a child
// that is also tested here (FreeBSD's minherit INHERIT_ZERO, which the C
// core uses, is not called from Go): the pid is compared (fork.go).
func mapWipedOnFork(int) ([]byte, forkDefence) { return nil, forkPidNoWipe }

func processID() int64 { return int64(syscall.Getpid()) }
