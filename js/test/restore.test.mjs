// SPDX-License-Identifier: MIT OR Apache-2.0
// Snapshots in Node (js/README.md, "Snapshots"): the vmclock page watched
// before each value, through core.js's testing-only path to a regular file
// laid out as the page (struct vmclock_abi), and the reseed at a restore:
// the kernel's bytes, a CPU-jitter sample's digest in the material, no
// more native fills. Known answers come from tools/shakerand_ref.py.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { NATIVE_FILL, create, makeHost, makeRestoreHost, wasmImports } from '../lib/core.js';

const kernelName = process.env.SHAKERAND_KERNEL || 'simd128';
const module = new WebAssembly.Module(fs.readFileSync(new URL(`../lib/shakerand-${kernelName}.wasm`, import.meta.url)));
const dir = fs.mkdtempSync(path.join(tmpdir(), 'shakerand-js-vmclock-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const hex = (bytes) => Buffer.from(bytes).toString('hex');

// A page as QEMU gives it (the flags without the counter's: the marker is
// watched) or as Firecracker (the flag set: the counter is).
const DISRUPTION = 16;
const VM_GEN = 104;
let pages = 0;
function page({ magic = 0x4b4c4356, size = 4096, version = 1, seq = 0, flags = 0, marker = 1n, counter = 0n, bytes = 4096 } = {}) {
  const b = Buffer.alloc(bytes);
  if (bytes >= 112) {
    b.writeUInt32LE(magic, 0);
    b.writeUInt32LE(size, 4);
    b.writeUInt16LE(version, 8);
    b.writeUInt32LE(seq, 12);
    b.writeBigUInt64LE(marker, DISRUPTION);
    b.writeBigUInt64LE(BigInt(flags), 24);
    b.writeBigUInt64LE(counter, VM_GEN);
  }
  const file = path.join(dir, `page-${pages++}`);
  fs.writeFileSync(file, b);
  return file;
}
function setWord(file, offset, value) {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(value);
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, b, 0, 8, offset);
  fs.closeSync(fd);
}

// Fixed sources, so that two instances are alike until a restore: the
// seeds' 32 bytes (0..31 from getRandomValues, 100..131 from the "kernel"),
// and a timer that ticks 100 a read (every jitter delta 100).
const OS = Uint8Array.from({ length: 32 }, (_, i) => i);
const KERNEL = Uint8Array.from({ length: 32 }, (_, i) => 100 + i);
function instance(file, { nativeFill = null, kernel = KERNEL, nativePiece = 0, fsForHost = fs } = {}) {
  const calls = { getRandomValues: 0, kernel: [], clock: 0, native: 0 };
  let ticks = 0n;
  const restore = makeRestoreHost(fsForHost, () => (calls.clock++, (ticks += 100n)), file);
  restore.readKernel = (view) => (calls.kernel.push(view.length), view.set(kernel));
  const host = makeHost({ getRandomValues: (view) => (calls.getRandomValues++, view.set(OS)) },
    nativeFill && ((view) => (calls.native++, nativeFill(view))), restore);
  host.nativePieceForTesting = nativePiece;
  const api = create(new WebAssembly.Instance(module, wasmImports(host)), host, { testing: true });
  return { api, host, calls };
}

// varied as real output for the native fills' checks.
let standIn = 1;
const varied = (view) => {
  for (let i = 0; i < view.length; i++) {
    standIn = (Math.imul(standIn, 1103515245) + 12345) >>> 0;
    view[i] = standIn >>> 24;
  }
};

// tools/shakerand_ref.py: the first 32 bytes of chacha8rand keyed by
// system_engine_seed("chacha8rand", system_conditioner(os, [], counter, jitter)),
// for OS and counter 1, no digest; for KERNEL and counter 2 with
// jitter_digest([100] * 2048); and the same without the digest.
const FIRST_SEED = 'b420a28f3182c32fb7856fbe994cda4fe91e25964861add08dc621126f209421';
const RESTORE_SEED = '57aa3ab0481dee43eb30c7855ab1de7db3f33b832ad95397169c44d3eed659bd';
const RESTORE_SEED_WITHOUT_DIGEST = '985661780baf7b3c04649c5b97bf08ab46db565f0be3dba502a93c307a6e030a';
const DIGEST_OF_HUNDREDS = 'e78f5fa7ff3cc25a2f9e4d0799e30e8a3926e435b4a9ac2bc5b4aec742f2abe1';

// Every call of the system generator, each drawing once.
const draws = {
  random: (a) => a.random(),
  'randomBytes(16)': (a) => hex(a.randomBytes(16)),
  'randomBytes(1000)': (a) => hex(a.randomBytes(1000)),
  'randomFill(NATIVE_FILL)': (a) => hex(a.randomFill(new Uint8Array(NATIVE_FILL))),
  randomInt: (a) => a.randomInt(2 ** 40),
  randomUUID: (a) => a.randomUUID(),
  randomUUIDv7: (a) => a.randomUUIDv7().slice(14),
  shuffle: (a) => a.shuffle(Array.from({ length: 20 }, (_, i) => i)).join(),
  sample: (a) => a.sample(Array.from({ length: 20 }, (_, i) => i), 5).join(),
  bigIntBelow: (a) => String(a.bigIntBelow(2n ** 200n)),
};

for (const [flags, offset, what] of [[0, DISRUPTION, 'the disruption marker'], [1 << 8, VM_GEN, 'the VM generation counter (its flag set)']])
  test(`restore: moving ${what} reseeds before the next value of every call; the other word moves nothing`, (t) => {
    // One millisecond for every UUID v7, so that a and b count alike.
    const now = Date.now();
    t.mock.method(Date, 'now', () => now);
    for (const [name, draw] of Object.entries(draws)) {
      const moved = page({ flags });
      const still = page({ flags });
      const a = instance(moved).api;
      const b = instance(still).api;
      assert.ok(a.watchesVmGeneration && b.watchesVmGeneration, 'both watched');
      assert.equal(draw(a), draw(b), `${name}: alike before`);
      // The word not watched moves: nothing changes.
      setWord(moved, offset === DISRUPTION ? VM_GEN : DISRUPTION, 7n);
      assert.equal(draw(a), draw(b), `${name}: the other word`);
      setWord(moved, offset, 2n);
      assert.notEqual(draw(a), draw(b), `${name}: after the move, not what it would have been`);
    }
  });

test('restore: the buffer is dropped, the kernel read, the jitter digest in the material (known answers); once a restore', () => {
  const file = page();
  const { api, calls } = instance(file);
  assert.equal(hex(api.randomBytes(32)), FIRST_SEED, 'the first seed: getRandomValues, no digest');
  assert.deepEqual([calls.getRandomValues, calls.kernel.length, calls.clock], [1, 0, 0], 'no sample without a restore');
  setWord(file, DISRUPTION, 2n);
  assert.equal(hex(api.randomBytes(32)), RESTORE_SEED, 'the seed after the move: the kernel, counter 2, the digest');
  assert.notEqual(RESTORE_SEED, RESTORE_SEED_WITHOUT_DIGEST);
  assert.deepEqual(calls.kernel, [32], 'the kernel read once, 32 bytes');
  assert.equal(calls.getRandomValues, 1, 'getRandomValues not read for it');
  assert.equal(calls.clock, 2049, 'one sample: 2048 deltas');
  for (let i = 0; i < 100; i++) api.random();
  api.randomBytes(5000);
  assert.equal(calls.clock, 2049, 'no second sample without a second restore');
  // A later seed of the same epoch (the byte budget) reads the kernel too.
  api.randomFill(new Uint8Array(16 * 1024 * 1024));
  assert.deepEqual([calls.getRandomValues, calls.kernel.length, calls.clock], [1, 2, 2049], 'the budget reseed');
  setWord(file, DISRUPTION, 3n);
  api.random();
  assert.deepEqual([calls.kernel.length, calls.clock], [3, 2 * 2049], 'a second restore, a second sample');
});

test('restore: the derivation with a jitter digest is the reference model\'s', () => {
  const { api } = instance(page());
  const digest = Buffer.from(DIGEST_OF_HUNDREDS, 'hex');
  const key = api.testing.deriveKey(KERNEL, 2n, digest);
  const withDigest = hex(new api.Engine('chacha8rand', key).bytes(32));
  const without = hex(new api.Engine('chacha8rand', api.testing.deriveKey(KERNEL, 2n)).bytes(32));
  assert.deepEqual([withDigest, without], [RESTORE_SEED, RESTORE_SEED_WITHOUT_DIGEST]);
});

test('restore: two clones with the same kernel bytes differ through the jitter sample\'s timer alone', () => {
  const file = page();
  const make = (step) => {
    let ticks = 0n;
    const restore = makeRestoreHost(fs, () => (ticks += step), file);
    restore.readKernel = (view) => view.set(KERNEL);
    const host = makeHost({ getRandomValues: (view) => view.set(OS) }, null, restore);
    return create(new WebAssembly.Instance(module, wasmImports(host)), host);
  };
  const [a, b, c] = [make(100n), make(100n), make(101n)];
  for (const x of [a, b, c]) x.random();
  setWord(file, DISRUPTION, 9n);
  const [ra, rb, rc] = [a, b, c].map((x) => hex(x.randomBytes(32)));
  assert.equal(ra, rb, 'the same timings: alike');
  assert.notEqual(ra, rc, 'other timings: differ');
});

test('restore: a native fill after a move goes through WebAssembly, also from the next piece of a fill', () => {
  const file = page();
  const { api, calls } = instance(file, { nativeFill: varied });
  api.randomBytes(NATIVE_FILL);
  assert.equal(calls.native, 1, 'native before');
  setWord(file, DISRUPTION, 2n);
  const after = api.randomBytes(NATIVE_FILL);
  assert.equal(calls.native, 1, 'not native after the move');
  assert.ok(after.filter((x) => x !== 0).length > NATIVE_FILL * 0.97, 'filled');
  // A move while the host fills a piece: the rest of that fill from WebAssembly.
  const file2 = page();
  let seen = 0;
  const { api: api2, calls: calls2 } = instance(file2, {
    nativeFill: (view) => {
      varied(view);
      if (++seen === 1) setWord(file2, DISRUPTION, 5n);
    },
    nativePiece: NATIVE_FILL,
  });
  const out = api2.randomBytes(4 * NATIVE_FILL);
  assert.equal(calls2.native, 1, 'one native piece, then WebAssembly');
  assert.ok(out.subarray(NATIVE_FILL).filter((x) => x !== 0).length > 3 * NATIVE_FILL * 0.97, 'the rest filled');
});

test('restore: a move seen at the refill the native check\'s own draws make stops that piece going native', () => {
  // The page moves right after the call's first read, so the call's entry
  // sees nothing and the refill inside the piece's armed draws sees it.
  const file = page();
  let reads = 0;
  let armed = false;
  const fsForHost = {
    ...fs,
    readSync: (...args) => {
      const n = fs.readSync(...args);
      if (armed && ++reads === 1) setWord(file, DISRUPTION, 2n);
      return n;
    },
  };
  const { api, calls } = instance(file, { nativeFill: varied, fsForHost });
  // 4 buffered words left (fills of 256 bytes or less come from the
  // buffer), so that the armed draws refill.
  api.randomBytes(4);
  for (let i = 0; i < 15; i++) api.randomBytes(256);
  api.randomBytes(4 * (1024 - 1 - 15 * 64 - 4));
  armed = true;
  const out = api.randomBytes(NATIVE_FILL);
  assert.equal(reads, 2, 'the entry\'s read, then the refill\'s');
  assert.equal(calls.native, 0, 'no native piece after the move');
  assert.equal(calls.kernel.length, 1, 'the restore\'s reseed');
  assert.ok(out.filter((x) => x !== 0).length > NATIVE_FILL * 0.97, 'filled');
});

test('restore: a move during a call that draws many words is seen at its next refill', () => {
  const moved = page();
  const a = instance(moved).api;
  const b = instance(page()).api;
  // The word moves after 100 swaps, while 1024 buffered words are left.
  let sets = 0;
  const watched = new Proxy(Array.from({ length: 3000 }, (_, i) => i), {
    set(target, key, value) {
      if (++sets === 200) setWord(moved, DISRUPTION, 2n);
      target[key] = value;
      return true;
    },
  });
  const mine = Array.from(a.shuffle(watched));
  const theirs = b.shuffle(Array.from({ length: 3000 }, (_, i) => i));
  // Fisher-Yates fixes the end first: the last 100 places are alike.
  assert.deepEqual(mine.slice(-100), theirs.slice(-100), 'before the move');
  assert.notDeepEqual(mine.slice(0, 1000), theirs.slice(0, 1000), 'after the next refill');
});

test('restore: reseed() is a restore: the kernel, a sample, no native fills; the page word taken as seen', () => {
  const file = page();
  const { api, calls } = instance(file, { nativeFill: varied });
  api.random();
  api.reseed();
  assert.deepEqual([calls.getRandomValues, calls.kernel.length, calls.clock], [1, 1, 2049]);
  api.randomBytes(NATIVE_FILL);
  assert.equal(calls.native, 0, 'no native fill after reseed()');
  api.random();
  assert.equal(calls.kernel.length, 1, 'the unmoved word: no second reseed');
});

test('restore: a move whose reseed failed is still a move: the next call samples and reseeds again', () => {
  const file = page();
  const { api, host, calls } = instance(file);
  api.random();
  setWord(file, DISRUPTION, 2n);
  const readKernel = host.restore.readKernel;
  host.restore.readKernel = () => {
    throw new Error('no kernel');
  };
  assert.throws(() => api.random(), { code: 'ERR_SHAKERAND_ENTROPY' });
  host.restore.readKernel = readKernel;
  api.random();
  assert.equal(calls.clock, 2 * 2049, 'a second jitter sample');
  api.random();
  assert.equal(calls.clock, 2 * 2049, 'then the word is seen');
});

test('restore: a page that cannot be read any more counts as a move, each time; no crash', () => {
  const file = page();
  const { api, calls } = instance(file);
  api.random();
  fs.truncateSync(file, 20); // short reads from now on
  api.random();
  api.random();
  api.random();
  assert.equal(calls.kernel.length, 3, 'a reseed each value');
  assert.equal(calls.clock, 2049, 'one jitter sample while the reads keep failing');
  fs.writeFileSync(file, fs.readFileSync(page({ marker: 2n })));
  api.random();
  assert.deepEqual([calls.kernel.length, calls.clock], [4, 2 * 2049], 'read again with a new word: a new sample');
  api.reseed();
  assert.equal(calls.clock, 3 * 2049, 'reseed() samples');
});

// The watched page's descriptor, as makeRestoreHost opened it.
function watchedFd(file) {
  const opened = [];
  const openSync = (p, ...rest) => {
    const fd = fs.openSync(p, ...rest);
    if (p === file) opened.push(fd);
    return fd;
  };
  return { fsForHost: { ...fs, openSync }, opened };
}

test('restore: the watch\'s descriptor closed by other code, or its number then naming another file: a move, then the page opened again', () => {
  for (const other of [null, { marker: 9n }, { marker: 0n, magic: 0 }]) {
    const file = page({ marker: 0n });
    const { fsForHost, opened } = watchedFd(file);
    const { api, calls } = instance(file, { fsForHost });
    const fd = opened[0];
    api.random();
    fs.closeSync(fd);
    // The number taken by another file: a page (another word), or zeros.
    const taken = other && fs.openSync(page(other), 'r');
    if (other) assert.equal(taken, fd, 'the number reused');
    const what = other ? `reused (${JSON.stringify(other, (k, v) => String(v))})` : 'closed';
    api.random();
    assert.deepEqual([calls.kernel.length, calls.clock], [1, 2049], `${what}: a reseed, a sample`);
    assert.equal(opened.length, 2, `${what}: the page opened again`);
    api.random();
    api.random();
    assert.equal(calls.kernel.length, 1, `${what}: then watched as before`);
    setWord(file, DISRUPTION, 5n);
    api.random();
    assert.deepEqual([calls.kernel.length, calls.clock], [2, 2 * 2049], `${what}: a move after it is seen`);
    if (other) fs.closeSync(taken);
    fs.closeSync(opened[1]);
  }
});

test('restore: a later patch of the fs object given reaches neither the watch nor the kernel read', () => {
  const file = page();
  const patched = { ...fs };
  const restore = makeRestoreHost(patched, () => 0n, file);
  patched.readSync = patched.openSync = patched.fstatSync = () => {
    throw new Error('patched');
  };
  const word = new Int32Array(2);
  assert.ok(restore.watch.read(word), 'the page read');
  restore.readKernel(new Uint8Array(32));
});

test('restore: a seed that fails after a restore says the kernel read failed, with what it threw as the cause', () => {
  const file = page();
  const { api, host } = instance(file);
  api.random();
  setWord(file, DISRUPTION, 2n);
  const readKernel = host.restore.readKernel;
  const cause = new Error('no kernel');
  host.restore.readKernel = () => {
    throw cause;
  };
  for (const call of [() => api.random(), () => api.reseed()])
    assert.throws(call, (e) => e.code === 'ERR_SHAKERAND_ENTROPY' && e.cause === cause && /\/dev\/urandom/.test(e.message));
  host.restore.readKernel = readKernel;
  api.random();
  // A later seed (the byte budget) reads the kernel too, and says so.
  host.restore.readKernel = () => {
    throw cause;
  };
  assert.throws(() => api.randomFill(new Uint8Array(16 * 1024 * 1024)),
    (e) => e.code === 'ERR_SHAKERAND_ENTROPY' && e.cause === cause && /\/dev\/urandom/.test(e.message));
});

test('restore: a sequence count held odd does not hang; the word is still watched', () => {
  const file = page({ seq: 1 });
  const a = instance(file);
  const b = instance(page({ seq: 1 }));
  assert.ok(a.api.watchesVmGeneration);
  assert.equal(a.api.random(), b.api.random());
  setWord(file, DISRUPTION, 2n);
  assert.notEqual(a.api.random(), b.api.random());
});

test('restore: bad paths and malformed pages leave the watch off, never a crash', () => {
  const fifo = path.join(dir, 'fifo');
  try {
    execFileSync('mkfifo', [fifo]);
  } catch {
    // no mkfifo: that case is skipped
  }
  const bad = {
    'no such file': path.join(dir, 'absent'),
    'an empty path': '',
    'a number': 42,
    'an object': {},
    'a directory': dir,
    'a character device': '/dev/zero',
    'a fifo': fifo,
    'a file shorter than the structure': page({ bytes: 111 }),
    'an empty file': page({ bytes: 0 }),
    'a wrong magic': page({ magic: 0x4b4c4357 }),
    'version 2': page({ version: 2 }),
    'version 0': page({ version: 0 }),
    'a size below the structure': page({ size: 111 }),
  };
  for (const [what, file] of Object.entries(bad)) {
    if (what === 'a fifo' && !fs.existsSync(fifo)) continue;
    const restore = makeRestoreHost(fs, () => 0n, file);
    assert.equal(restore.watch, null, `${what}: no watch`);
    const { api, calls } = instance(file);
    assert.equal(api.watchesVmGeneration, false, what);
    assert.equal(typeof api.random(), 'number', `${what}: draws`);
    assert.equal(calls.kernel.length, 0, `${what}: no restore`);
  }
  assert.ok(makeRestoreHost(fs, () => 0n, page()).watch !== null, 'the good page is watched');
});

test('restore: the real kernel read fills from /dev/urandom', () => {
  const restore = makeRestoreHost(fs, () => 0n, path.join(dir, 'absent'));
  const a = new Uint8Array(32);
  const b = new Uint8Array(32);
  restore.readKernel(a);
  restore.readKernel(b);
  assert.ok(new Set(a).size >= 18 && hex(a) !== hex(b));
});

test('restore: the Node entry watches /dev/vmclock0 only, and its reseed() reads /dev/urandom, not getRandomValues', () => {
  const entry = new URL('../lib/index.cjs', import.meta.url).pathname;
  // fs.openSync and getRandomValues counted before the entry loads.
  const script = `const fs = require('node:fs');
    const c = require('node:crypto');
    const opened = [];
    const open = fs.openSync;
    fs.openSync = (p, ...rest) => (opened.push(String(p)), open(p, ...rest));
    let gets = 0;
    const get = c.webcrypto.getRandomValues;
    c.webcrypto.getRandomValues = function (v) { gets++; return get.call(this, v); };
    const s = require(${JSON.stringify(entry)});
    s.random();
    const before = gets;
    s.reseed();
    s.random();
    console.log(JSON.stringify({ opened, gets: gets - before, watches: s.watchesVmGeneration }));`;
  const got = JSON.parse(execFileSync(process.execPath, ['-e', script]).toString());
  const device = fs.existsSync('/dev/vmclock0');
  assert.deepEqual(got.opened.filter((p) => p.startsWith('/dev/')), ['/dev/vmclock0', '/dev/urandom']);
  assert.equal(got.gets, 0, 'getRandomValues not read by the reseed');
  if (!device) assert.equal(got.watches, false, 'no device here');
});
