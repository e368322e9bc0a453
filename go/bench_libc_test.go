// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo && !windows

package shakerand_test

// The "bad random" benchmark's libc sources (through cgo, so in the cgo
// build only; Windows' C runtimes have no arc4random_buf).

import (
	"encoding/binary"
	"testing"

	"github.com/shakerand/shakerand/go/internal/libcrand"
)

type libcSource struct{}

func (libcSource) Seed(int64)   { panic("not seedable") }
func (libcSource) Int63() int64 { return int64(libcrand.Uint64() & mask63) }

type libcBufSource struct {
	buf [256 * 8]byte
	n   int
}

func (*libcBufSource) Seed(int64) { panic("not seedable") }
func (s *libcBufSource) Int63() int64 {
	if s.n == 0 {
		libcrand.Fill(s.buf[:])
		s.n = len(s.buf)
	}
	s.n -= 8
	return int64(binary.LittleEndian.Uint64(s.buf[s.n:]) & mask63)
}

func BenchmarkLibcRand(b *testing.B)    { benchInt63(b, libcSource{}) }
func BenchmarkLibcBufRand(b *testing.B) { benchInt63(b, &libcBufSource{}) }
