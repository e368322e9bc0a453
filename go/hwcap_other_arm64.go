// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && !linux

package shakerand

// hwcap2RNG: only Linux's AT_HWCAP2 is read here; elsewhere (macOS's
// sysctl, FreeBSD's elf_aux_info, which the C core reads) the pure-Go
// build does not look, and uses no CPU source.
func hwcap2RNG() bool { return false }
