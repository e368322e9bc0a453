// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import "sync"

// The streams over the system generator that the per-P slots
// (buffers_perp.go) fall back on, and that the race build uses alone.
var streamPool = sync.Pool{New: func() any { return newStream(systemFiller{}) }}

// getStream returns a pooled stream, emptied if it was filled in an
// earlier epoch (NewEpoch) or, in a child made by fork, by the parent
// (noticeFork, fork.go).
func getStream() *stream {
	noticeFork()
	return ofThisEpoch(streamPool.Get().(*stream))
}
func putStream(s *stream) { streamPool.Put(s) }

// ofThisEpoch empties b (it refills before its next byte) if it was filled
// before the system generator's epoch moved.
func ofThisEpoch(b *stream) *stream {
	if !b.current() {
		b.wipe()
	}
	return b
}
