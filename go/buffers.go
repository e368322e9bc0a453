// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import "sync"

// The streams over the system generator that the per-P slots
// (buffers_perp.go) fall back on, and that the race build uses alone.
var streamPool = sync.Pool{New: func() any { return newStream(systemFiller{}) }}

func getStream() *stream  { return streamPool.Get().(*stream) }
func putStream(s *stream) { streamPool.Put(s) }
