// SPDX-License-Identifier: MIT OR Apache-2.0
// The package's API over one instance of the C core compiled to
// WebAssembly (js/wasm/), for Node, browsers, workers, Deno and Bun.
// index.cjs runs this file's text as a function body: nothing ES-only here
// but top-level `export function`, `export class` and `export const`.
//
// Every byte but big native fills (NATIVE_FILL) comes from the core's
// chacha8rand in WebAssembly; small values from a buffer of its output,
// each word zeroed as handed out (a call into WebAssembly per number would
// cost more than the number).

const BUFFER_WORDS = 1024; // the system generator's buffer: 4 KiB
const SMALL_FILL = 256; // fills up to this many bytes come from the buffer
const SCRATCH_BYTES = 65536; // bigger ones go through this much WebAssembly memory at a time
// Fills from this many bytes go to the host's native generator, if it has
// one (makeHost; js/README.md, "What serves which size", says why).
export const NATIVE_FILL = 65536;
// At most this many bytes a call to the native generator: Node's
// randomFillSync aborts (an assertion, not an exception) from 2^32 bytes.
const NATIVE_PIECE = 2 ** 30;
// A native piece's first and last 32 bytes must each hold this many
// distinct values: the seed check's rule (js/wasm/shakerand_wasm.c,
// SEED_MIN_DISTINCT, which says why 18).
const NATIVE_MIN_DISTINCT = 18;
// The rest of each piece too: NATIVE_SAMPLES pairs of aligned words this
// generator picks, set before the call, each against the NATIVE_NEAR pairs
// after it, and one against the NATIVE_PERIOD after it (js/README.md,
// "What serves which size", says what that refuses).
const NATIVE_SAMPLES = 16;
const NATIVE_NEAR = 4;
const NATIVE_PERIOD = 1024;
const RAND_MAX = 0xffff_ffff_ffff; // randomInt's widest range (Node's limit), 2^48 - 1
const TWO_32 = 4294967296;
const TWO_48 = 281474976710656;
const MAX_BYTES = 0x7fff_ffff; // the largest size or offset Node's crypto takes
const UUID_V7_COUNTER_LIMIT = 2 ** 42;
const HEX = Array.from({ length: 256 }, (_, i) => (i + 256).toString(16).slice(1));
const HEX_CODES = new Uint8Array(Array.from('0123456789abcdef', (c) => c.charCodeAt(0)));

// The canonical text of 16 bytes: one String.fromCharCode of all 36
// characters (four times faster in V8 than joining 20 pieces, which makes a
// rope to flatten later).
function uuidText(u) {
  const h = HEX_CODES;
  return String.fromCharCode(
    h[u[0] >>> 4], h[u[0] & 15], h[u[1] >>> 4], h[u[1] & 15], h[u[2] >>> 4], h[u[2] & 15], h[u[3] >>> 4], h[u[3] & 15], 45,
    h[u[4] >>> 4], h[u[4] & 15], h[u[5] >>> 4], h[u[5] & 15], 45,
    h[u[6] >>> 4], h[u[6] & 15], h[u[7] >>> 4], h[u[7] & 15], 45,
    h[u[8] >>> 4], h[u[8] & 15], h[u[9] >>> 4], h[u[9] & 15], 45,
    h[u[10] >>> 4], h[u[10] & 15], h[u[11] >>> 4], h[u[11] & 15], h[u[12] >>> 4], h[u[12] & 15],
    h[u[13] >>> 4], h[u[13] & 15], h[u[14] >>> 4], h[u[14] & 15], h[u[15] >>> 4], h[u[15] & 15],
  );
}

// ---- Errors in Node's style: the class, `code` and message crypto gives.

function describe(value) {
  if (value == null) return ` Received ${value}`;
  if (typeof value === 'function') return ` Received function ${value.name}`;
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto === null) return ' Received [Object: null prototype] {}';
    const name = proto.constructor?.name;
    return name ? ` Received an instance of ${name}` : ' Received an object';
  }
  let shown = typeof value === 'string' ? `'${value.length > 28 ? value.slice(0, 25) + '...' : value}'` : String(value);
  if (typeof value === 'bigint') shown += 'n';
  return ` Received type ${typeof value} (${shown})`;
}

function withSeparators(n) {
  const s = String(n);
  if (!Number.isInteger(n) || Math.abs(n) <= 2 ** 32) return s;
  let i = s.length;
  let out = '';
  for (const first = n < 0 ? 4 : 3; i > first; i -= 3) out = `_${s.slice(i - 3, i)}${out}`;
  return s.slice(0, i) + out;
}

function coded(e, code) {
  e.code = code;
  return e;
}

function argTypeError(name, expected, value) {
  return coded(new TypeError(`The "${name}" argument must be ${expected}.${describe(value)}`), 'ERR_INVALID_ARG_TYPE');
}

