// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && ((unix && !linux && !darwin && !freebsd) || plan9)

package shakerand

import (
	"fmt"
	"io"
	"os"
	"runtime"
)

// osEntropy fills b from the kernel's random device, on the systems where
// this package does not call a system call of its own (the BSDs but
// FreeBSD, illumos and Solaris, AIX: /dev/urandom; Plan 9: /dev/random),
// each a generator that does not block once seeded. On Unix the file must
// be a character device: a regular file in its place is not a seed.
func osEntropy(b []byte) error {
	path := "/dev/urandom"
	if runtime.GOOS == "plan9" {
		path = "/dev/random"
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if runtime.GOOS != "plan9" {
		if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			return fmt.Errorf("%s is not a character device", path)
		}
	}
	_, err = io.ReadFull(f, b) // os.File retries EINTR and short reads
	return err
}
