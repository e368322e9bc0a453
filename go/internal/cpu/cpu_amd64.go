// SPDX-License-Identifier: MIT OR Apache-2.0

package cpu

// CPUID runs the instruction for leaf (EAX) and sub-leaf (ECX) and returns
// EAX, EBX, ECX and EDX (cpu_amd64.s).
func CPUID(leaf, sub uint32) (a, b, c, d uint32)

// XGETBV0 returns XCR0, the register states the operating system saves
// across context switches, as its low and high halves. Call it only where
// CPUID.1:ECX has OSXSAVE (bit 27).
func XGETBV0() (lo, hi uint32)
