// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	crand "crypto/rand"
	"testing"
)

// The stubs a host may hand over instead of random bytes are refused, and
// real bytes are not (a false refusal has probability below 2^-42.9 a
// piece, so 20,000 pieces never see one).
func TestHostSeedHealthRefusesStubs(t *testing.T) {
	stub := func(fill func(b []byte)) []byte {
		b := make([]byte, 32)
		fill(b)
		return b
	}
	pattern := func(period int) func([]byte) {
		return func(b []byte) {
			for i := range b {
				b[i] = byte(i%period) * 13
			}
		}
	}
	refused := map[string][]byte{
		"nothing written": stub(func([]byte) {}),
		"a constant":      stub(func(b []byte) { fill(b, 0x5a) }),
		"the first byte":  stub(func(b []byte) { b[0] = 0xc3 }),
		"the last byte":   stub(func(b []byte) { b[31] = 0xc3 }),
		"17 values":       stub(pattern(17)),
		"16 bytes of 32":  stub(func(b []byte) { crand.Read(b[:16]) }),
	}
	for name, b := range refused {
		if hostSeedHealthy(b) {
			t.Errorf("%s: accepted", name)
		}
	}
	if !hostSeedHealthy(stub(pattern(18))) {
		t.Error("18 distinct values: refused")
	}
	// A good first piece does not vouch for a bad second one.
	two := make([]byte, 64)
	crand.Read(two[:32])
	if hostSeedHealthy(two) {
		t.Error("a zero second piece: accepted")
	}
	b := make([]byte, 32*20000)
	crand.Read(b)
	if !hostSeedHealthy(b) {
		t.Error("crypto/rand's bytes: refused")
	}
}

func fill(b []byte, v byte) {
	for i := range b {
		b[i] = v
	}
}
