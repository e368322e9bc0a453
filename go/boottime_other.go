// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo && !linux && !darwin && !windows

package shakerand

import "time"

// bootClock: no clock here is known to count time suspended (FreeBSD's
// clock_gettime(2) says its uptime clocks count "while the machine is
// running" and says nothing either way of CLOCK_MONOTONIC), so the reseed
// goes by the runtime's monotonic clock (time.Now) alone, which may stop
// while the machine is suspended: after a suspend the time budget may run
// late by the time asleep; the byte budget is unchanged.
func bootClock() (time.Duration, bool) { return 0, false }
