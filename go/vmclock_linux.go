// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"encoding/binary"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// The hypervisor's VM generation word for the pure-Go build, as the C core
// finds it (src/system_os_vmclock.c, which says why each word): Linux's
// vmclock device, a page laid out as the kernel's struct vmclock_abi
// (include/uapi/linux/vmclock-abi.h). Its vm_generation_counter where the
// flags say the hypervisor keeps it, else its disruption_marker, which a
// restore also moves (QEMU 10 and 11 keep no counter).

// Offsets and values of struct vmclock_abi (little-endian).
const (
	vmclockDevice        = "/dev/vmclock0"
	vmclockMagic         = 0x4b4c4356 // "VCLK"
	vmclockSizeOffset    = 4          // u32: the region's size
	vmclockVersionOffset = 8          // u16: 1
	vmclockSeqOffset     = 12         // u32: odd while the hypervisor writes
	vmclockDisruptionOff = 16         // u64
	vmclockFlagsOffset   = 24         // u64
	vmclockVMGenOffset   = 104        // u64
	vmclockABIBytes      = 112        // the structure up to vm_generation_counter
	vmclockFlagVMGenKept = 1 << 8     // VMCLOCK_FLAG_VM_GEN_COUNTER_PRESENT
	vmclockSeqTries      = 1 << 12    // a hypervisor's write takes far fewer reads
)

// mapVMClock maps the page at path read-only and returns its watched word,
// or nil if it is not such a page. The device must be a character device;
// a regular file stands in for it in the tests only (device false), and
// must hold the whole structure. The mapping is never undone: the word's
// address is kept for the life of the process.
func mapVMClock(path string, device bool) *uint64 {
	// O_NONBLOCK: whatever lies at the path, opening it never waits.
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	var st syscall.Stat_t
	kind := uint32(syscall.S_IFREG)
	if device {
		kind = syscall.S_IFCHR
	}
	page := os.Getpagesize()
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != kind ||
		!device && st.Size < vmclockABIBytes {
		syscall.Close(fd)
		return nil
	}
	p, err := syscall.Mmap(fd, 0, page, syscall.PROT_READ, syscall.MAP_SHARED)
	syscall.Close(fd)
	if err != nil {
		return nil
	}
	if binary.LittleEndian.Uint32(p) != vmclockMagic ||
		binary.LittleEndian.Uint32(p[vmclockSizeOffset:]) < vmclockABIBytes ||
		binary.LittleEndian.Uint16(p[vmclockVersionOffset:]) != 1 {
		syscall.Munmap(p)
		return nil
	}
	off := vmclockDisruptionOff
	if binary.LittleEndian.Uint64(p[vmclockFlagsOffset:])&vmclockFlagVMGenKept != 0 {
		off = vmclockVMGenOffset
	}
	return (*uint64)(unsafe.Pointer(&p[off])) // 8-byte aligned: the page is
}

// seqLowBit is the bit of a native load of the little-endian sequence count
// that says it is odd (the words themselves are only compared, so their
// byte order does not matter).
var seqLowBit = binary.NativeEndian.Uint32([]byte{1, 0, 0, 0})

// vmGenerationRead reads the word w under the page's sequence count, so the
// value is one the hypervisor finished writing; the zero word (none
// watched) is 0. A count left odd (a stuck or hostile hypervisor) ends the
// wait after vmclockSeqTries reads: the value then read is returned, and
// the draws compare against it like any other.
func vmGenerationRead(w *uint64) uint64 {
	if w == &zeroWord {
		return 0
	}
	// Either word lies in the page's first bytes, mapped at a page's start.
	inPage := int(uintptr(unsafe.Pointer(w)) & uintptr(os.Getpagesize()-1))
	seq := (*uint32)(unsafe.Add(unsafe.Pointer(w), vmclockSeqOffset-inPage))
	v := atomic.LoadUint64(w)
	for range vmclockSeqTries {
		before := atomic.LoadUint32(seq) // Go's atomics are ordered: seq, word, seq
		v = atomic.LoadUint64(w)
		if before&seqLowBit == 0 && atomic.LoadUint32(seq) == before {
			break
		}
	}
	return v
}
