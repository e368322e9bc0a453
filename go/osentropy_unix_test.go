// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && (linux || darwin || freebsd)

package shakerand

import (
	"errors"
	"syscall"
	"testing"
)

// fillFrom asks again after a short read and after EINTR, gives up after
// 64 EINTRs in a row, and fails on an error or a call that returns nothing.
func TestFillFrom(t *testing.T) {
	b := make([]byte, 100)
	calls, eintrs := 0, 0
	err := fillFrom(b, 30, "test", func(p []byte) (int, error) {
		calls++
		if len(p) > 30 {
			t.Fatalf("asked for %d bytes, more than the piece", len(p))
		}
		if calls%3 == 0 && eintrs < 10 {
			eintrs++
			return 0, syscall.EINTR
		}
		k := min(len(p), 7) // a short read each time
		for i := range p[:k] {
			p[i] = 1
		}
		return k, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range b {
		if c != 1 {
			t.Fatalf("byte %d not filled", i)
		}
	}
	n := 0
	err = fillFrom(b, 30, "test", func([]byte) (int, error) { n++; return 0, syscall.EINTR })
	if err == nil || n != maxInterrupted {
		t.Fatalf("%d EINTRs in a row: %v", n, err)
	}
	if err := fillFrom(b, 30, "test", func([]byte) (int, error) { return 0, syscall.EIO }); !errors.Is(err, syscall.EIO) {
		t.Fatalf("EIO: %v", err)
	}
	if err := fillFrom(b, 30, "test", func([]byte) (int, error) { return 0, nil }); err == nil {
		t.Fatal("a call that returned nothing was accepted")
	}
}
