// SPDX-License-Identifier: MIT OR Apache-2.0

package purego

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Engine is one seeded engine: Fill gives the next bytes of its stream,
// Uint64 the next 8 read little-endian (the two interleave freely). Bytes
// handed out are zeroed in the engine as they go, and Wipe zeroes the rest;
// an Engine is not safe for concurrent use.
type Engine interface {
	Fill(p []byte)
	Uint64() uint64
	Wipe()
}

// KindRow is one engine kind this package implements, with what the C
// core's table (src/engine.c kind_rows) says of it. Kinds are plain ints,
// the values of the C enum shakerand_kind: the parent package's Kind is
// the one type that names them.
type KindRow struct {
	Name      string
	Value     int
	SeedSize  int // the exact seed length, or 0: any length, empty included
	BlockSize int // bytes handed out between two ratchets or rekeys
	new       func(seed []byte) Engine
}

// kindRows is the one list of the engines in Go, in the C table's order;
// the parent package's pure-Go build answers from it, and its tests hold
// it to the vector file's "kinds". The sizes are the engines' own
// constants, not numbers copied from the C table.
var kindRows = []KindRow{
	{"turboshake256", 1, 0, blocksPerPeriod * Rate, func(seed []byte) Engine { return newX1(12, seed) }},
	{"shake256", 2, 0, blocksPerPeriod * Rate, func(seed []byte) Engine { return newX1(24, seed) }},
	{"turboshake256x8", 3, 0, x8OutputBytes, func(seed []byte) Engine { return newX8(seed) }},
	{"chacha8rand", 4, chacha8KeyBytes, chacha8OutputBytes, func(seed []byte) Engine { return newChaCha8(seed) }},
}

// Kinds returns the table of kinds (a copy: callers cannot change it).
func Kinds() []KindRow { return slices.Clone(kindRows) }

func lookup(kind int) (KindRow, bool) {
	for _, r := range kindRows {
		if r.Value == kind {
			return r, true
		}
	}
	return KindRow{}, false
}

// ErrSeedLength is returned by New for a seed that is not the length its
// kind requires.
var ErrSeedLength = errors.New("wrong seed length")

// New returns the engine of the given kind seeded with seed (any length,
// empty included, unless the kind's row has a seed size).
func New(kind int, seed []byte) (Engine, error) {
	r, ok := lookup(kind)
	if !ok {
		return nil, fmt.Errorf("unknown engine kind %d", kind)
	}
	if r.SeedSize != 0 && len(seed) != r.SeedSize {
		return nil, fmt.Errorf("%w: a %s seed is exactly %d bytes, not %d", ErrSeedLength, r.Name, r.SeedSize, len(seed))
	}
	return r.new(seed), nil
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

// newX1 starts the turboshake256 (12 rounds) or shake256 (24) engine.
func newX1(rounds int, seed []byte) *x1 {
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
