// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"encoding/binary"
	"fmt"
	"math/big"
)

// The tests' oracles in the pure-Go build, where there is no C library to
// compare with: the engine read directly (bypassing the Source's buffer,
// so call them on a fresh Source only), the samplers written out again as
// their C definitions state them, and an independent UUID formatting. The
// shared vectors remain the outside oracle of this build. Test-only.

func pureEngine(s *Source) *engine { return s.st.src.(*engine) }

func cEngineFill(s *Source, b []byte) { pureEngine(s).fill(b) }

func cEngineU64(s *Source) uint64 {
	var w [8]byte
	pureEngine(s).fill(w[:])
	return binary.LittleEndian.Uint64(w[:])
}

// cUniformU64: the high word of w * n, drawing again while the low word is
// below 2^64 mod n.
func cUniformU64(s *Source, n uint64) uint64 {
	limit := new(big.Int).Mod(new(big.Int).Lsh(big.NewInt(1), 64), new(big.Int).SetUint64(n))
	for {
		p := new(big.Int).Mul(new(big.Int).SetUint64(cEngineU64(s)), new(big.Int).SetUint64(n))
		lo := new(big.Int).And(p, new(big.Int).SetUint64(^uint64(0)))
		if lo.Cmp(limit) >= 0 {
			return new(big.Int).Rsh(p, 64).Uint64()
		}
	}
}

func cDouble(s *Source) float64 { return float64(cEngineU64(s)>>11) / (1 << 53) }

func cUUID4(s *Source) UUID {
	var u UUID
	pureEngine(s).fill(u[:])
	u[6] = u[6]&0x0F | 0x40
	u[8] = u[8]&0x3F | 0x80
	return u
}

func cUUIDFormat(u UUID) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

func cKernelSupported(name string) bool { return name == "purego" }
