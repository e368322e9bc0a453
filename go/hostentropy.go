// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import "errors"

// hostSeedMinDistinct is the fewest distinct byte values a host's 32
// seed bytes may hold (js/wasm/shakerand_wasm.c states the same rule and
// js/tools/seed-odds.py its figure): uniform bytes hold fewer with
// probability 1.149e-13, below 2^-42.9, while a stub or broken host
// (one that writes nothing, a constant, 16 bytes or fewer of the 32, or a
// short pattern) always does.
const hostSeedMinDistinct = 18

var errHostEntropy = errors.New("shakerand: the host's random bytes failed a health check (a stub or broken source)")

// hostSeedHealthy reports whether every whole 32-byte piece of b holds at
// least hostSeedMinDistinct distinct values. For the sources a host
// supplies and this package cannot read itself (a browser's or Node's
// crypto.getRandomValues, a WASI host's random_get). No branch or index
// depends on the bytes but the verdict.
func hostSeedHealthy(b []byte) bool {
	healthy := true
	for ; len(b) >= 32; b = b[32:] {
		distinct := 0
		for i := 0; i < 32; i++ {
			seen := 0
			for j := 0; j < i; j++ {
				seen |= int((uint(b[i]^b[j])-1)>>8) & 1
			}
			distinct += seen ^ 1
		}
		healthy = healthy && distinct >= hostSeedMinDistinct
	}
	return healthy
}
