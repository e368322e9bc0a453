// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

import (
	"encoding/binary"
	"sync"
)

// The CPU's random instructions for the pure-Go build, mixed into every
// seed as the C core mixes them (src/entropy/conditioner.c, whose rules
// these are): RDSEED then RDRAND on amd64 (hwentropy_amd64.go), RNDRRS then
// RNDR on arm64 where the kernel says the CPU has them
// (hwentropy_arm64.go); none elsewhere. Their words are hashed with the
// operating system's bytes, never used alone: a source that is absent,
// broken or dishonest leaves the seed as strong as the OS bytes make it.
// Each is detected by what the CPU or the kernel reports (CPUID,
// AT_HWCAP2), never by trying the instruction.

// hwSource is one instruction: present says whether the CPU has it, read
// returns a word within the source's retry budget, or false.
type hwSource struct {
	name    string
	present func() bool
	read    func() (uint64, bool)
}

// hwHealthWords are read by the start-up health check; hwSeedWords from
// each source in use are absorbed per seed (the policy's hw_seed_bytes).
const (
	hwSeedBytes   = 32
	hwSeedWords   = hwSeedBytes / 8
	hwHealthWords = 8
)

var (
	hwMu      sync.Mutex
	hwChecked bool
	hwUsed    []bool   // by index into hwSources, once checked
	hwReason  []string // why a source is not used ("" if it is)
)

// hwHealthy is the start-up health check: hwHealthWords reads that all
// succeed, none all-zeros or all-ones (AMD's RDRAND returned all-ones
// after a resume on some microcode) and no value repeated (a stuck
// source).
func hwHealthy(src hwSource) string {
	if !src.present() {
		return "not supported by this CPU"
	}
	var v [hwHealthWords]uint64
	defer clear(v[:])
	for k := range v {
		w, ok := src.read()
		if !ok {
			return "failed the start-up health check: no value within the retry budget"
		}
		if w == 0 || w == ^uint64(0) {
			return "failed the start-up health check: returned all-zeros or all-ones"
		}
		for j := 0; j < k; j++ {
			if v[j] == w {
				return "failed the start-up health check: repeated a value"
			}
		}
		v[k] = w
	}
	return ""
}

// hwInUse returns the indices of the sources that passed the health check,
// which runs once, at the first seed.
func hwInUse() []int {
	hwMu.Lock()
	defer hwMu.Unlock()
	if !hwChecked {
		hwUsed = make([]bool, len(hwSources))
		hwReason = make([]string, len(hwSources))
		for i, src := range hwSources {
			hwReason[i] = hwHealthy(src)
			hwUsed[i] = hwReason[i] == ""
		}
		hwChecked = true
	}
	var used []int
	for i, u := range hwUsed {
		if u {
			used = append(used, i)
		}
	}
	return used
}

// hwRuntimeCheck finds a source broken after its start-up check: a word
// all-zeros, all-ones or a repeat of the one before.
func hwRuntimeCheck(w []uint64) string {
	for i, x := range w {
		if x == 0 || x == ^uint64(0) {
			return "failed a check at seed time: returned all-zeros or all-ones"
		}
		if i > 0 && x == w[i-1] {
			return "failed a check at seed time: repeated a value"
		}
	}
	return ""
}

// hwAppend appends to msg, little-endian, up to hwSeedWords from each
// source in use, in table order, as the C core absorbs them. A source that
// stops answering gives the words it gave (the OS bytes carry the seed on
// their own); one that fails the check at seed time gives none and is
// dropped for good.
func hwAppend(msg []byte) []byte {
	for _, i := range hwInUse() {
		var w [hwSeedWords]uint64
		got := 0
		for got < hwSeedWords {
			x, ok := hwSources[i].read()
			if !ok {
				break
			}
			w[got] = x
			got++
		}
		if broken := hwRuntimeCheck(w[:got]); broken != "" {
			hwMu.Lock()
			hwUsed[i], hwReason[i] = false, broken
			hwMu.Unlock()
		} else {
			for _, x := range w[:got] {
				msg = binary.LittleEndian.AppendUint64(msg, x)
			}
		}
		clear(w[:])
	}
	return msg
}
