// SPDX-License-Identifier: MIT OR Apache-2.0

package purego

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Kind is an engine kind; the values are the C enum shakerand_kind's.
type Kind int

const (
	TurboSHAKE256   Kind = 1
	SHAKE256        Kind = 2
	TurboSHAKE256x8 Kind = 3
	ChaCha8Rand     Kind = 4
)

// ChaCha8SeedSize is the length of a chacha8rand seed.
const ChaCha8SeedSize = 32

// Engine is one seeded engine: Fill gives the next bytes of its stream,
// Uint64 the next 8 read little-endian (the two interleave freely). Bytes
// handed out are zeroed in the engine as they go, and Wipe zeroes the rest;
// an Engine is not safe for concurrent use.
type Engine interface {
	Fill(p []byte)
	Uint64() uint64
	Wipe()
}

// ErrSeedLength is returned by New for a chacha8rand seed that is not 32
// bytes.
var ErrSeedLength = errors.New("a chacha8rand seed is exactly 32 bytes")

// New returns the engine of the given kind seeded with seed (any length,
// empty included, except chacha8rand's 32 bytes).
func New(kind Kind, seed []byte) (Engine, error) {
	switch kind {
	case TurboSHAKE256, SHAKE256:
		return newX1(kind, seed), nil
	case TurboSHAKE256x8:
		return newX8(seed), nil
	case ChaCha8Rand:
		if len(seed) != ChaCha8SeedSize {
			return nil, fmt.Errorf("%w, not %d", ErrSeedLength, len(seed))
		}
		return newChaCha8(seed), nil
	}
	return nil, fmt.Errorf("unknown engine kind %d", int(kind))
}

// buffered serves bytes from out[pos:end], zeroing them as it goes, and
// calls next to make more.
type buffered struct {
	out  []byte
	pos  int
	next func()
}

func (b *buffered) Fill(p []byte) {
	for len(p) > 0 {
		if b.pos == len(b.out) {
			b.next()
		}
		n := copy(p, b.out[b.pos:])
		clear(b.out[b.pos : b.pos+n])
		b.pos += n
		p = p[n:]
	}
}

func (b *buffered) Uint64() uint64 {
	if len(b.out)-b.pos >= 8 {
		w := b.out[b.pos : b.pos+8]
		v := binary.LittleEndian.Uint64(w)
		clear(w)
		b.pos += 8
		return v
	}
	var w [8]byte
	b.Fill(w[:])
	return binary.LittleEndian.Uint64(w[:])
}

// ---- turboshake256 and shake256 -----------------------------------------

const blocksPerPeriod = 8

// x1 squeezes the XOF in periods of 8 blocks, with the ratchet between
// periods (zero bytes 0..31, permute).
type x1 struct {
	buffered
	s     *sponge
	block int // blocks of the period handed out
}

func newX1(kind Kind, seed []byte) *x1 {
	rounds := 12
	if kind == SHAKE256 {
		rounds = 24
	}
	e := &x1{s: newSponge(rounds, 0x1F)}
	e.s.absorb(seed)
	e.s.finalize() // the first block is exposed
	e.out = e.s.buf[:]
	e.next = e.nextBlock
	return e
}

// nextBlock runs when the current block is handed out in full: the next
// block of the period, or the ratchet and the next period's first.
func (e *x1) nextBlock() {
	permute(&e.s.lanes, e.s.rounds)
	e.block++
	if e.block == blocksPerPeriod {
		e.s.lanes[0], e.s.lanes[1], e.s.lanes[2], e.s.lanes[3] = 0, 0, 0, 0
		permute(&e.s.lanes, e.s.rounds)
		e.block = 0
	}
	e.s.exposeRate()
	e.pos = 0
}

func (e *x1) Wipe() { e.s.wipe(); e.pos = len(e.out) }

// ---- turboshake256x8 ----------------------------------------------------

const (
	x8KeyDomain   = 0x20
	x8LaneDomain  = 0x21
	x8RefillBytes = 8 * Rate
	x8OutputBytes = x8RefillBytes - 32
)

type x8 struct {
	buffered
	refill [x8RefillBytes]byte
}

func newX8(seed []byte) *x8 {
	e := &x8{}
	TurboSHAKE256Sum(e.refill[x8OutputBytes:], seed, x8KeyDomain)
	e.out = e.refill[:x8OutputBytes]
	e.next = e.nextRefill
	e.nextRefill()
	return e
}

// nextRefill makes R_r from the key K_r in refill[1056:]: eight lanes
// TurboSHAKE256(K_r || j, 0x21)[0, 136), interleaved by 8-byte words.
func (e *x8) nextRefill() {
	var msg [33]byte
	copy(msg[:32], e.refill[x8OutputBytes:])
	var lanes [8][Rate]byte
	for j := range lanes {
		msg[32] = byte(j)
		TurboSHAKE256Sum(lanes[j][:], msg[:], x8LaneDomain)
	}
	for w := 0; w < Rate/8; w++ {
		for j := 0; j < 8; j++ {
			copy(e.refill[64*w+8*j:64*w+8*j+8], lanes[j][8*w:8*w+8])
		}
	}
	clear(msg[:])
	for j := range lanes {
		clear(lanes[j][:])
	}
	e.pos = 0
}

func (e *x8) Wipe() { clear(e.refill[:]); e.pos = len(e.out) }
