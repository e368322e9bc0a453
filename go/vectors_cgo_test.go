// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package shakerand

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The Go RNG-BC-1 (bigint.go) against the C library's on the same engine:
// the same values and the same stream consumed, for bounds from 1 bit to
// 1024 and every kind.
func TestBigIntNEqualsC(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range kinds() {
		for i := 0; i < 150; i++ {
			bitsN := 1 + r.IntN(1024)
			if i < 8 {
				bitsN = []int{1, 2, 63, 64, 65, 448, 449, 512}[i]
			}
			raw := make([]byte, (bitsN+7)/8)
			for j := range raw {
				raw[j] = byte(r.Uint32())
			}
			max := new(big.Int).SetBytes(raw)
			max.Rsh(max, uint(8*len(raw)-bitsN))
			max.SetBit(max, bitsN-1, 1)
			seed := make([]byte, 32)
			for j := range seed {
				seed[j] = byte(r.Uint32())
			}
			goSrc, cSrc := NewSeeded(k, seed), NewSeeded(k, seed)
			for n := 0; n < 3; n++ {
				g := goSrc.BigIntN(max)
				c := new(big.Int).SetBytes(cBelowBC1(cSrc, max.Bytes()))
				if g.Cmp(c) != 0 {
					t.Fatalf("%s, %d-bit max, draw %d: Go %x, C %x", k, bitsN, n, g, c)
				}
			}
			// Both consumed the same stream.
			a, b := make([]byte, 16), make([]byte, 16)
			goSrc.Read(a)
			cEngineFill(cSrc, b)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s, %d-bit max: the streams part after BigIntN", k, bitsN)
			}
		}
	}
}
