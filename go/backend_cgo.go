// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package shakerand

// The cgo build: the engines, the system generator and UUIDv7 are the C
// core's, compiled by cgo in their own Go packages (../src/doc.go says
// why), which these imports link in.
//
// On Windows (MinGW-w64, which cgo uses there) the core's threads, locks
// and clock_gettime come from winpthreads, linked statically as the CMake
// build links it: a Go program then needs no libwinpthread-1.dll beside
// it.

/*
#cgo CFLAGS: -I${SRCDIR}/../include -I${SRCDIR}/../src -O3 -DNDEBUG -std=c11 -fvisibility=hidden -Werror=implicit-function-declaration -DSHAKERAND_BUILDING
#cgo linux LDFLAGS: -lpthread
#cgo windows LDFLAGS: -Wl,-Bstatic -lpthread -Wl,-Bdynamic
#include <stdlib.h>
#include "shakerand.h"
#include "internal.h"

// Windows' C runtimes have no aligned_alloc (C11): their aligned
// allocator is _aligned_malloc, whose blocks only _aligned_free releases.
static void *engine_alloc(void)
{
#ifdef _WIN32
    return _aligned_malloc(SHAKERAND_ENGINE_SIZE, 64);
#else
    return aligned_alloc(64, SHAKERAND_ENGINE_SIZE);
#endif
}

// The epoch words (shakerand_system_epoch_words) without qualifiers, for
// Go's atomic loads; the VM generation's is a word that stays 0 where none
// is watched.
static uint64_t *epoch_word(void)
{
    const volatile uint64_t *e;
    shakerand_system_epoch_words(&e, NULL);
    return (uint64_t *)e;
}

static uint64_t *vm_generation_word(void)
{
    const volatile uint64_t *v;
    shakerand_system_epoch_words(NULL, &v);
    return (uint64_t *)v;
}

// The thread's stack bounds recorded first (once per thread), so that the
// stack wipe after a seed or a fill knows its stack: it then reaches the
// whole depth a signal frame could have taken, and makes no sigaltstack
// system call (otherwise one per fill on a thread that never drew from the
// system generator). Recording allocates, which is safe here: cgo never
// calls C from a signal handler.
static int engine_init(shakerand_engine *e, shakerand_kind kind, const void *seed, size_t len)
{
    shakerand_stack_record_bounds();
    return shakerand_engine_init(e, kind, seed, len);
}

static void engine_fill(shakerand_engine *e, void *out, size_t len)
{
    shakerand_stack_record_bounds();
    shakerand_engine_fill(e, out, len);
}

static void engine_free(void *p)
{
#ifdef _WIN32
    _aligned_free(p);
#else
    free(p);
#endif
}
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	_ "github.com/shakerand/shakerand/src"
	_ "github.com/shakerand/shakerand/src/entropy"
)

// Pure says whether this is the pure-Go build (false: cgo over the C core).
const Pure = false

// kindTable is the C core's table of kinds, read once through the
// functions it is exported by (kind.go looks kinds up in it).
var kindTable = func() []kindRow {
	rows := make([]kindRow, C.shakerand_kind_count())
	for i := range rows {
		k := C.shakerand_kind_at(C.size_t(i))
		rows[i] = kindRow{
			kind:      Kind(k),
			name:      C.GoString(C.shakerand_kind_name(k)),
			seedSize:  int(C.shakerand_kind_seed_size(k)),
			blockSize: int(C.shakerand_kind_block_size(k)),
		}
	}
	return rows
}()

// engine is one C engine, in C memory (it must be 64-byte aligned and is
// never moved).
type engine struct {
	p *C.shakerand_engine
}

func newEngine(kind Kind, seed []byte) *engine {
	checkSeed(kind, seed)
	mem := C.engine_alloc()
	if mem == nil {
		panic("shakerand: out of memory")
	}
	e := &engine{p: (*C.shakerand_engine)(mem)}
	var s unsafe.Pointer
	if len(seed) > 0 {
		s = unsafe.Pointer(&seed[0])
	}
	if C.engine_init(e.p, C.shakerand_kind(kind), s, C.size_t(len(seed))) != C.SHAKERAND_OK {
		C.engine_free(mem)
		panic("shakerand: shakerand_engine_init failed")
	}
	return e
}

func (e *engine) fill(b []byte) {
	if len(b) > 0 {
		C.engine_fill(e.p, unsafe.Pointer(&b[0]), C.size_t(len(b)))
	}
}

// free wipes the engine and releases its memory.
func (e *engine) free() {
	C.shakerand_engine_wipe(e.p)
	C.engine_free(unsafe.Pointer(e.p))
	e.p = nil
}

type systemFiller struct{}

func (systemFiller) fill(b []byte) { systemFill(b) }

// systemFill fills b from the calling thread's C system generator (if the
// operating system gives no entropy for its first seed, the C core's fatal
// handler ends the program).
func systemFill(b []byte) {
	vmWordOnce.Do(watchVMWord)
	if len(b) > 0 {
		C.shakerand_system_fill(unsafe.Pointer(&b[0]), C.size_t(len(b)))
	}
}

// The C library's epoch: its word from the start (asking for it sets
// nothing up), its VM generation word once the generator is set up, at the
// first fill (set up then as in C: SHAKERAND_SYSTEM_ENGINE is read at the
// first use). A buffer filled before that is refilled once after it.
func backendEpochWord() *uint64 { return (*uint64)(unsafe.Pointer(C.epoch_word())) }

func currentEpoch() epochMark {
	return epochMark{atomic.LoadUint64(epochWord.Load()), atomic.LoadUint64(vmWord.Load())}
}

var vmWordOnce sync.Once

func watchVMWord() { vmWord.Store((*uint64)(unsafe.Pointer(C.vm_generation_word()))) }

func newEpoch() { C.shakerand_system_new_epoch() }

// restoreEpoch is NewEpoch's: the C core counts the restore itself.
func restoreEpoch() { newEpoch() }

func watchesVMGeneration() bool { return C.shakerand_system_watches_vm_generation() != 0 }

func systemKind() Kind { return Kind(C.shakerand_system_kind()) }

// uuid7 is the C library's, which keeps version 7 UUIDs increasing across
// the whole process (C callers included) and across fork. It learns of a
// fork from its fork handler or the epoch; a raw fork runs no handler, so
// noticeFork moves the epoch first (fork.go).
func uuid7(u *UUID) {
	noticeFork()
	C.shakerand_uuid7(nil, (*C.uint8_t)(unsafe.Pointer(&u[0])))
}

// Kernel returns the name of the kernel set the C core runs ("avx512",
// "avx2", "neon", "vsx" or "portable"; SHAKERAND_KERNEL forces one), or
// "purego" in the pure-Go build.
func Kernel() string { return C.GoString(C.shakerand_kernel_name()) }
