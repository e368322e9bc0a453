// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package shakerand

// The pure-Go build (CGO_ENABLED=0, the default of every cross-compile):
// the same API and the same seeded streams from go/internal/purego, and a
// system generator in Go. What differs from the cgo build (doc.go, "Two
// builds"): the OS is the only entropy source (crypto/rand), the engines
// run portable Go, and a program that forks without exec is not looked
// after (Go programs cannot, short of raw system calls).

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shakerand/shakerand/go/internal/purego"
)

// Pure says whether this is the pure-Go build (true: no cgo).
const Pure = true

type engine struct {
	e purego.Engine
}

func newEngine(kind Kind, seed []byte) *engine {
	checkSeed(kind, seed)
	e, err := purego.New(purego.Kind(kind), seed)
	if err != nil {
		panic("shakerand: " + err.Error())
	}
	return &engine{e: e}
}

func (e *engine) fill(b []byte) {
	if e.e == nil {
		panic("shakerand: use of a freed engine") // fail closed, as the C core does
	}
	e.e.Fill(b)
}

// free wipes the engine and disables it: a later use panics instead of
// producing the stream of a known (zero) key.
func (e *engine) free() {
	e.e.Wipe()
	e.e = nil
}

// The system generator: the C core's policy in Go. Each state is one
// engine of systemKind() keyed from the operating system, reseeded after
// 16 MiB of output or 60 seconds; states are handed out by a sync.Pool, one
// goroutine at a time (the per-P buffers in front of it take one 2 KiB
// fill at a time).
const (
	reseedBytes     = 16 << 20
	reseedInterval  = 60 * time.Second
	maxPiece        = 1 << 20
	seedDomain      = 0x22 // TurboSHAKE256 domain bytes, as the C core's
	chachaKeyDomain = 0x24
)

type systemState struct {
	eng      purego.Engine
	drawn    int
	deadline time.Time
}

var (
	seedCounter atomic.Uint64
	systemPool  = sync.Pool{New: func() any { s := &systemState{}; s.reseed(); return s }}
)

// reseed keys the state afresh: material = TurboSHAKE256(32 bytes of
// crypto/rand || a counter, D = 0x22)[0, 64); a chacha8rand key is
// TurboSHAKE256(material, D = 0x24)[0, 32), a turboshake256x8 engine takes
// the material as its seed. crypto/rand.Read never fails (the program
// crashes if the operating system gives nothing).
func (s *systemState) reseed() {
	var in [40]byte
	_, _ = rand.Read(in[:32])
	binary.LittleEndian.PutUint64(in[32:], seedCounter.Add(1))
	var material [64]byte
	purego.TurboSHAKE256Sum(material[:], in[:], seedDomain)
	kind := systemKind()
	var err error
	if kind == ChaCha8Rand {
		var key [32]byte
		purego.TurboSHAKE256Sum(key[:], material[:], chachaKeyDomain)
		s.eng, err = purego.New(purego.ChaCha8Rand, key[:])
		clear(key[:])
	} else {
		s.eng, err = purego.New(purego.Kind(kind), material[:])
	}
	clear(in[:])
	clear(material[:])
	if err != nil {
		panic("shakerand: " + err.Error())
	}
	s.drawn = 0
	s.deadline = time.Now().Add(reseedInterval)
}

type systemFiller struct{}

func (systemFiller) fill(b []byte) { systemFill(b) }

func systemFill(b []byte) {
	s := systemPool.Get().(*systemState)
	for len(b) > 0 {
		piece := min(len(b), maxPiece)
		if s.drawn+piece > reseedBytes || time.Now().After(s.deadline) {
			s.reseed()
		}
		s.eng.Fill(b[:piece])
		s.drawn += piece
		b = b[piece:]
	}
	systemPool.Put(s)
}

var systemKindOnce = sync.OnceValue(func() Kind {
	switch v := os.Getenv("SHAKERAND_SYSTEM_ENGINE"); v {
	case "", "chacha8rand":
		return ChaCha8Rand
	case "turboshake256x8":
		return TurboSHAKE256x8
	default:
		fmt.Fprintf(os.Stderr, "shakerand: SHAKERAND_SYSTEM_ENGINE=%q is not chacha8rand or turboshake256x8; ignored\n", v)
		return ChaCha8Rand
	}
})

func systemKind() Kind { return systemKindOnce() }

// uuid7 keeps version 7 UUIDs increasing within the process, as the C
// library's shakerand_uuid7 (RFC 9562 section 6.2, method 1, a 42-bit
// counter): a new millisecond starts the counter at a random value with
// its top bit clear; within one it increments; on overflow, or a clock
// that stalls or steps back, the timestamp moves on.
var v7 struct {
	sync.Mutex
	lastMS, counter uint64
}

func uuid7(u *UUID) {
	var random [12]byte
	readSmall(random[:])
	fresh := binary.BigEndian.Uint64(random[:8]) & (1<<41 - 1)
	now := uint64(time.Now().UnixMilli()) & (1<<48 - 1)
	v7.Lock()
	if now > v7.lastMS {
		v7.lastMS, v7.counter = now, fresh
	} else if v7.counter++; v7.counter>>42 != 0 {
		v7.lastMS++
		v7.counter = fresh
	}
	ms, c := v7.lastMS, v7.counter
	v7.Unlock()
	for i := 0; i < 6; i++ {
		u[i] = byte(ms >> (40 - 8*i))
	}
	u[6] = byte(0x70 | (c>>38)&0x0F)
	u[7] = byte(c >> 30)
	u[8] = byte(0x80 | (c>>24)&0x3F)
	u[9] = byte(c >> 16)
	u[10] = byte(c >> 8)
	u[11] = byte(c)
	copy(u[12:], random[8:])
	clear(random[:])
}

// Kernel returns "purego" in this build (the cgo build names the C core's
// kernel set).
func Kernel() string { return "purego" }
