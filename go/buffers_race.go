// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build race

package shakerand

// Under the race detector the per-P slots (buffers_perp.go) are not used: the
// detector cannot see the ordering that pinning gives, so sync.Pool, which
// the detector understands, hands out the buffers.

func acquire() *stream  { return getStream() }
func release(b *stream) { putStream(b) }

// Uint64 returns a uniformly distributed 64-bit value.
func Uint64() uint64 { return uint64Slow() }

func fastRead([]byte) bool { return false }

// currentP has no P to report here (pinning is what the race build avoids):
// every caller gets the hint 0.
func currentP() int { return 0 }

// slotsBytes: no slots in fork.go's area, only its guard word.
func slotsBytes() int { return 0 }

func slotsForTest() []struct{} { return nil }

// heldForTest returns a copy of the bytes the pool's next stream would hand
// out next (the one Uint64 just put back, on one P).
func heldForTest() []byte {
	p := acquire()
	held := append([]byte(nil), p.buf[p.pos:]...)
	release(p)
	return held
}
