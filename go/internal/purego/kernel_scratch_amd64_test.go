// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build amd64 && !purego

package purego

import (
	"encoding/binary"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// The AVX2 kernel parks row 15 of blocks 8-15 in out[736:768] while it
// finishes; its last value's upper lanes are K_{r+1}[4:8], the half of the
// next key that chacha8.Fill says never reaches the caller's memory. Another
// goroutine (or process sharing the pages) reading out sees it.
func TestKernelKeepsTheNextKeyOutOfTheOutput(t *testing.T) {
	if !cpuHasAsm || runtime.NumCPU() < 2 {
		t.Skip()
	}
	var k0 [8]uint32
	for i := range k0 {
		k0[i] = 0x01234567 * uint32(i+3)
	}
	next := k0
	var ref [chacha8OutputBytes]byte
	chacha8IterationGeneric(&next, &ref)
	want0 := uint64(next[4]) | uint64(next[5])<<32
	want1 := uint64(next[6]) | uint64(next[7])<<32
	if binary.LittleEndian.Uint64(ref[752:]) == want0 {
		t.Fatal("coincidence")
	}
	out := new([chacha8OutputBytes]byte)
	w0 := (*uint64)(unsafe.Pointer(&out[752]))
	w1 := (*uint64)(unsafe.Pointer(&out[760]))
	var stop atomic.Bool
	go func() {
		for !stop.Load() {
			key := k0
			asmKernel(&key, out)
		}
	}()
	seen := 0
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) && seen == 0 {
		for i := 0; i < 1e5; i++ {
			if atomic.LoadUint64(w0) == want0 && atomic.LoadUint64(w1) == want1 {
				seen++
				break
			}
		}
	}
	stop.Store(true)
	if seen > 0 {
		t.Errorf("K_{r+1}[4:8] seen in the caller's output buffer while the kernel ran")
	}
}
