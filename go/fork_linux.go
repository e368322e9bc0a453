// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import "syscall"

// madvWipeOnFork is Linux's MADV_WIPEONFORK (4.14): a child gets the range
// zeroed, whatever made it (fork, a raw fork or clone system call).
const madvWipeOnFork = 18

// mapWipedOnFork maps size bytes of private anonymous memory marked
// MADV_WIPEONFORK (fork.go); nil if either call fails (a kernel before
// 4.14 refuses the advice with EINVAL).
func mapWipedOnFork(size int) ([]byte, forkDefence) {
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, forkPidNoMap
	}
	if syscall.Madvise(b, madvWipeOnFork) != nil {
		syscall.Munmap(b)
		return nil, forkPidRefused
	}
	return b, forkWiped
}

func processID() int64 { return int64(syscall.Getpid()) }
