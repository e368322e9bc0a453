// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"time"

	"github.com/shakerand/shakerand/go/internal/purego"
)

// forceReseedForTest makes every seeded system state due for its time
// reseed, as if reseedInterval had passed, so the next draw from each reseeds
// (through the clock path). The returned function reports whether some
// state has been reseeded since.
func forceReseedForTest() (reseeded func() bool) {
	before := make([]purego.Engine, len(systemSlots))
	for i := range systemSlots {
		s := &systemSlots[i]
		s.mu.Lock()
		if st := &s.st; st.eng != nil {
			before[i] = st.eng
			st.monoStart = time.Now().Add(-reseedInterval)
			st.checked = st.drawn - clockCheckBytes
		}
		s.mu.Unlock()
	}
	return func() bool {
		for i := range systemSlots {
			s := &systemSlots[i]
			s.mu.Lock()
			changed := before[i] != nil && s.st.eng != nil && s.st.eng != before[i]
			s.mu.Unlock()
			if changed {
				return true
			}
		}
		return false
	}
}
