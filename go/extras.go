// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

/*
#include "shakerand.h"
*/
import "C"

import (
	"encoding/binary"
	"math/big"
	"unsafe"
)

// Int returns a uniform value in [0, max) from the system generator by
// RNG-BC-1 (the Optimized Simple Discard Method, docs/samplers.md), in one
// cgo call. It panics if max <= 0, like crypto/rand.Int.
func Int(max *big.Int) *big.Int {
	if max.Sign() <= 0 {
		panic("shakerand: argument to Int is <= 0")
	}
	r := max.Bytes()
	out := make([]byte, len(r))
	rc := C.shakerand_below(nil, C.SHAKERAND_RNG_BC_1, (*C.uint8_t)(unsafe.Pointer(&r[0])),
		C.size_t(len(r)), (*C.uint8_t)(unsafe.Pointer(&out[0])), nil)
	if rc != C.SHAKERAND_OK {
		panic("shakerand: shakerand_below failed")
	}
	n := new(big.Int).SetBytes(out)
	clear(out)
	return n
}

// UUIDBytes is a UUID (RFC 9562), 16 bytes in network order. (The type
// cannot be called UUID: that is the function that makes one.)
type UUIDBytes [16]byte

// hexDigit maps 0..15 to '0'..'9', 'a'..'f' with arithmetic, not a table
// lookup, so the digit's value decides no memory address.
func hexDigit(v byte) byte {
	// mask is 0xFF when v > 9, else 0.
	mask := byte(int32(9-int32(v)) >> 8)
	return '0' + v + (mask & ('a' - '0' - 10))
}

// String returns the canonical form, 36 characters in lower case.
func (u UUIDBytes) String() string {
	var t [36]byte
	j := 0
	for i, b := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			t[j] = '-'
			j++
		}
		t[j] = hexDigit(b >> 4)
		t[j+1] = hexDigit(b & 15)
		j += 2
	}
	return string(t[:])
}

// UUID returns a version 4 UUID: 16 bytes of the system generator with the
// version and variant bits set, as the C function shakerand_uuid4.
func UUID() UUIDBytes {
	var u UUIDBytes
	if !fastRead(u[:]) {
		p := acquire()
		p.read(u[:])
		release(p)
	}
	// The version and variant bits set in two words rather than two bytes:
	// measured 1-4 ns faster here (byte stores just before the 16-byte copy
	// that returns u are the likely cost: a wide load over narrow stores
	// defeats store forwarding).
	a := binary.LittleEndian.Uint64(u[:8])
	b := binary.LittleEndian.Uint64(u[8:])
	a = a&^(0xF0<<48) | 0x40<<48 // byte 6: version 4
	b = b&^0xC0 | 0x80           // byte 8: variant 10
	binary.LittleEndian.PutUint64(u[:8], a)
	binary.LittleEndian.PutUint64(u[8:], b)
	return u
}

// UUIDv7 returns a version 7 UUID (48-bit Unix milliseconds, a 42-bit
// counter, 32 random bits) from the C library, which keeps them increasing
// within the process, across goroutines and threads.
func UUIDv7() UUIDBytes {
	var u UUIDBytes
	C.shakerand_uuid7(nil, (*C.uint8_t)(unsafe.Pointer(&u[0])))
	return u
}

// Text returns 26 characters of the standard base32 alphabet (A-Z, 2-7),
// 130 random bits, like crypto/rand.Text.
func Text() string {
	var b [26]byte
	if !fastRead(b[:]) {
		p := acquire()
		p.read(b[:])
		release(p)
	}
	for i, v := range b {
		v &= 31
		// 'A'+v for v < 26, '2'+(v-26) above: arithmetic, no table index.
		mask := byte(int32(25-int32(v)) >> 8)
		b[i] = 'A' + v + (mask & byte('2'-'A'-26+256))
	}
	s := string(b[:])
	clear(b[:])
	return s
}