function outOfRangeError(name, range, value) {
  const shown = typeof value === 'bigint' ? `${value}n` : withSeparators(value);
  return coded(new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${shown}`), 'ERR_OUT_OF_RANGE');
}

function entropyError(why = 'crypto.getRandomValues failed or is missing', cause) {
  const e = coded(new Error(`shakerand: no entropy: ${why}, so nothing was generated`), 'ERR_SHAKERAND_ENTROPY');
  if (cause !== undefined) e.cause = cause;
  return e;
}

// ---- Snapshots (Node: js/README.md, "Snapshots")
// struct vmclock_abi (little-endian) as the C core reads it
// (src/system_os_vmclock.c, which says why this word): the sequence count
// at 12, the disruption marker at 16, the flags at 24 (bit 8: the VM
// generation counter at 104 is kept), 112 bytes in all.
const VMCLOCK_MAGIC = 0x4b4c4356;
const VMCLOCK_SEQ = 12;
const VMCLOCK_BYTES = 112;
const VMCLOCK_SEQ_TRIES = 1 << 12; // a hypervisor write takes far fewer
// The C core's CPU-jitter sample (src/entropy/conditioner.c says why these sizes).
const JITTER_SAMPLES = 2048;
const JITTER_MEMORY = 65536;

// The watched word, or null (the watch off, as after any error): the
// device, or for tests only a regular file at `pathForTesting`, whose page
// has the magic, version 1 and a size covering the structure. read(out)
// writes the word's halves (low first) and gives true, or false if the
// read failed or found no magic: one positional read (Node cannot map a
// file) up to the word, which the driver copies under the count, again
// while the count is odd (being written), as the C core does. Other code
// may close the descriptor and reuse its number: a failure, an odd count
// or a new word checks it is still the file opened (if not, the read
// fails and the path is opened again).
function openVmclock({ openSync, fstatSync, readSync, closeSync, constants }, pathForTesting) {
  const device = pathForTesting == null;
  // O_NONBLOCK: whatever lies at the path, opening it never waits.
  const open = () => openSync(device ? '/dev/vmclock0' : pathForTesting, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  const id = (st) => `${st.dev} ${st.ino} ${st.rdev}`;
  let fd;
  try {
    fd = open();
    const st = fstatSync(fd);
    const mine = id(st);
    const page = new DataView(new ArrayBuffer(VMCLOCK_BYTES));
    if (!(device ? st.isCharacterDevice() : st.isFile()) || readSync(fd, page, 0, VMCLOCK_BYTES, 0) !== VMCLOCK_BYTES ||
        page.getUint32(0, true) !== VMCLOCK_MAGIC || page.getUint32(4, true) < VMCLOCK_BYTES || page.getUint16(8, true) !== 1)
      throw new Error('no vmclock page');
    const at = (page.getUint32(24, true) >>> 8) & 1 ? 104 : 16;
    const ours = () => {
      try {
        if (id(fstatSync(fd)) === mine) return true;
      } catch {}
      fd = -1; // closed, or someone else's: never read again
      try {
        const again = open();
        if (id(fstatSync(again)) === mine) fd = again;
        else closeSync(again);
      } catch {}
      return false;
    };
    return {
      read(out) {
        try {
          for (let i = 1; readSync(fd, page, 0, at + 8, 0) === at + 8 && page.getUint32(0, true) === VMCLOCK_MAGIC; i++) {
            const lo = page.getInt32(at, true);
            const hi = page.getInt32(at + 4, true);
            const odd = page.getUint32(VMCLOCK_SEQ, true) & 1;
            if ((odd | (lo ^ out[0]) | (hi ^ out[1])) === 0) return true;
            if (i === 1 && !ours()) return false;
            if (!odd || i === VMCLOCK_SEQ_TRIES) {
              out[0] = lo;
              out[1] = hi;
              return true;
            }
          }
        } catch {}
        ours();
        return false;
      },
    };
  } catch {
    if (fd !== undefined) closeSync(fd);
    return null;
  }
}

// Node's `restore` for makeHost: the watch; readKernel, which fills a view
// from /dev/urandom, never from OpenSSL's generator, whose state a snapshot
// copies; `clock`, a BigInt nanosecond timer for the jitter sample. fs's
// functions taken now, out of reach of a later patch (mock-fs).
export function makeRestoreHost(fs, clock, vmclockPathForTesting = null) {
  const { openSync, readSync, closeSync } = fs;
  return {
    watch: openVmclock(fs, vmclockPathForTesting),
    readKernel(view) {
      const fd = openSync('/dev/urandom', 'r');
      try {
        for (let got = 0, n; got < view.length; got += n)
          if (!((n = readSync(fd, view, got, view.length - got, null)) > 0)) throw new Error('/dev/urandom: no bytes');
      } finally {
        closeSync(fd);
      }
    },
    clock,
  };
}

// The C core's jitter_sample: the time each 16 memory touches took, as
// little-endian 64-bit words into `deltas`; the walk moved by each delta.
function jitterSample(clock, memory, deltas) {
  let pos = 0;
  let before = clock();
  for (let i = 0; i < JITTER_SAMPLES; i++) {
    for (let k = 0; k < 16; k++) {
      pos = (pos + 456) & (JITTER_MEMORY - 1); // a new cache line each touch, wrapping unevenly
      memory[pos]++;
    }
    const now = clock();
    const delta = BigInt.asUintN(64, now - before);
    before = now;
    pos = (pos + Number(delta & 63n)) & (JITTER_MEMORY - 1);
    deltas.setBigUint64(8 * i, delta, true);
  }
}

// 1 if the pair at u[at] equals the pair at u[at + d], d in 1..span;
// branch-free (e | -e is negative iff e != 0).
function repeatsWithin(u, at, span) {
  const lo = u[at];
  const hi = u[at + 1];
  let all = -1;
  let next = hi;
  for (let i = at + 1, end = at + span; i <= end; i++) {
    const current = next;
    next = u[i + 1];
    const e = (current ^ lo) | (next ^ hi);
    all &= e | ((~e + 1) | 0);
  }
  return (all >>> 31) ^ 1;
}

function isZero32(x) {
  return ((x | ((~x + 1) | 0)) >>> 31) ^ 1;
}

// Node's checks on a byte count or offset (lib/internal/crypto/random.js):
// a number, times the element size, in range; fractions are truncated.
function checkNumber(name, value) {
  if (typeof value !== 'number') throw argTypeError(name, 'of type number', value);
}
function byteSize(size, elementSize, offset, length) {
  checkNumber('size', size);
  size *= elementSize;
  if (Number.isNaN(size) || size > MAX_BYTES || size < 0) throw outOfRangeError('size', `>= 0 && <= ${MAX_BYTES}`, size);
  if (size + offset > length) throw outOfRangeError('size + offset', `<= ${length}`, size + offset);
  return size >>> 0;
}
function byteOffset(offset, elementSize, length) {
  checkNumber('offset', offset);
  offset *= elementSize;
  const max = Math.min(length, MAX_BYTES);
  if (Number.isNaN(offset) || offset > max || offset < 0) throw outOfRangeError('offset', `>= 0 && <= ${max}`, offset);
  return offset >>> 0;
}
function checkCallback(callback) {
  if (callback !== undefined && typeof callback !== 'function') throw argTypeError('callback', 'of type function', callback);
}

// Array and SharedArrayBuffers by their internal slots, not instanceof:
// one from another realm (a vm context, an iframe, Jest's sandbox) is one.
const byteLengthOf = [ArrayBuffer, globalThis.SharedArrayBuffer]
  .filter((type) => typeof type === 'function')
  .map((type) => Object.getOwnPropertyDescriptor(type.prototype, 'byteLength').get);
function isAnyArrayBuffer(target) {
  if (target === null || typeof target !== 'object') return false;
  for (const get of byteLengthOf) {
    try {
      get.call(target);
      return true;
    } catch {} // not this kind
  }
  return false;
}
function isBuffer(target) {
  return ArrayBuffer.isView(target) || isAnyArrayBuffer(target);
}
// The bytes of a view or buffer; none of a detached one (as Node, which
// leaves it alone).
function bytesOf(name, target, start = 0, count = undefined) {
  if (!isBuffer(target)) throw argTypeError(name, 'an instance of ArrayBuffer or ArrayBufferView', target);
  const length = count === undefined ? target.byteLength - start : count;
  if (length === 0) return new Uint8Array(0);
  if (ArrayBuffer.isView(target)) return new Uint8Array(target.buffer, target.byteOffset + start, length);
  return new Uint8Array(target, start, length);
}

// A string seed is its UTF-8 bytes (docs/engines.md, "Seeds"); one with
// an unpaired surrogate has none (TextEncoder would write U+FFFD).
function utf8Seed(text) {
  if (/[\uD800-\uDFFF]/u.test(text))
    throw coded(new TypeError(`The argument 'seed' has an unpaired surrogate, so no UTF-8 form.${describe(text)}`), 'ERR_INVALID_ARG_VALUE');
  return new TextEncoder().encode(text);
}

// What an entry gives create() and wasmImports() (`memory` set once
// instantiated): `nativeFill` fills a whole Uint8Array from the host's
// generator (Node's crypto.randomFillSync); `restore`, makeRestoreHost's:
// from the first restore (kernelSeeds) every seed reads its readKernel.
export function makeHost(webcrypto, nativeFill = null, restore = null) {
  const usable = webcrypto != null && typeof webcrypto.getRandomValues === 'function';
  return {
    getRandomValues: usable ? webcrypto.getRandomValues.bind(webcrypto) : null,
    memory: null,
    nativeFill: typeof nativeFill === 'function' ? nativeFill : null,
    restore,
    kernelSeeds: false,
  };
}

// The module's imports: entropy() fills WebAssembly memory from the
// host's getRandomValues (at most 65536 bytes a call, far more than a
// seed's 32) or kernel (makeHost), 0 on success: with neither, every seed
// fails, and nothing is handed out.
export function wasmImports(host) {
  return {
    env: {
      entropy(pointer, length) {
        const fill = host.kernelSeeds ? host.restore.readKernel : host.getRandomValues;
        if (fill == null || host.memory == null) return 1;
        // A getRandomValues that calls back into the generator it seeds
        // would seed it from itself: the buffer is dropped, so that every
        // such call needs the generator, and throws (systemFill) meanwhile.
        host.seeding = true;
        if (host.dropBuffered) host.dropBuffered();
        host.cause = undefined;
        try {
          fill(new Uint8Array(host.memory.buffer, pointer, length));
          return 0;
        } catch (e) {
          host.cause = e;
          return 1;
        } finally {
          host.seeding = false;
        }
      },
    },
  };
}

// A module whose one function returns a v128: valid where the engine has
// SIMD128.
export const SIMD128_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 11,
]);

// Which module: SHAKERAND_KERNEL ("simd128" or "portable", from Node's
// environment or a browser's global) forces one; else SIMD128 if valid.
export function chooseKernel(forced, warn) {
  const simd = typeof WebAssembly === 'object' && WebAssembly.validate(SIMD128_PROBE);
  if (forced === 'portable') return 'portable';
  if (forced === 'simd128' && simd) return 'simd128';
  if (typeof forced === 'string' && forced !== '') warn(`shakerand: SHAKERAND_KERNEL=${forced} is not a kernel this engine supports; using the detected one`);
  return simd ? 'simd128' : 'portable';
}

// The high word of x * n for x < 2^32, n <= 2^32, given the exact low word
// lo (Math.imul(x, n) >>> 0): x * n is below 2^64, so its double is within
// 2^11 of it, and (x * n - lo) / 2^32 rounds to the exact high word.
export function mulHigh32(x, n, lo) {
  return Math.round((x * n - lo) / TWO_32);
}

// The API over an instance made with wasmImports(host). `testing` adds
// test hooks (the seed derivation, the buffer), which no entry exports:
// they would show the output others are about to get.
export function create(instance, host, { testing = false } = {}) {
  const w = instance.exports;
  host.memory = w.memory;
  const nativeFill = host.nativeFill ?? null;
  // Tests split native fills into smaller pieces than NATIVE_PIECE.
  const nativePiece = testing && host.nativePieceForTesting > 0 ? host.nativePieceForTesting : NATIVE_PIECE;
  const scratch = w.shakerand_js_alloc(SCRATCH_BYTES);
  if (scratch === 0) throw new Error('shakerand: WebAssembly memory could not be allocated');
  const scratchBytes = (length) => new Uint8Array(w.memory.buffer, scratch, length);

  // A view of WebAssembly memory, made again once growth detached the old
  // ArrayBuffer.
  let memoryBuffer = null;
  let memoryBytes = null;
  function heap() {
    if (w.memory.buffer !== memoryBuffer) {
      memoryBuffer = w.memory.buffer;
      memoryBytes = new Uint8Array(memoryBuffer);
    }
    return memoryBytes;
  }
  function cString(pointer) {
    const h = heap();
    let end = pointer;
    while (h[end] !== 0) end++;
    return String.fromCharCode(...h.subarray(pointer, end));
  }

  // ---- The system generator's buffer
  const words = new Uint32Array(BUFFER_WORDS);
  const wordBytes = new Uint8Array(words.buffer);
  let position = BUFFER_WORDS; // words handed out; all of them: refill first

  // Set at a restore: the host's generator has no reseed call, and its
  // state is the snapshot's (js/README.md, "Snapshots").
  let nativeOff = false;

  // ---- Restores
  const restore = host.restore ?? null;
  const watch = restore?.watch ?? null;
  // The page's word the state belongs to (read as the entry loads: a
  // snapshot before the first draw is seen too), and as read.
  const seenWord = new Int32Array(2);
  const readWord = new Int32Array(2);
  const watching = watch !== null && watch.read(seenWord);
  let jitterMemory = null;
  // A failed read's restore sets it, a new word or reseed() clears it:
  // while the page stays unreadable, one sample, not one a value.
  let unreadable = false;

  // A restore (the word moved or could not be read, or reseed()): the
  // buffer dropped first, native fills stopped, the generator seeded now;
  // with a restore host from the kernel and a jitter sample's digest (never
  // counted as entropy), which later seeds mix in too. readWord, if `read`,
  // counts as seen only once that succeeded.
  function afterRestore(read) {
    nativeOff = true;
    dropBuffered();
    if (restore === null || (unreadable && !read)) {
      if (w.shakerand_js_system_reseed(Date.now()) !== 0) throw seedError();
      return;
    }
    host.kernelSeeds = true;
    jitterMemory ??= new Uint8Array(JITTER_MEMORY);
    const deltaBytes = JITTER_SAMPLES * 8;
    try {
      jitterSample(restore.clock, jitterMemory, new DataView(w.memory.buffer, scratch, deltaBytes));
    } catch (cause) {
      scratchBytes(deltaBytes).fill(0);
      throw entropyError('the jitter sample\'s clock failed after a restore', cause);
    }
    if (w.shakerand_js_system_restore(Date.now(), scratch, deltaBytes) !== 0) throw seedError();
    unreadable = !read;
    if (read) seenWord.set(readWord);
  }

  // Before each value: at the start of each call, and within one before
  // each refill and each piece of a big fill.
  function watchPage() {
    notSeeding();
    const read = watch.read(readWord);
    if (!read || ((readWord[0] ^ seenWord[0]) | (readWord[1] ^ seenWord[1])) !== 0) afterRestore(read);
  }

  // Whether view[at, at + 32) holds NATIVE_MIN_DISTINCT distinct values,
  // branch-free as distinct_bytes in js/wasm/shakerand_wasm.c.
  function looksFilled(view, at) {
    let distinct = 0;
    for (let i = 0; i < 32; i++) {
      let seen = 0;
      for (let j = 0; j < i; j++) seen |= (((view[at + i] ^ view[at + j]) - 1) >>> 8) & 1;
      distinct += seen ^ 1;
    }
    return distinct >= NATIVE_MIN_DISTINCT;
  }

  // armPiece before the native call, pieceRefused (1: refuse) after it;
  const sampleAt = new Int32Array(NATIVE_SAMPLES);
  const sampleLo = new Int32Array(NATIVE_SAMPLES);
  const sampleHi = new Int32Array(NATIVE_SAMPLES);
  function armPiece(u) {
    for (let k = 0; k < NATIVE_SAMPLES; k++) {
      const at = below32(u.length - 1);
      sampleAt[k] = at;
      sampleLo[k] = u[at] = word();
      sampleHi[k] = u[at + 1] = word();
    }
  }
  // The armed pairs show the native generator where they are, so the
  // repeat checks read at positions drawn after it returned.
  function pieceRefused(u) {
    let refused = 0;
    for (let k = 0; k < NATIVE_SAMPLES; k++) {
      const at = sampleAt[k];
      refused |= isZero32((u[at] ^ sampleLo[k]) | (u[at + 1] ^ sampleHi[k]));
      refused |= repeatsWithin(u, below32(u.length - NATIVE_NEAR - 1), NATIVE_NEAR);
    }
    refused |= repeatsWithin(u, below32(u.length - NATIVE_PERIOD - 1), NATIVE_PERIOD);
    sampleLo.fill(0);
    sampleHi.fill(0);
    return refused;
  }

  // What the system generator's calls check first (wasmImports).
  function notSeeding() {
    if (host.seeding) throw entropyError('crypto.getRandomValues called back into shakerand while seeding it');
  }
  function systemFill(pointer, length) {
    notSeeding();
    if (w.shakerand_js_system_fill(pointer, length, Date.now()) !== 0) throw seedError();
  }
  // With what the seed's source threw (wasmImports).
  function seedError() {
    return entropyError(host.kernelSeeds ? 'the kernel (/dev/urandom) could not be read' : undefined, host.cause);
  }
  function refill() {
    systemFill(scratch, BUFFER_WORDS * 4);
    const fresh = scratchBytes(BUFFER_WORDS * 4);
    wordBytes.set(fresh);
    fresh.fill(0);
    position = 0;
  }
  // Every caller of systemFill refills after it or does not use the buffer.
  function dropBuffered() {
    words.fill(0);
    position = BUFFER_WORDS;
  }
  host.dropBuffered = dropBuffered;

  function word() {
    if (position === BUFFER_WORDS) {
      if (watching) watchPage();
      refill();
    }
    const v = words[position];
    words[position++] = 0;
    return v;
  }

  // Node's callback forms: the value made now (the arguments were checked
  // before), the callback given it, or the entropy error, in a microtask.
  function later(callback, make) {
    let value;
    let error = null;
    try {
      value = make();
    } catch (e) {
      error = e;
    }
    queueMicrotask(() => (error === null ? callback(null, value) : callback(error)));
  }

  // Uniform in [0, n) for 1 <= n <= 2^32: Lemire's multiply-and-reject, as
  // the C core's below_u32 (src/samplers.c), on the product's words.
  function below32(n) {
    let x = word();
    let lo = Math.imul(x, n) >>> 0;
    if (lo < n) {
      const t = (TWO_32 - n) % n; // 2^32 mod n
      while (lo < t) {
        x = word();
        lo = Math.imul(x, n) >>> 0;
      }
    }
    return mulHigh32(x, n, lo);
  }
  // Uniform in [0, n) for 2^32 < n <= 2^48: reject 48-bit draws at or
  // above the largest multiple of n, then reduce (all exact in doubles).
  function below48(n) {
    const limit = TWO_48 - (TWO_48 % n);
    for (;;) {
      const x = (word() & 0xffff) * TWO_32 + word();
      if (x < limit) return x % n;
    }
  }
  function below(n) {
    return n <= TWO_32 ? below32(n) : below48(n);
  }

  function randomInt(min, max, callback) {
    const maxOnly = typeof max === 'undefined' || typeof max === 'function';
    if (maxOnly) {
      callback = max;
      max = min;
      min = 0;
    }
    // Written out: as calls, 4 to 9 % slower.
    if (typeof callback !== 'undefined' && typeof callback !== 'function')
      throw argTypeError('callback', 'of type function', callback);
    if (!Number.isSafeInteger(min)) throw argTypeError('min', 'a safe integer', min);
    if (!Number.isSafeInteger(max)) throw argTypeError('max', 'a safe integer', max);
    if (max <= min) throw outOfRangeError('max', `greater than the value of "min" (${min})`, max);
    const range = max - min;
    if (!(range <= RAND_MAX)) throw outOfRangeError(maxOnly ? 'max' : 'max - min', `<= ${RAND_MAX}`, range);
    if (watching) watchPage();
    if (callback === undefined) return min + below(range);
    return later(callback, () => min + below(range));
  }

  // k / 2^53 for the top 53 bits of a 64-bit word (low word first), as
  // shakerand_double.
  function random() {
    if (watching) watchPage();
    if (position > BUFFER_WORDS - 2) refill();
    const lo = words[position];
    const hi = words[position + 1];
    words[position] = 0;
    words[position + 1] = 0;
    position += 2;
    return (hi * 2097152 + (lo >>> 11)) / 9007199254740992;
  }

  // A failed reseed partway through a big fill throws with the part
  // written zeroed, no output left in WebAssembly memory; a native fill
  // that throws, with all of `out` zeroed (what it wrote is not known).
  function fillBytes(out) {
    const length = out.length;
    if (watching) watchPage();
    if (length <= SMALL_FILL) {
      const needed = (length + 3) >>> 2;
      if (position + needed > BUFFER_WORDS) refill();
      const start = position * 4;
      if (length <= 64) {
        // Byte by byte: a subarray and a fill would each allocate or call out.
        for (let i = 0; i < length; i++) out[i] = wordBytes[start + i];
        for (let i = position; i < position + needed; i++) words[i] = 0;
      } else {
        out.set(wordBytes.subarray(start, start + length));
        wordBytes.fill(0, start, start + needed * 4);
      }
      position += needed;
      return;
    }
    let done = 0;
    if (nativeFill !== null && !nativeOff && length >= NATIVE_FILL) {
      // The WebAssembly generator seeded if it is due, so that a host
      // without getRandomValues fails every call, these included.
      systemFill(scratch, 0);
      let why = "the host's native generator failed";
      const heads = []; // each piece's first pair, against a stub that copies a piece
      try {
        while (done < length) {
          if (done > 0 && watching) watchPage();
          let size = Math.min(nativePiece, length - done);
          // The last piece NATIVE_FILL bytes at least, for its check.
          if (length - done - size > 0 && length - done - size < NATIVE_FILL) size -= NATIVE_FILL;
          const piece = out.subarray(done, done + size);
          const skip = -piece.byteOffset & 3; // the piece's whole aligned words
          const u = new Int32Array(piece.buffer, piece.byteOffset + skip, (size - skip) >>> 2);
          armPiece(u); // its draws may refill, and so see a restore
          if (nativeOff) break;
          nativeFill(piece);
          why = "the host's native generator wrote too few distinct values";
          if (!looksFilled(piece, 0) || !looksFilled(piece, size - 32)) throw new Error(why);
          why = "the host's native generator's output was unwritten, constant or repeating";
          let refused = pieceRefused(u);
          for (const h of heads) refused |= isZero32((h[0] ^ u[0]) | (h[1] ^ u[1]));
          heads.push(u.slice(0, 2));
          if (refused !== 0) throw new Error(why);
          why = "the host's native generator failed";
          done += size;
        }
      } catch (cause) {
        out.fill(0);
        // This generator's own draws (armPiece) failing: its own error.
        if (cause?.code === 'ERR_SHAKERAND_ENTROPY') throw cause;
        throw entropyError(why, cause);
      } finally {
        for (const h of heads) h.fill(0);
      }
      if (done === length) return;
    }
    try {
      for (const start = done; done < length; done += SCRATCH_BYTES) {
        if (done > start && watching) watchPage();
        const piece = Math.min(SCRATCH_BYTES, length - done);
        systemFill(scratch, piece);
        out.set(scratchBytes(piece), done);
      }
    } catch (e) {
      out.fill(0, 0, done);
      throw e;
    } finally {
      scratchBytes(Math.min(length, SCRATCH_BYTES)).fill(0);
    }
  }

  // Node's randomBytes(size[, callback]), giving a Uint8Array.
  function randomBytes(size, callback) {
    size = byteSize(size, 1, 0, Infinity);
    checkCallback(callback);
    const out = new Uint8Array(size);
    if (callback === undefined) {
      fillBytes(out);
      return out;
    }
    return later(callback, () => (fillBytes(out), out));
  }

  // Node's randomFillSync(buf[, offset[, size]]) (offset and size in
  // elements of a typed array), or randomFill's with a callback.
  function randomFill(buf, offset, size, callback) {
    if (!isBuffer(buf)) throw argTypeError('buf', 'an instance of ArrayBuffer or ArrayBufferView', buf);
    if (typeof offset === 'function') {
      callback = offset;
      offset = undefined;
      size = undefined;
    } else if (typeof size === 'function') {
      callback = size;
      size = undefined;
    } else {
      checkCallback(callback); // a fourth argument: randomFill's callback, which randomFillSync has not
    }
    const elementSize = buf.BYTES_PER_ELEMENT || 1;
    const length = buf.byteLength;
    const start = byteOffset(offset === undefined ? 0 : offset, elementSize, length);
    const count = size === undefined ? length - start : byteSize(size, elementSize, start, length);
    const bytes = bytesOf('buf', buf, start, count);
    if (callback === undefined) {
      fillBytes(bytes);
      return buf;
    }
    return later(callback, () => (fillBytes(bytes), buf));
  }

  // crypto.randomUUID's checks (there is no cache to switch off).
  function checkOptions(options) {
    if (options === undefined) return;
    if (options === null || typeof options !== 'object' || Array.isArray(options))
      throw argTypeError('options', 'of type object', options);
    const { disableEntropyCache } = options;
    if (disableEntropyCache !== undefined && typeof disableEntropyCache !== 'boolean')
      throw coded(new TypeError(`The "options.disableEntropyCache" property must be of type boolean.${describe(disableEntropyCache)}`),
        'ERR_INVALID_ARG_TYPE');
  }

  // A UUID's bytes, zeroed once it is text.
  const uuid = new Uint8Array(16);
  const uuidWords = new Uint32Array(uuid.buffer);
  const uuidView = new DataView(uuid.buffer);

  function randomUUID(options) {
    checkOptions(options);
    if (watching) watchPage();
    if (position > BUFFER_WORDS - 4) refill();
    // Word by word (a subarray would allocate), in the buffer's byte order.
    for (let i = 0; i < 4; i++) {
      uuidWords[i] = words[position];
      words[position++] = 0;
    }
    uuid[6] = (uuid[6] & 0x0f) | 0x40; // version 4
    uuid[8] = (uuid[8] & 0x3f) | 0x80; // variant 10
    const text = uuidText(uuid);
    uuid.fill(0);
    return text;
  }

  // Version 7 as the C core's shakerand_uuid7 (RFC 9562 section 6.2,
  // method 1): a 42-bit counter after the millisecond, random below 2^41
  // each new millisecond, incremented within one; when it would overflow
  // or the clock stands still or steps back, the timestamp moves one past
  // the last, so this agent's UUIDs always increase. 32 fresh bits last.
  let v7LastMs = -1;
  let v7Counter = 0;
  function randomUUIDv7() {
    if (watching) watchPage();
    const fresh = (word() & 0x1ff) * TWO_32 + word();
    const tail = word();
    const now = Date.now();
    if (now > v7LastMs) {
      v7LastMs = now;
      v7Counter = fresh;
    } else if (++v7Counter >= UUID_V7_COUNTER_LIMIT) {
      v7LastMs += 1;
      v7Counter = fresh;
    }
    // Big-endian; each setter keeps the low 16 or 32 bits of its value.
    const ms = v7LastMs;
    const c = v7Counter;
    uuidView.setUint16(0, Math.floor(ms / TWO_32));
    uuidView.setUint32(2, ms);
    uuidView.setUint16(6, 0x7000 | (((Math.floor(c / TWO_32) << 2) | (c >>> 30)) & 0xfff));
    uuidView.setUint32(8, 0x80000000 | (c & 0x3fffffff));
    uuidView.setUint32(12, tail);
    const text = uuidText(uuid);
    uuid.fill(0);
    return text;
  }

  function checkArray(name, array) {
    if (!Array.isArray(array) && !(ArrayBuffer.isView(array) && !(array instanceof DataView)))
      throw argTypeError(name, 'an instance of Array or TypedArray', array);
    if (array.length > TWO_32) throw outOfRangeError(`${name}.length`, `<= ${TWO_32}`, array.length);
  }

  // Fisher-Yates in place; a sparse array's holes come out as undefined.
  function shuffle(array) {
    checkArray('array', array);
    if (array.length > 1 && Object.isFrozen(array)) throw new TypeError('shakerand: shuffle: the array is frozen');
    if (watching) watchPage();
    for (let i = array.length - 1; i > 0; i--) {
      const j = below32(i + 1);
      const t = array[i];
      array[i] = array[j];
      array[j] = t;
    }
    return array;
  }

  // k distinct elements in random order (Python's random.sample): k steps
  // of Fisher-Yates on a copy.
  function sample(population, k) {
    checkArray('population', population);
    if (!Number.isSafeInteger(k)) throw argTypeError('k', 'a safe integer', k);
    if (k < 0 || k > population.length) throw outOfRangeError('k', `>= 0 && <= ${population.length}`, k);
    if (watching) watchPage();
    const pool = Array.from(population);
    for (let i = 0; i < k; i++) {
      const j = i + below32(pool.length - i);
      const t = pool[i];
      pool[i] = pool[j];
      pool[j] = t;
    }
    pool.length = k;
    return pool;
  }

  // ---- Big bounds: RNG-BC-1 in the core (shakerand_below)
  function bigIntToBytes(n) {
    let hex = n.toString(16);
    if (hex.length & 1) hex = '0' + hex;
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
    return bytes;
  }
  function checkBound(n) {
    if (typeof n !== 'bigint') throw argTypeError('n', 'of type bigint', n);
    if (n <= 0n) throw outOfRangeError('n', '> 0n', n);
  }
  // The core's RNG-BC-1 below r (big-endian bytes) with an engine, in
  // WebAssembly memory that is wiped and freed after.
  function belowBytes(engine, r) {
    const p = w.shakerand_js_alloc(2 * r.length);
    if (p === 0) throw new RangeError('shakerand: the bound is too large for WebAssembly memory');
    try {
      heap().set(r, p);
      if (w.shakerand_below(engine, 1, p, r.length, p + r.length, 0) !== 0)
        throw new RangeError('shakerand: shakerand_below refused the bound');
      let hex = '0x0';
      const h = heap();
      for (let i = 0; i < r.length; i++) hex += HEX[h[p + r.length + i]];
      return BigInt(hex);
    } finally {
      w.shakerand_js_free(p, 2 * r.length);
    }
  }
  // With a chacha8rand engine keyed from the system generator for this
  // draw: an engine needs no entropy, so nothing can fail in the core.
  function bigIntBelow(n) {
    checkBound(n);
    const key = new Uint8Array(32);
    let engine;
    try {
      fillBytes(key);
      engine = new Engine('chacha8rand', key);
    } finally {
      key.fill(0);
    }
    try {
      return engine.bigIntBelow(n);
    } finally {
      engine.wipe();
    }
  }

  // ---- Seeded engines
  const kinds = [];
  for (let i = 0; i < w.shakerand_kind_count(); i++) {
    const value = w.shakerand_kind_at(i);
    kinds.push(Object.freeze({
      name: cString(w.shakerand_kind_name(value)),
      value,
      seedSize: w.shakerand_kind_seed_size(value),
      blockSize: w.shakerand_kind_block_size(value),
    }));
  }
  Object.freeze(kinds);
  const engineSize = w.shakerand_engine_size();
  // An engine nobody wiped is wiped and freed when it is collected.
  const collected =
    typeof FinalizationRegistry === 'function'
      ? new FinalizationRegistry((pointer) => w.shakerand_js_free(pointer, engineSize))
      : null;

  // index.d.ts says what each method gives.
  class Engine {
    #pointer = 0;
    #kind;

    constructor(kind, seed) {
      if (typeof kind !== 'string') throw argTypeError('kind', 'of type string', kind);
      const k = kinds.find((entry) => entry.name === kind);
      if (k === undefined)
        throw outOfRangeError('kind', `one of ${kinds.map((e) => `'${e.name}'`).join(', ')}`, `'${kind}'`);
      if (typeof seed !== 'string' && !isBuffer(seed))
        throw argTypeError('seed', 'of type string or an instance of ArrayBuffer or ArrayBufferView', seed);
      const bytes = typeof seed === 'string' ? utf8Seed(seed) : bytesOf('seed', seed);
      let pointer;
      try {
        if (k.seedSize !== 0 && bytes.length !== k.seedSize)
          throw outOfRangeError('seed.byteLength', `${k.seedSize} for ${kind}`, bytes.length);
        pointer = w.shakerand_js_alloc(engineSize + bytes.length);
        if (pointer === 0) throw new RangeError('shakerand: WebAssembly memory could not be allocated');
        const seedPointer = pointer + engineSize;
        heap().set(bytes, seedPointer);
        const status = w.shakerand_engine_init(pointer, k.value, seedPointer, bytes.length);
        heap().fill(0, seedPointer, seedPointer + bytes.length);
        if (status !== 0) {
          w.shakerand_js_free(pointer, engineSize + bytes.length);
          throw new RangeError(`shakerand: shakerand_engine_init refused the seed (${status})`);
        }
      } finally {
        if (typeof seed === 'string') bytes.fill(0); // our copy
      }
      this.#pointer = pointer;
      this.#kind = kind;
      collected?.register(this, pointer, this);
      // An own function property: structuredClone and postMessage throw a
      // DataCloneError, not copy an engine's fields without its state.
      this.wipe = this.wipe.bind(this);
    }

    get kind() {
      return this.#kind;
    }

    #live() {
      if (this.#pointer === 0) throw new TypeError('shakerand: this Engine was wiped');
      return this.#pointer;
    }

    fill(target) {
      const out = bytesOf('buf', target);
      const e = this.#live();
      for (let done = 0; done < out.length; done += SCRATCH_BYTES) {
        const piece = Math.min(SCRATCH_BYTES, out.length - done);
        w.shakerand_engine_fill(e, scratch, piece);
        out.set(scratchBytes(piece), done);
      }
      scratchBytes(Math.min(out.length, SCRATCH_BYTES)).fill(0);
      return target;
    }

    bytes(size) {
      return this.fill(new Uint8Array(byteSize(size, 1, 0, Infinity)));
    }

    nextU32() {
      return w.shakerand_js_engine_u32(this.#live()) >>> 0;
    }

    nextU64() {
      const e = this.#live();
      const lo = w.shakerand_js_engine_u32(e) >>> 0;
      const hi = w.shakerand_js_engine_u32(e) >>> 0;
      return (BigInt(hi) << 32n) | BigInt(lo);
    }

    random() {
      return w.shakerand_js_engine_double(this.#live());
    }

    // randomInt's argument rules but any span of safe integers (no 2^48
    // limit); the numbers are shakerand_range_i64's on [min, max - 1].
    randomInt(min, max) {
      if (max === undefined) {
        max = min;
        min = 0;
      }
      if (!Number.isSafeInteger(min)) throw argTypeError('min', 'a safe integer', min);
      if (!Number.isSafeInteger(max)) throw argTypeError('max', 'a safe integer', max);
      if (max <= min) throw outOfRangeError('max', `greater than the value of "min" (${min})`, max);
      return w.shakerand_js_engine_range(this.#live(), min, max - 1);
    }

    // RNG-BC-1 below n, as the other languages' seeded big bounds.
    bigIntBelow(n) {
      checkBound(n);
      return belowBytes(this.#live(), bigIntToBytes(n));
    }

    wipe() {
      if (this.#pointer === 0) return;
      collected?.unregister(this);
      w.shakerand_js_free(this.#pointer, engineSize);
      this.#pointer = 0;
    }
  }
  if (typeof Symbol.dispose === 'symbol') Engine.prototype[Symbol.dispose] = Engine.prototype.wipe;

  // The key for os, a counter and, after a restore, a jitter digest.
  function deriveKeyForTesting(os, counter, jitter = null) {
    const p = w.shakerand_js_alloc(96);
    try {
      heap().set(os, p);
      if (jitter !== null) heap().set(jitter, p + 64);
      w.shakerand_js_derive_key(p, Number(counter & 0xffffffffn), Number(counter >> 32n), jitter === null ? 0 : p + 64, p + 32);
      return heap().slice(p + 32, p + 64);
    } finally {
      w.shakerand_js_free(p, 96);
    }
  }

  // As at a restore the page did not show: for a snapshot's restore hook.
  function reseed() {
    notSeeding();
    unreadable = false;
    afterRestore(watching && watch.read(readWord));
  }

  const api = {
    randomBytes, randomFill, randomInt, random, randomUUID, randomUUIDv7, bigIntBelow, shuffle, sample, reseed, Engine, kinds,
    watchesVmGeneration: watching,
    kernel: cString(w.shakerand_kernel_name()),
    version: cString(w.shakerand_version()),
  };
  if (testing)
    api.testing = {
      deriveKey: deriveKeyForTesting, position: () => position, words: () => words.slice(), refill,
      nativeFillBytes: NATIVE_FILL, nativeDistinct: NATIVE_MIN_DISTINCT, nativePeriod: NATIVE_PERIOD,
    };
  return api;
}
