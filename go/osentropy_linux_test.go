// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"bytes"
	"testing"
)

// The fall-back for kernels without getrandom.
func TestDevURandom(t *testing.T) {
	a, b := make([]byte, 64), make([]byte, 64)
	if err := devURandom(a); err != nil {
		t.Skipf("/dev/urandom: %v", err) // a container may not have it
	}
	if err := devURandom(b); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, b) {
		t.Fatal("/dev/urandom repeated itself")
	}
}
