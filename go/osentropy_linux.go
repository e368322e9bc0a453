// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// osEntropy fills b from the kernel: getrandom(2) with no flags, which
// waits until the kernel's generator is seeded (once, at boot) and then
// never blocks. A kernel without getrandom (before 3.17; ENOSYS) gets
// /dev/urandom, as in the C core, and only if it is the kernel's random
// device, character device 1:9: a file put in its place is not a seed.
func osEntropy(b []byte) error {
	trap := getrandomTrap()
	err := fillFrom(b, math.MaxInt32, "getrandom", func(p []byte) (int, error) {
		if trap == 0 {
			return 0, syscall.ENOSYS
		}
		n, _, errno := syscall.Syscall(trap, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), 0)
		if errno != 0 {
			return 0, errno
		}
		return int(n), nil
	})
	if errors.Is(err, syscall.ENOSYS) {
		return devURandom(b)
	}
	return err
}

// getrandomTrap is getrandom's system-call number (the standard library's
// syscall package predates it on most architectures), 0 where unknown.
func getrandomTrap() uintptr {
	switch runtime.GOARCH {
	case "386":
		return 355
	case "amd64":
		return 318
	case "arm":
		return 384
	case "arm64", "loong64", "riscv64":
		return 278
	case "mips", "mipsle":
		return 4353
	case "mips64", "mips64le":
		return 5313
	case "ppc64", "ppc64le":
		return 359
	case "s390x":
		return 349
	}
	return 0
}

// linuxURandomDev is makedev(1, 9), /dev/urandom's device number.
const linuxURandomDev = 1<<8 | 9

func devURandom(b []byte) error {
	f, err := os.Open("/dev/urandom")
	if err != nil {
		return fmt.Errorf("getrandom is missing and %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("getrandom is missing and %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || fi.Mode()&os.ModeCharDevice == 0 || uint64(st.Rdev) != linuxURandomDev {
		return errors.New("getrandom is missing and /dev/urandom is not the kernel's random device (1:9)")
	}
	if _, err := io.ReadFull(f, b); err != nil { // os.File retries EINTR and short reads
		return fmt.Errorf("getrandom is missing and /dev/urandom: %w", err)
	}
	return nil
}
