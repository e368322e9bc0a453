// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && !amd64 && !arm64

package shakerand

import "time"

// No cycle counter read from Go here: the monotonic clock in nanoseconds
// since the package started, as the C core's jitter_clock falls back to
// CLOCK_MONOTONIC.
var jitterClockBase = time.Now()

func cycleCounter() uint64 { return uint64(time.Since(jitterClockBase)) }
