// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && js && wasm

package shakerand

import "syscall/js"

// osEntropy fills b from the host's Web Crypto API,
// crypto.getRandomValues, at most 65,536 bytes a call (its limit). The
// JavaScript array is zeroed once copied. A host without it throws, which
// panics here; one whose bytes fail hostSeedHealthy (a stub) is an error.
func osEntropy(b []byte) error {
	crypto := js.Global().Get("crypto")
	all := b
	for len(b) > 0 {
		n := min(len(b), 65536)
		a := js.Global().Get("Uint8Array").New(n)
		crypto.Call("getRandomValues", a)
		js.CopyBytesToGo(b[:n], a)
		a.Call("fill", 0)
		b = b[n:]
	}
	if !hostSeedHealthy(all) {
		clear(all)
		return errHostEntropy
	}
	return nil
}
