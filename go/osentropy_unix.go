// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && (linux || darwin || freebsd)

package shakerand

import (
	"errors"
	"fmt"
	"syscall"
)

// The OS sources are reached through the standard library's syscall
// package, not golang.org/x/sys: the module then needs nothing beyond the
// standard library, and a few system-call numbers and one C library
// trampoline (osentropy_darwin.s) are all that costs.

// maxInterrupted is how many EINTRs in a row a read of the OS source takes
// before it counts as failed, as in the C core: a seccomp filter can make
// a call fail with EINTR for ever.
const maxInterrupted = 64

// fillFrom fills b by calls of read with at most piece bytes each, until
// b is full: a short read asks again for the rest, EINTR retries.
func fillFrom(b []byte, piece int, name string, read func([]byte) (int, error)) error {
	interrupted := 0
	for len(b) > 0 {
		n, err := read(b[:min(len(b), piece)])
		switch {
		case errors.Is(err, syscall.EINTR):
			if interrupted++; interrupted == maxInterrupted {
				return fmt.Errorf("%s: interrupted %d times in a row", name, maxInterrupted)
			}
			continue
		case err != nil:
			return fmt.Errorf("%s: %w", name, err)
		case n <= 0 || n > len(b):
			return fmt.Errorf("%s returned %d", name, n)
		}
		interrupted = 0
		b = b[n:]
	}
	return nil
}
