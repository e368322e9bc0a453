// SPDX-License-Identifier: MIT OR Apache-2.0
// The package's test suite, the same in Node (node.test.mjs, node --test)
// and in headless Chromium (browser/): a list of named async cases over
//   s           the package's API as a user imports it,
//   vectorsText vectors/shakerand.json as text, randomshake vectors/randomshake.json,
//   instantiate (kernel, host) => a fresh API over the named module, with
//               `host.getRandomValues` as its only entropy, and the test
//               hooks (`testing`),
//   mulHigh32   core.js's exact high-word helper.
// Known answers come from outside this package: the vector file (written
// from the Python reference model and checked against Go's math/rand/v2,
// hashlib and RandomSHAKE), C2SP's chacha8rand vector, RandomSHAKE's own
// output.

class AssertionError extends Error {}

function ok(value, message) {
  if (!value) throw new AssertionError(message ?? 'assertion failed');
}
function eq(actual, expected, message) {
  if (actual !== expected)
    throw new AssertionError(`${message ?? 'not equal'}: ${String(actual)} !== ${String(expected)}`);
}
function throwsLike(fn, { name, code, message }, what) {
  let caught = null;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  ok(caught !== null, `${what}: did not throw`);
  eq(caught.constructor.name, name, `${what}: error class`);
  if (code !== undefined) eq(caught.code, code, `${what}: code`);
  if (message !== undefined) eq(caught.message, message, `${what}: message`);
  return caught;
}

const hexOf = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const fromHex = (hex) => new Uint8Array((hex.match(/../g) ?? []).map((h) => parseInt(h, 16)));
async function sha256(bytes) {
  return hexOf(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes)));
}

// The stream read in pieces of varying sizes (1 byte to 4 KiB): slicing
// must not change it.
function readSliced(engine, total) {
  const out = new Uint8Array(total);
  const sizes = [1, 7, 64, 3, 1000, 4096, 31, 992, 1088, 5, 136];
  for (let done = 0, i = 0; done < total; i++) {
    const n = Math.min(sizes[i % sizes.length], total - done);
    engine.fill(out.subarray(done, done + n));
    done += n;
  }
  return out;
}

// Chi-square of counts against equal expectations: below the 1e-6
// quantile's rough bound (df + 7 sqrt(2 df) + 20), so a correct sampler
// fails about once in a million runs and a biased one every time.
function uniformEnough(counts, what) {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  const chi = counts.reduce((a, c) => a + (c - expected) ** 2 / expected, 0);
  const df = counts.length - 1;
  ok(chi < df + 7 * Math.sqrt(2 * df) + 20, `${what}: chi-square ${chi.toFixed(1)} with ${df} degrees of freedom`);
}

// A host whose entropy is counted, and can be cut off.
function countingHost() {
  const host = {
    calls: [],
    getRandomValues(view) {
      host.calls.push(view.length);
      return globalThis.crypto.getRandomValues(view);
    },
    memory: null,
  };
  return host;
}

