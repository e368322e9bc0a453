// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && js && wasm

package shakerand

import (
	"syscall/js"
	"testing"
)

// A getRandomValues that writes a constant is refused, and the bytes it
// gave are not left in the caller's buffer; the real one is accepted.
func TestOSEntropyRefusesAStubGetRandomValues(t *testing.T) {
	crypto := js.Global().Get("crypto")
	real := crypto.Get("getRandomValues")
	stub := js.FuncOf(func(this js.Value, args []js.Value) any {
		args[0].Call("fill", 7)
		return args[0]
	})
	defer stub.Release()
	js.Global().Get("Object").Call("defineProperty", crypto, "getRandomValues",
		map[string]any{"value": stub, "configurable": true, "writable": true})
	b := make([]byte, 32)
	err := osEntropy(b)
	js.Global().Get("Object").Call("defineProperty", crypto, "getRandomValues",
		map[string]any{"value": real, "configurable": true, "writable": true})
	if err == nil {
		t.Fatal("a constant getRandomValues was accepted")
	}
	for _, v := range b {
		if v != 0 {
			t.Fatal("the stub's bytes were left in the buffer")
		}
	}
	if err := osEntropy(b); err != nil {
		t.Fatalf("the real getRandomValues: %v", err)
	}
}