export function cases({ s, vectorsText, randomshake, instantiate, mulHigh32 }) {
  const vectors = JSON.parse(vectorsText);
  const list = [];
  const test = (name, fn) => list.push({ name, fn });

  // ---- Known answers ------------------------------------------------------
  test('kinds: the core table equals the vector file', () => {
    eq(JSON.stringify(s.kinds.map((k) => [k.name, k.value, k.seedSize, k.blockSize])),
      JSON.stringify(vectors.kinds.map((k) => [k.name, k.value, k.seed_size, k.block_size])), 'kinds');
  });

  for (const kernel of ['portable', 'simd128']) {
    test(`vectors: every engine stream of vectors/shakerand.json (${kernel} module)`, async () => {
      const api = await instantiate(kernel, countingHost());
      eq(api.kernel, kernel, 'kernel');
      for (const v of vectors.engines) {
        const seed = fromHex(v.seed_hex);
        const whole = new api.Engine(v.engine, seed).bytes(65536);
        for (const c of v.chunks)
          eq(hexOf(whole.subarray(c.offset, c.offset + c.hex.length / 2)), c.hex, `${v.engine}/${seed.length} at ${c.offset}`);
        eq(await sha256(whole), v.sha256_of_first_65536, `${v.engine}/${seed.length} sha256`);
        eq(hexOf(readSliced(new api.Engine(v.engine, seed), 65536)), hexOf(whole), `${v.engine}/${seed.length} sliced`);
      }
    });
  }

  test("vectors: RandomSHAKE's own output (vectors/randomshake.json)", () => {
    for (const v of randomshake.vectors) {
      const e = new s.Engine(v.engine, fromHex(v.seed_hex));
      const expected = v.first_64_hex;
      eq(hexOf(e.bytes(expected.length / 2)), expected, `${v.engine} ${v.seed_desc}`);
    }
  });

  test("vectors: C2SP chacha8rand (Go's math/rand/v2 ChaCha8)", () => {
    const v = vectors.c2sp_chacha8rand;
    const e = new s.Engine('chacha8rand', fromHex(v.seed_hex));
    for (const [i, hex] of v.uint64_hex.entries()) eq(e.nextU64().toString(16).padStart(16, '0'), hex, `Uint64 ${i}`);
  });

  test('vectors: a string seed is its UTF-8 bytes (string_seeds)', () => {
    eq(vectors.string_seeds.map((v) => v.engine).join(), s.kinds.map((k) => k.name).join(), 'a case for every kind');
    for (const v of vectors.string_seeds) {
      eq(hexOf(new s.Engine(v.engine, v.seed_text).bytes(64)), v.first_64_hex, `${v.engine}: the string`);
      eq(hexOf(new s.Engine(v.engine, fromHex(v.seed_hex)).bytes(64)), v.first_64_hex, `${v.engine}: its bytes`);
    }
    // chacha8rand's 32 bytes are counted in UTF-8, not in UTF-16 code units.
    eq(new s.Engine('chacha8rand', '\u00e9'.repeat(16)).kind, 'chacha8rand', '16 two-byte characters');
    throwsLike(() => new s.Engine('chacha8rand', 'a'.repeat(31) + '\u00e9'), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' },
      '32 code units, 33 bytes');
    // An unpaired surrogate has no UTF-8 form (TextEncoder would write U+FFFD).
    for (const text of ['seed \ud83c', '\udfb2', 'a\ud83c\ud83c'])
      throwsLike(() => new s.Engine('turboshake256', text), { name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }, 'an unpaired surrogate');
  });

  test('vectors: the system generator seed derivation (system_policy)', async () => {
    const t = await instantiate('portable', countingHost());
    // The counters as written (one is above 2^53, beyond JSON.parse's numbers),
    // in system_policy's text alone (restore_derivation, after it, has its own).
    const policy = vectorsText.slice(vectorsText.indexOf('"system_policy"'));
    const end = policy.indexOf('"restore_derivation"');
    const text = end < 0 ? policy : policy.slice(0, end);
    const counters = [...text.matchAll(/"counter": (\d+)/g)].map((m) => BigInt(m[1]));
    eq(counters.length, vectors.system_policy.derivation.length, 'counters');
    let checked = 0;
    for (const [i, d] of vectors.system_policy.derivation.entries()) {
      if (d.extra_hex !== null) continue; // the package mixes in no caller bytes
      eq(hexOf(t.testing.deriveKey(fromHex(d.os_hex), counters[i])), d.chacha8rand_key_hex, `counter ${counters[i]}`);
      checked++;
    }
    ok(checked >= 2, 'derivation entries');
  });

  test('kernels: both modules give the same streams for random seeds of every kind', async () => {
    const a = await instantiate('portable', countingHost());
    const b = await instantiate('simd128', countingHost());
    for (const k of s.kinds) {
      for (let i = 0; i < 4; i++) {
        const seed = s.randomBytes(k.seedSize || 1 + s.randomInt(300));
        eq(hexOf(new a.Engine(k.name, seed).bytes(20000)), hexOf(new b.Engine(k.name, seed).bytes(20000)), k.name);
      }
    }
  });

  // ---- Entropy ------------------------------------------------------------
  test('entropy: the first draw seeds from getRandomValues (32 bytes), once', async () => {
    const host = countingHost();
    const api = await instantiate('simd128', host);
    eq(host.calls.length, 0, 'no entropy before the first draw');
    api.random();
    api.randomBytes(100);
    eq(JSON.stringify(host.calls), '[32]', 'entropy calls');
    const other = await instantiate('simd128', countingHost());
    ok(hexOf(api.randomBytes(32)) !== hexOf(other.randomBytes(32)), 'two instances differ');
  });

  test('entropy: reseeds after 16 MiB (the policy) and on reseed()', async () => {
    const host = countingHost();
    const api = await instantiate('simd128', host);
    api.randomFill(new Uint8Array(vectors.system_policy.reseed_bytes));
    eq(host.calls.length, 1, 'one seed for the budget');
    api.randomBytes(1000);
    eq(host.calls.length, 2, 'a reseed past the budget');
    api.reseed();
    eq(host.calls.length, 3, 'reseed()');
  });

  test('entropy: reseeds when the wall clock has moved 60 s, or back, since the last seed', async () => {
    const host = countingHost();
    const api = await instantiate('simd128', host);
    const now = Date.now;
    const start = now();
    const at = (ms) => {
      Date.now = () => start + ms;
      api.randomFill(new Uint8Array(300)); // past the buffer: the core sees the clock
      return host.calls.length;
    };
    try {
      eq(at(0), 1, 'the first seed');
      eq(at(59999), 1, 'after 59.999 s');
      eq(at(60000), 2, 'after 60 s');
      eq(at(59999), 3, 'the clock went back');
    } finally {
      Date.now = now;
    }
  });

  // Sources the seed check refuses (js/wasm/shakerand_wasm.c): none, one
  // that throws, and stubs whose 32 bytes hold fewer than 18 distinct values.
  const badSources = {
    none: null,
    throws: () => { throw new Error('refused'); },
    'writes nothing': (view) => view,
    'a constant': (view) => view.fill(0xa5),
    'element 0 only': (view) => { view[0] = 0x5a; },
    'the last element only': (view) => { view[view.length - 1] = 0x5a; },
    '17 distinct values': (view) => view.forEach((_, i) => { view[i] = 0x40 + (i % 17); }),
  };

  test('entropy: none or a stub, no output (every call throws; buffers stay untouched)', async () => {
    for (const [source, getRandomValues] of Object.entries(badSources)) {
      const api = await instantiate('simd128', { getRandomValues, memory: null });
      const bad = { name: 'Error', code: 'ERR_SHAKERAND_ENTROPY' };
      throwsLike(() => api.random(), bad, `${source}: random`);
      throwsLike(() => api.randomInt(10), bad, `${source}: randomInt`);
      throwsLike(() => api.randomUUID(), bad, `${source}: randomUUID`);
      throwsLike(() => api.randomUUIDv7(), bad, `${source}: randomUUIDv7`);
      throwsLike(() => api.bigIntBelow(1000n), bad, `${source}: bigIntBelow`);
      throwsLike(() => api.shuffle([1, 2, 3]), bad, `${source}: shuffle`);
      throwsLike(() => api.reseed(), bad, `${source}: reseed`);
      // With a callback the error goes to the callback, as Node's does.
      const errors = await Promise.all([
        (cb) => api.randomBytes(8, cb),
        (cb) => api.randomFill(new Uint8Array(8), cb),
        (cb) => api.randomInt(10, cb),
      ].map((call) => new Promise((resolve) => call((err, value) => resolve(err && value === undefined ? err.code : 'no error')))));
      eq(errors.join(), Array(3).fill(bad.code).join(), `${source}: callbacks`);
      for (const n of [16, 100000]) {
        const target = new Uint8Array(n).fill(7);
        throwsLike(() => api.randomFill(target), bad, `${source}: randomFill ${n}`);
        ok(target.every((b) => b === 7), `${source}: randomFill ${n} wrote nothing`);
      }
      // Seeded engines need no entropy.
      eq(new api.Engine('chacha8rand', new Uint8Array(32)).bytes(4).length, 4, `${source}: seeded engine`);
    }
  });

  test('entropy: the seed check passes 18 distinct values of 32, and real bytes over 4096 seeds', async () => {
    const eighteen = (view) => view.forEach((_, i) => { view[i] = 0x40 + (i % 18); });
    eq(typeof (await instantiate('portable', { getRandomValues: eighteen, memory: null })).random(), 'number', '18 distinct');
    // Real bytes fail the check with probability 1.149e-13 a seed (js/README.md).
    const host = countingHost();
    const api = await instantiate('portable', host);
    for (let i = 0; i < 4096; i++) api.reseed();
    eq(host.calls.length, 4096, 'seeds');
  });

  // The OS bytes of a seed, the key derived from them, and the first
  // iteration's output must not stay anywhere in WebAssembly memory but the
  // engine's state after the calls return (the C stack there is wiped).
  for (const kernel of ['portable', 'simd128'])
  test(`memory: no seed, key or handed-out output left in WebAssembly memory (${kernel} module)`, async () => {
    const os = s.randomBytes(32);
    const host = { getRandomValues: (view) => view.set(os), memory: null };
    const t = await instantiate(kernel, host);
    const key = t.testing.deriveKey(os, 1n);
    t.testing.refill();
    const handedOut = hexOf(new Uint8Array(t.testing.words().buffer).subarray(0, 64));
    const memory = hexOf(new Uint8Array(host.memory.buffer));
    const find = (bytes) => {
      for (let i = memory.indexOf(bytes); i >= 0; i = memory.indexOf(bytes, i + 1)) if (i % 2 === 0) return i / 2;
      return -1;
    };
    eq(find(hexOf(os)), -1, 'the OS bytes');
    eq(find(hexOf(key)), -1, 'the derived key');
    // A vector kernel holds each key word in all four lanes of a register.
    for (let i = 0; i < 32; i += 4) eq(find(hexOf(key.subarray(i, i + 4)).repeat(4)), -1, `key word ${i / 4}, splat`);
    eq(find(handedOut), -1, 'the output copied out to JavaScript');
  });

  // What an engine made, handed out or not, must not stay in WebAssembly
  // memory once it is wiped: the kernels' frames are wiped below each call.
  for (const kernel of ['portable', 'simd128'])
  test(`memory: no stream of a wiped Engine left in WebAssembly memory (${kernel} module)`, async () => {
    const host = countingHost();
    const t = await instantiate(kernel, host);
    for (const k of s.kinds) {
      for (const n of [1, 5000]) {
        const seed = s.randomBytes(k.seedSize || 40);
        const e = new t.Engine(k.name, seed);
        e.bytes(n);
        e.wipe();
        const stream = new s.Engine(k.name, seed).bytes(n + 8192); // made in another instance
        const memory = hexOf(new Uint8Array(host.memory.buffer));
        // Word by word: turboshake256x8's stream interleaves eight states,
        // so one state's words lie 64 bytes apart in it.
        for (let at = 0; at + 8 <= stream.length; at += 8) {
          const word = hexOf(stream.subarray(at, at + 8));
          for (let i = memory.indexOf(word); i >= 0; i = memory.indexOf(word, i + 1))
            ok(i % 2 !== 0, `${k.name}, ${n} bytes: stream word at ${at} in memory at ${i / 2}`);
        }
      }
    }
  });

  // ---- random ---------------------------------------------------------------
  test('random: 53-bit doubles in [0, 1), uniform, equal to shakerand_double on the same bytes', () => {
    const bins = new Array(64).fill(0);
    for (let i = 0; i < 200000; i++) {
      const x = s.random();
      ok(x >= 0 && x < 1, `in [0, 1): ${x}`);
      ok(Number.isInteger(x * 2 ** 53), '53 bits');
      bins[Math.floor(x * 64)]++;
    }
    uniformEnough(bins, 'random');
    // The system path's formula, checked against the core's on one stream.
    const seed = s.randomBytes(32);
    const a = new s.Engine('chacha8rand', seed);
    const b = new s.Engine('chacha8rand', seed);
    for (let i = 0; i < 1000; i++) {
      const lo = b.nextU32();
      const hi = b.nextU32();
      eq(a.random(), (hi * 2097152 + (lo >>> 11)) / 2 ** 53, `double ${i}`);
    }
  });

  test('buffer: words handed out are zeroed', async () => {
    const s = await instantiate('simd128', countingHost());
    s.random();
    for (let i = 0; i < 50; i++) s.randomUUID();
    s.randomBytes(37);
    s.randomInt(1000);
    s.randomInt(2 ** 40);
    s.randomUUIDv7();
    s.shuffle([1, 2, 3, 4]);
    const pos = s.testing.position();
    ok(pos > 0, 'something was drawn from the buffer');
    ok(s.testing.words().subarray(0, pos).every((w) => w === 0), 'handed-out words are zero');
    ok(s.testing.words().subarray(pos).some((w) => w !== 0), 'the rest is output');
  });

  // ---- the system path against a model of the C core's samplers -------------
  // What random(), randomInt() and randomUUID() must make of the buffer's
  // next words, computed with BigInt: shakerand_double, Lemire's
  // multiply-and-reject (below_u32) up to 2^32, the 48-bit rejection above.
  function modelBelow(words, at, n) {
    if (n <= 2 ** 32) {
      const t = (2n ** 32n) % BigInt(n);
      for (;;) {
        const m = BigInt(words[at++]) * BigInt(n);
        if ((m & 0xffffffffn) >= t) return [Number(m >> 32n), at];
      }
    }
    const limit = 2n ** 48n - ((2n ** 48n) % BigInt(n));
    for (;;) {
      const x = (BigInt(words[at] & 0xffff) << 32n) | BigInt(words[at + 1]);
      at += 2;
      if (x < limit) return [Number(x % BigInt(n)), at];
    }
  }
  test('system path: random, randomInt and randomUUID make of the buffer what the core would', async () => {
    const t = await instantiate('simd128', countingHost());
    const ranges = [1, 2, 3, 6, 7, 100, 2 ** 31 + 1, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 47 + 1, 2 ** 48 - 1,
      3 * 2 ** 45];
    for (let round = 0; round < 300; round++) {
      t.testing.refill();
      const words = t.testing.words();
      const lo = words[0];
      const hi = words[1];
      eq(t.random(), (hi * 2097152 + (lo >>> 11)) / 2 ** 53, 'random');
      let at = 2;
      for (const n of ranges) {
        const [want, next] = modelBelow(words, at, n);
        eq(t.randomInt(n), want, `randomInt(${n})`);
        eq(t.testing.position(), next, `words used by randomInt(${n})`);
        at = next;
      }
      const b = Array.from(words.subarray(at, at + 4), (w) => [w & 255, (w >>> 8) & 255, (w >>> 16) & 255, w >>> 24]).flat();
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      const h = hexOf(b);
      eq(t.randomUUID(), `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`, 'uuid');
    }
  });

  // Modular inverse mod 2^32 of an odd n (Newton's iteration).
  const inverse32 = (n) => {
    let x = BigInt(n);
    for (let i = 0; i < 5; i++) x = (x * (2n - BigInt(n) * x)) & 0xffffffffn;
    return x;
  };
  test('randomInt: the exact high word of x * n', () => {
    const edges = [0, 1, 2, 3, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
    const values = edges.concat(Array.from({ length: 2000 }, () => Math.floor(s.random() * 2 ** 32)));
    const pairs = [];
    for (const x of values) for (const n of values.slice(0, 40).concat([2 ** 32])) pairs.push([x, n]);
    // Products within a few units of a multiple of 2^32, where the double
    // product rounds across it: x = -k / n mod 2^32 for odd n.
    for (const n of values.filter((v) => v % 2 === 1 && v > 2 ** 20))
      for (const k of [1n, 2n, 5n, -1n, -3n])
        pairs.push([Number(((-k * inverse32(n)) % 2n ** 32n + 2n ** 32n) % 2n ** 32n), n]);
    for (const [x, n] of pairs) {
      const lo = Math.imul(x, n) >>> 0;
      eq(mulHigh32(x, n, lo), Number((BigInt(x) * BigInt(n)) >> 32n), `${x} * ${n}`);
      eq(lo, Number((BigInt(x) * BigInt(n)) & 0xffffffffn), `low ${x} * ${n}`);
    }
  });

  test('randomInt: bounds, uniformity, Node forms', async () => {
    for (const [min, max] of [[0, 1], [-5, -4], [2 ** 53 - 2, 2 ** 53 - 1], [-(2 ** 53) + 1, -(2 ** 53) + 2]])
      eq(s.randomInt(min, max), min, `[${min}, ${max})`);
    const counts = new Array(7).fill(0);
    for (let i = 0; i < 70000; i++) counts[s.randomInt(7)]++;
    uniformEnough(counts, 'randomInt(7)');
    const wide = new Array(16).fill(0); // ranges above 2^32 take the 48-bit path
    for (let i = 0; i < 32000; i++) {
      const x = s.randomInt(-(2 ** 47), 2 ** 47 - 1); // the widest range, 2^48 - 1
      ok(Number.isSafeInteger(x) && x >= -(2 ** 47) && x < 2 ** 47 - 1, 'wide range');
      wide[Math.floor(((x + 2 ** 47) / 2 ** 48) * 16)]++;
    }
    uniformEnough(wide, 'randomInt over 2^48');
    const top = new Array(8).fill(0); // 2^32 exactly: every word value
    for (let i = 0; i < 16000; i++) top[Math.floor(s.randomInt(2 ** 32) / 2 ** 29)]++;
    uniformEnough(top, 'randomInt(2^32)');
    const n = await new Promise((resolve, reject) => {
      let sync = true;
      s.randomInt(3, 9, (err, v) => (err || sync ? reject(err ?? new Error('called synchronously')) : resolve(v)));
      sync = false;
    });
    ok(n >= 3 && n < 9, 'callback');
  });

  // The errors crypto.randomInt gives (class, code, message), and nothing
  // drawn.
  const randomIntBad = [
    [[1.5], 'TypeError', 'ERR_INVALID_ARG_TYPE', 'The "max" argument must be a safe integer. Received type number (1.5)'],
    [['1'], 'TypeError', 'ERR_INVALID_ARG_TYPE', "The \"max\" argument must be a safe integer. Received type string ('1')"],
    [[0], 'RangeError', 'ERR_OUT_OF_RANGE', 'The value of "max" is out of range. It must be greater than the value of "min" (0). Received 0'],
    [[5, 5], 'RangeError', 'ERR_OUT_OF_RANGE', 'The value of "max" is out of range. It must be greater than the value of "min" (5). Received 5'],
    [[0, 2 ** 48], 'RangeError', 'ERR_OUT_OF_RANGE', 'The value of "max - min" is out of range. It must be <= 281474976710655. Received 281_474_976_710_656'],
    [[2 ** 48], 'RangeError', 'ERR_OUT_OF_RANGE', 'The value of "max" is out of range. It must be <= 281474976710655. Received 281_474_976_710_656'],
    [[2 ** 53, 1], 'TypeError', 'ERR_INVALID_ARG_TYPE', 'The "min" argument must be a safe integer. Received type number (9007199254740992)'],
    [[1, 2, 3], 'TypeError', 'ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function. Received type number (3)'],
    [[-1], 'RangeError', 'ERR_OUT_OF_RANGE', 'The value of "max" is out of range. It must be greater than the value of "min" (0). Received -1'],
    [[undefined], 'TypeError', 'ERR_INVALID_ARG_TYPE', 'The "max" argument must be a safe integer. Received undefined'],
    [[null, 1], 'TypeError', 'ERR_INVALID_ARG_TYPE', 'The "min" argument must be a safe integer. Received null'],
    [[{}], 'TypeError', 'ERR_INVALID_ARG_TYPE', 'The "max" argument must be a safe integer. Received an instance of Object'],
    [[NaN], 'TypeError', 'ERR_INVALID_ARG_TYPE', 'The "max" argument must be a safe integer. Received type number (NaN)'],
    [[1n], 'TypeError', 'ERR_INVALID_ARG_TYPE', 'The "max" argument must be a safe integer. Received type bigint (1n)'],
  ];
  test('randomInt: bad arguments throw as crypto.randomInt does, drawing nothing', async () => {
    const s = await instantiate('simd128', countingHost());
    s.random();
    for (const [args, name, code, message] of randomIntBad) {
      const before = s.testing.position();
      throwsLike(() => s.randomInt(...args), { name, code, message }, `randomInt(${args.map(String)})`);
      eq(s.testing.position(), before, 'nothing drawn');
    }
  });

  // ---- bytes ----------------------------------------------------------------
  test('randomBytes and randomFill: every size, only the view, every kind of buffer', () => {
    for (const n of [0, 1, 3, 4, 255, 256, 257, 4096, 65535, 65536, 65537, 1 << 20]) {
      const a = s.randomBytes(n);
      eq(a.constructor.name, 'Uint8Array', 'type');
      eq(a.length, n, 'length');
      if (n >= 16) ok(hexOf(a) !== hexOf(s.randomBytes(n)), 'fresh bytes');
      if (n >= 256) {
        const counts = new Array(16).fill(0);
        for (const b of a) counts[b >> 4]++;
        if (n >= 4096) uniformEnough(counts, `bytes ${n}`);
      }
    }
    const backing = new Uint8Array(1000).fill(7);
    for (const [from, to] of [[3, 20], [100, 900]]) {
      s.randomFill(new Uint8Array(backing.buffer, from, to - from));
      ok(backing.subarray(0, from).every((b) => b === 7) && backing.subarray(to).every((b) => b === 7), 'outside the view');
      backing.fill(7);
    }
    const f = new Float64Array(10);
    eq(s.randomFill(f), f, 'returns its argument');
    ok(f.some((x) => x !== 0), 'Float64Array');
    const buffer = new ArrayBuffer(64);
    s.randomFill(buffer);
    ok(new Uint8Array(buffer).some((b) => b !== 0), 'ArrayBuffer');
    s.randomFill(new DataView(new ArrayBuffer(8)));
    // Node's offset and size, in elements of a typed array.
    const u16 = new Uint16Array(8).fill(0x0707);
    eq(s.randomFill(u16, 2, 3), u16, 'returns the buffer');
    ok(u16.subarray(0, 2).every((v) => v === 0x0707) && u16.subarray(5).every((v) => v === 0x0707), 'only [2, 5)');
    const raw = new Uint8Array(16);
    s.randomFill(raw.buffer, 15);
    ok(raw.subarray(0, 15).every((b) => b === 0), 'an ArrayBuffer from an offset');
  });

  test('randomBytes and randomFill: callbacks are called later, with the bytes', async () => {
    let sync = true;
    const [bytes, filled] = await Promise.all([
      new Promise((resolve, reject) => s.randomBytes(40, (err, b) => (err || sync ? reject(err) : resolve(b)))),
      new Promise((resolve, reject) => s.randomFill(new Uint32Array(4), 1, (err, b) => (err || sync ? reject(err) : resolve(b)))),
    ].map((p) => ((sync = false), p)));
    eq(bytes.length, 40, 'randomBytes callback');
    eq(filled[0], 0, 'randomFill callback: before the offset untouched');
    ok(filled.subarray(1).some((v) => v !== 0), 'randomFill callback: filled');
  });

  // With a native generator for big fills too: every system call throws while a seed runs.
  const nativeFills = {
    'no native generator': null,
    'a native generator': (view) => {
      for (let o = 0; o < view.length; o += 65536) globalThis.crypto.getRandomValues(view.subarray(o, o + 65536));
    },
  };
  for (const [native, nativeFill] of Object.entries(nativeFills))
  test(`entropy: a getRandomValues that calls back into shakerand gets an error, not itself (${native})`, async () => {
    let api = null;
    const inner = [];
    const host = {
      nativeFill,
      getRandomValues(view) {
        // Would seed the generator from its own output: from the buffer
        // (small) or from the core (big).
        for (const n of [32, 100000]) {
          try {
            api.randomBytes(n);
            inner.push('served');
          } catch (e) {
            inner.push(e.code);
          }
        }
        return globalThis.crypto.getRandomValues(view);
      },
      memory: null,
    };
    api = await instantiate('simd128', host);
    api.random(); // the first seed, then a full buffer
    eq(api.randomBytes(8).length, 8, 'the outer call');
    // A reseed at the byte budget while the buffer still holds output (in
    // pieces the WebAssembly generator serves, where big ones go native).
    const budget = vectors.system_policy.reseed_bytes;
    if (nativeFill === null) api.randomFill(new Uint8Array(budget));
    else for (let done = 0, piece = api.testing.nativeFillBytes - 1; done < budget; done += piece) api.randomBytes(piece);
    eq(inner.join(), Array(4).fill('ERR_SHAKERAND_ENTROPY').join(), 'the calls from inside getRandomValues');
    const e = new api.Engine('chacha8rand', new Uint8Array(32));
    eq(hexOf(e.bytes(8)), hexOf(new s.Engine('chacha8rand', new Uint8Array(32)).bytes(8)), 'the module still works');
  });

  test('entropy: a failed reseed partway through a big fill zeroes what it wrote', async () => {
    let calls = 0;
    const host = {
      getRandomValues: (view) => {
        if (++calls > 1) throw new Error('gone');
        return globalThis.crypto.getRandomValues(view);
      },
      memory: null,
    };
    const t = await instantiate('simd128', host);
    // Room for one 64 KiB piece, then a short one that needs a reseed.
    t.randomFill(new Uint8Array(vectors.system_policy.reseed_bytes - 65536 - 500));
    const nonZero = () => new Uint8Array(host.memory.buffer).reduce((n, b) => n + (b !== 0), 0);
    const before = nonZero();
    const target = new Uint8Array(65536 + 1000).fill(7);
    throwsLike(() => t.randomFill(target), { name: 'Error', code: 'ERR_SHAKERAND_ENTROPY' }, 'the fill');
    ok(target.every((b) => b === 0 || b === 7), 'no output left in the buffer');
    ok(target.some((b) => b === 0), 'the part written was zeroed');
    // The 64 KiB pieces went through WebAssembly memory: none stays there.
    ok(nonZero() - before < 4096, `WebAssembly memory gained ${nonZero() - before} non-zero bytes`);
  });

  // A host that names a native generator (Node's entry names
  // crypto.randomFillSync): the system generator's fills from its threshold
  // on go there whole; smaller ones, and seeded engines, never do.
  // A stand-in native generator: bytes of a simple counter-based mix, as
  // varied as real output for the distinct-values check.
  let standIn = 1;
  const varied = (view) => {
    for (let i = 0; i < view.length; i++) {
      standIn = (Math.imul(standIn, 1103515245) + 12345) >>> 0;
      view[i] = standIn >>> 24;
    }
  };
  test("native fills: big system fills go to the host's own generator, nothing else does", async () => {
    const calls = [];
    const host = countingHost();
    host.nativeFill = (view) => {
      calls.push(view);
      varied(view);
      view[0] = 0xa5;
    };
    const t = await instantiate('simd128', host);
    const n = t.testing.nativeFillBytes;
    const target = new Uint16Array(n / 2 + 4);
    eq(t.randomFill(target, 4), target, 'randomFill returns its buffer');
    eq(calls.length, 1, 'one native call');
    eq(calls[0].buffer, target.buffer, 'on the caller\'s memory');
    eq(calls[0].byteOffset, 8, 'from the offset');
    eq(calls[0].length, n, 'to the end');
    ok(target.subarray(0, 4).every((v) => v === 0), 'before the offset untouched');
    eq(new Uint8Array(target.buffer, 8, 1)[0], 0xa5, 'the native bytes');
    eq(t.randomBytes(n + 1)[0], 0xa5, 'randomBytes');
    eq(calls.length, 2, 'randomBytes went native');
    t.randomBytes(n - 1);
    new t.Engine('chacha8rand', new Uint8Array(32)).bytes(4 * n);
    eq(calls.length, 2, 'below the threshold and seeded engines: no native call');
    t.reseed();
    t.randomBytes(4 * n);
    eq(calls.length, 2, 'after reseed(): the WebAssembly generator, which reseed() renewed');
  });

  test('native fills: in pieces, each checked, the last one big enough for its check', async () => {
    const sizes = [];
    const hostOf = (piece) => {
      const host = countingHost();
      host.nativeFill = (view) => {
        sizes.push(view.length);
        varied(view);
      };
      if (piece) host.nativePieceForTesting = piece;
      return host;
    };
    const t = await instantiate('simd128', hostOf(0));
    const n = t.testing.nativeFillBytes;
    const u = await instantiate('simd128', hostOf(4 * n));
    const target = new Uint8Array(8 * n + 100);
    u.randomFill(target);
    eq(sizes.join(), [4 * n, 3 * n, n + 100].join(), 'pieces of at most the piece size; no last one under the threshold');
    ok(target.subarray(8 * n).some((b) => b !== 0), 'to the end');
    eq(t.randomBytes(8 * n).length, 8 * n, 'in one piece by default');
    eq(sizes.length, 4, 'one call');
  });

  test('native fills: a native generator that writes nothing or a constant is refused', async () => {
    for (const [what, fill] of [['nothing', () => {}], ['a constant', (view) => view.fill(0x5a)],
      ['17 values', (view) => { for (let i = 0; i < view.length; i++) view[i] = i % 17; }],
      ['a constant tail', (view) => { varied(view); view.fill(0, view.length - 32); }]]) {
      const host = countingHost();
      host.nativeFill = fill;
      const t = await instantiate('simd128', host);
      const target = new Uint8Array(t.testing.nativeFillBytes).fill(7);
      const e = throwsLike(() => t.randomFill(target), { name: 'Error', code: 'ERR_SHAKERAND_ENTROPY' }, what);
      ok(/distinct/.test(e.message), `${what}: says why`);
      ok(target.every((b) => b === 0), `${what}: zeroed`);
    }
    // 18 distinct values in each end's 32 bytes pass, as for a seed.
    const host = countingHost();
    host.nativeFill = (view) => {
      varied(view);
      for (const at of [0, view.length - 32]) for (let i = 0; i < 32; i++) view[at + i] = i % 18;
    };
    const t = await instantiate('simd128', host);
    eq(t.testing.nativeDistinct, 18, 'the seed check\'s rule');
    eq(t.randomBytes(t.testing.nativeFillBytes)[17], 17, 'accepted');
  });

  // Stubs whose ends pass the rule above (issue 45: 1,048,512 zero bytes
  // between good ends were handed out): each is refused, the buffer zeroed.
  async function refusedEach(what, stubs, size, piece = 0) {
    for (const [name, stub] of stubs) {
      const host = countingHost();
      host.nativeFill = stub;
      if (piece) host.nativePieceForTesting = piece;
      const t = await instantiate('simd128', host);
      const target = new Uint8Array(size);
      // What the caller's buffer held before: random bytes too.
      for (let o = 0; o < size; o += 65536) globalThis.crypto.getRandomValues(target.subarray(o, o + 65536));
      const e = throwsLike(() => t.randomFill(target), { name: 'Error', code: 'ERR_SHAKERAND_ENTROPY' }, `${what}: ${name}`);
      ok(/unwritten|repeating/.test(e.message), `${what}: ${name}: says why (${e.message})`);
      ok(target.every((b) => b === 0), `${what}: ${name}: zeroed`);
    }
  }
  const goodEnds = (view) => {
    varied(view.subarray(0, 32));
    varied(view.subarray(view.length - 32));
  };
  test('native fills: good ends with zeros, a constant or nothing between are refused', async () => {
    await refusedEach('1 MiB', [
      ['zeros between', (view) => { goodEnds(view); view.fill(0, 32, view.length - 32); }],
      ['0x5a between', (view) => { goodEnds(view); view.fill(0x5a, 32, view.length - 32); }],
      ['nothing between', goodEnds],
      ['half of it zeros', (view) => { varied(view); view.fill(0, view.length >> 2, (3 * view.length) >> 2); }],
      ['half of it unwritten', (view) => { varied(view.subarray(0, view.length >> 1)); }],
    ], 1 << 20);
  });

  test('native fills: a fill repeating with a period up to the window is refused', async () => {
    const t = await instantiate('simd128', countingHost());
    const periodic = (p) => (view) => {
      varied(view.subarray(0, p));
      for (let i = p; i < view.length; i++) view[i] = view[i - p];
    };
    await refusedEach('periodic', [40, 64, 257, 1000, 1023, 1024, 2046, 4092, 4096].map((p) => [`period ${p}`, periodic(p)]),
      4 * t.testing.nativeFillBytes);
    eq(t.testing.nativePeriod, 1024, 'the window (every period to 1 KiB, even ones to 2 KiB, multiples of 4 to 4 KiB)');
  });

  test('native fills: a stub that keeps good bytes only near the words armed before the call is refused', async () => {
    // In a zeroed buffer the armed pairs are the only words not zero, so a
    // stub can find them: the repeat checks read where it cannot know.
    const host = countingHost();
    host.nativeFill = (view) => {
      const armed = view.slice();
      varied(view);
      for (let i = view.length >> 2, end = (3 * view.length) >> 2; i < end; i++) {
        let near = false;
        for (let j = Math.max(0, i - 40); j <= i && !near; j++) near = armed[j] !== 0;
        if (!near) view[i] = 0;
      }
    };
    const t = await instantiate('simd128', host);
    for (let i = 0; i < 20; i++) {
      const target = new Uint8Array(1 << 18);
      throwsLike(() => t.randomFill(target), { name: 'Error', code: 'ERR_SHAKERAND_ENTROPY' }, `call ${i}`);
      ok(target.every((b) => b === 0), `call ${i}: zeroed`);
    }
  });

  test('native fills: a fill that leaves the buffer as it was is refused', async () => {
    await refusedEach('untouched', [['a stub that writes nothing', () => {}]], 1 << 18);
  });

  test('native fills: a piece that copies an earlier piece is refused', async () => {
    let first = null;
    const copying = (view) => {
      if (first === null) {
        varied(view);
        first = view.slice();
      } else view.set(first.subarray(0, view.length));
    };
    await refusedEach('copied', [['pieces after the first copy it', copying]], 1 << 18, 1 << 16);
    ok(first !== null && first.length === 1 << 16, 'the first piece was 64 KiB');
  });

  test('native fills: real output passes the check at every size and offset', async () => {
    const host = countingHost();
    let calls = 0;
    host.nativeFill = (view) => {
      calls++;
      for (let o = 0; o < view.length; o += 65536) globalThis.crypto.getRandomValues(view.subarray(o, o + 65536));
    };
    const t = await instantiate('simd128', host);
    const n = t.testing.nativeFillBytes;
    const buffer = new Uint8Array(8 * n + 7);
    for (let i = 0; i < 300; i++) {
      const offset = i % 7;
      t.randomFill(buffer, offset, n + ((i * 997) % (7 * n)));
    }
    eq(calls, 300, 'every fill went native and was accepted');
  });

  test('native fills: without getRandomValues they fail too', async () => {
    const host = countingHost();
    host.getRandomValues = null;
    host.nativeFill = varied;
    const t = await instantiate('simd128', host);
    throwsLike(() => t.randomBytes(t.testing.nativeFillBytes), { name: 'Error', code: 'ERR_SHAKERAND_ENTROPY' }, 'a big fill');
  });

  test('native fills: a native generator that throws gives ERR_SHAKERAND_ENTROPY and a zeroed buffer', async () => {
    const host = countingHost();
    host.nativeFill = (view) => {
      view.fill(0xa5, 0, 100);
      throw new Error('gone');
    };
    const t = await instantiate('simd128', host);
    const target = new Uint8Array(t.testing.nativeFillBytes).fill(7);
    const e = throwsLike(() => t.randomFill(target), { name: 'Error', code: 'ERR_SHAKERAND_ENTROPY' }, 'the fill');
    eq(e.cause.message, 'gone', 'the cause');
    ok(target.every((b) => b === 0), 'zeroed');
    const failed = await new Promise((resolve) => t.randomBytes(t.testing.nativeFillBytes, (err) => resolve(err.code)));
    eq(failed, 'ERR_SHAKERAND_ENTROPY', 'with a callback');
  });

  test('randomBytes and randomFill: bad arguments', () => {
    const range = 'The value of "size" is out of range. It must be >= 0 && <= 2147483647.';
    throwsLike(() => s.randomBytes(-1), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: `${range} Received -1` }, 'size -1');
    throwsLike(() => s.randomBytes(2 ** 31), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: `${range} Received 2147483648` }, 'size 2^31');
    throwsLike(() => s.randomBytes('x'), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message: `The "size" argument must be of type number. Received type string ('x')` }, 'size x');
    eq(s.randomBytes(1.5).length, 1, 'a fraction is truncated, as Node does');
    throwsLike(() => s.randomBytes(NaN), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: `${range} Received NaN` }, 'size NaN');
    throwsLike(() => s.randomBytes(Object.create(null)), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message: 'The "size" argument must be of type number. Received [Object: null prototype] {}' }, 'null prototype');
    throwsLike(() => s.randomBytes(3, 'x'), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'callback x');
    const u16 = new Uint16Array(4);
    throwsLike(() => s.randomFill(u16, 5), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: 'The value of "offset" is out of range. It must be >= 0 && <= 8. Received 10' }, 'offset');
    throwsLike(() => s.randomFill(u16, 1, 4), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: 'The value of "size + offset" is out of range. It must be <= 8. Received 10' }, 'size + offset');
    throwsLike(() => s.randomFill(u16, '1'), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'offset as a string');
    throwsLike(() => s.randomFill(u16, 0, 1, 'x'), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'callback x');
    throwsLike(() => s.randomFill(5), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message: 'The "buf" argument must be an instance of ArrayBuffer or ArrayBufferView. Received type number (5)' }, 'fill 5');
    throwsLike(() => s.randomFill([1, 2]), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'fill array');
  });

  // ---- UUIDs ------------------------------------------------------------------
  test('randomUUID: version 4, variant 10, lower case, all distinct', () => {
    const seen = new Set();
    const nibbles = new Array(16).fill(0);
    for (let i = 0; i < 20000; i++) {
      const u = s.randomUUID();
      ok(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), u);
      seen.add(u);
      nibbles[parseInt(u[0], 16)]++;
    }
    eq(seen.size, 20000, 'distinct');
    uniformEnough(nibbles, 'first hex digit');
    throwsLike(() => s.randomUUID(5), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message: 'The "options" argument must be of type object. Received type number (5)' }, 'options');
    ok(s.randomUUID({ disableEntropyCache: true }).length === 36, 'options object');
  });

  test('randomUUIDv7: version 7, the clock in front, strictly increasing', () => {
    const before = Date.now();
    let last = '';
    for (let i = 0; i < 20000; i++) {
      const u = s.randomUUIDv7();
      ok(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), u);
      ok(u > last, `increasing: ${last} then ${u}`);
      last = u;
    }
    const ms = parseInt(last.slice(0, 8) + last.slice(9, 13), 16);
    ok(ms >= before && ms <= Date.now() + 1000, `timestamp ${ms}`);
  });

  // ---- big bounds ---------------------------------------------------------------
  test('bigIntBelow: below the bound for any size, uniform; bad bounds', () => {
    eq(s.bigIntBelow(1n), 0n, 'n = 1');
    for (const n of [2n, 3n, 255n, 256n, 257n, 2n ** 64n + 1n, 2n ** 521n - 1n, 2n ** 4096n - 12345n]) {
      for (let i = 0; i < 50; i++) {
        const x = s.bigIntBelow(n);
        ok(typeof x === 'bigint' && x >= 0n && x < n, `${x} < ${n}`);
      }
    }
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 20000; i++) counts[Number(s.bigIntBelow(10n))]++;
    uniformEnough(counts, 'bigIntBelow(10n)');
    const n = 3n * 2n ** 200n; // the top third of the range must appear
    ok(Array.from({ length: 200 }, () => s.bigIntBelow(n)).some((x) => x >= 2n * 2n ** 200n), 'top of a big range');
    throwsLike(() => s.bigIntBelow(10), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'a number');
    throwsLike(() => s.bigIntBelow(0n), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: 'The value of "n" is out of range. It must be > 0n. Received 0n' }, '0n');
    throwsLike(() => s.bigIntBelow(-5n), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }, '-5n');
  });

  // ---- shuffle, sample ------------------------------------------------------
  test('shuffle: a permutation, every order equally likely; typed arrays', () => {
    const orders = new Map();
    for (let i = 0; i < 24000; i++) {
      const key = s.shuffle(['a', 'b', 'c', 'd']).join('');
      orders.set(key, (orders.get(key) ?? 0) + 1);
    }
    eq(orders.size, 24, 'all 24 orders');
    uniformEnough([...orders.values()], 'orders');
    const t = Int32Array.from({ length: 1000 }, (_, i) => i);
    eq(s.shuffle(t), t, 'in place');
    eq([...t].sort((x, y) => x - y).join(), Array.from({ length: 1000 }, (_, i) => i).join(), 'same elements');
    eq(s.shuffle([]).length, 0, 'empty');
    throwsLike(() => s.shuffle('abc'), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'a string');
    throwsLike(() => s.shuffle(new DataView(new ArrayBuffer(4))), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'a DataView');
  });

  test('sample: k distinct elements, every element equally likely; bad k', () => {
    const population = Array.from({ length: 10 }, (_, i) => i);
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 10000; i++) {
      const picked = s.sample(population, 3);
      eq(new Set(picked).size, 3, 'distinct');
      for (const p of picked) counts[p]++;
    }
    uniformEnough(counts, 'sample');
    eq(s.sample(population, 0).length, 0, 'k = 0');
    eq(s.sample(population, 10).slice().sort((a, b) => a - b).join(), population.join(), 'k = n');
    eq(population.join(), '0,1,2,3,4,5,6,7,8,9', 'population untouched');
    throwsLike(() => s.sample(population, 11), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }, 'k > n');
    throwsLike(() => s.sample(population, -1), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }, 'k < 0');
    throwsLike(() => s.sample(population, 1.5), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'k 1.5');
    throwsLike(() => s.sample(5, 1), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'population 5');
  });

  // ---- Engine -------------------------------------------------------------------
  test('Engine: deterministic samplers; bad kinds and seeds; wipe', () => {
    const seed = s.randomBytes(32);
    const a = new s.Engine('chacha8rand', seed);
    const b = new s.Engine('chacha8rand', seed);
    for (let i = 0; i < 100; i++) {
      eq(a.randomInt(-1000, 1000), b.randomInt(-1000, 1000), 'randomInt');
      eq(a.bigIntBelow(2n ** 255n - 19n), b.bigIntBelow(2n ** 255n - 19n), 'bigIntBelow');
    }
    for (let i = 0; i < 1000; i++) {
      const x = a.randomInt(5);
      ok(x >= 0 && x < 5, 'randomInt(5)');
    }
    eq(a.kind, 'chacha8rand', 'kind');
    throwsLike(() => new s.Engine('chacha20', seed), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }, 'unknown kind');
    throwsLike(() => new s.Engine(4, seed), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'kind as a number');
    throwsLike(() => new s.Engine('chacha8rand', new Uint8Array(31)), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }, 'short seed');
    throwsLike(() => new s.Engine('turboshake256', 5), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'a number seed');
    throwsLike(() => new s.Engine('turboshake256', null), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, 'a null seed');
    throwsLike(() => a.randomInt(3, 3), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }, 'empty range');
    eq(hexOf(new s.Engine('turboshake256', new ArrayBuffer(0)).bytes(8)), hexOf(new s.Engine('turboshake256', new Uint8Array(0)).bytes(8)), 'ArrayBuffer seed');
    a.wipe();
    a.wipe(); // twice is fine
    throwsLike(() => a.bytes(1), { name: 'TypeError' }, 'after wipe');
    throwsLike(() => a.random(), { name: 'TypeError' }, 'random after wipe');
  });

  test('Engine: structuredClone refuses a live state', () => {
    const e = new s.Engine('chacha8rand', new Uint8Array(32));
    throwsLike(() => structuredClone(e), { name: 'DOMException' }, 'structuredClone');
    e.wipe();
  });

  return list;
}
