// SPDX-License-Identifier: MIT OR Apache-2.0
// The suite (suite.js) under `node --test`, plus what only Node can check:
// crypto.randomInt's own errors as the oracle for ours, the CommonJS
// entry, the modules' imports, and the package as a user installs it
// (pack.test.mjs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as crypto from 'node:crypto';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';

import * as s from '../lib/index.mjs';
import { NATIVE_FILL, create, mulHigh32, wasmImports } from '../lib/core.js';
import { cases } from './suite.js';

const root = new URL('../../', import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const wasm = (kernel) => readFileSync(new URL(`js/lib/shakerand-${kernel}.wasm`, root));

async function instantiate(kernel, host) {
  const { instance } = await WebAssembly.instantiate(wasm(kernel), wasmImports(host));
  return create(instance, host, { testing: true });
}

for (const c of cases({
  s,
  vectorsText: readFileSync(new URL('vectors/shakerand.json', root), 'utf8'),
  randomshake: json('vectors/randomshake.json'),
  instantiate,
  mulHigh32,
}))
  test(c.name, c.fn);

test('node: the module picked by feature detection, or by SHAKERAND_KERNEL', () => {
  assert.equal(s.kernel, process.env.SHAKERAND_KERNEL || 'simd128');
});

test('node: bad randomInt arguments throw exactly what crypto.randomInt throws', () => {
  const bad = [[1.5], ['1'], [0], [5, 5], [0, 2 ** 48], [2 ** 48], [2 ** 53, 1], [1, 2, 3], [-1], [undefined],
    [null, 1], [{}], [NaN], [1n], [Infinity], [-Infinity, 0], [[]], [() => 1], [0, 1, null], [true]];
  for (const args of bad) {
    let theirs;
    try {
      crypto.randomInt(...args);
    } catch (e) {
      theirs = e;
    }
    assert.ok(theirs, `crypto.randomInt(${args}) threw`);
    assert.throws(() => s.randomInt(...args), (ours) => {
      assert.equal(ours.constructor, theirs.constructor, `class for ${args}`);
      assert.equal(ours.code, theirs.code, `code for ${args}`);
      assert.equal(ours.message, theirs.message, `message for ${args}`);
      return true;
    });
  }
});

function detached() {
  const b = new ArrayBuffer(8);
  structuredClone(b, { transfer: [b] });
  return b;
}

function sameErrors(name, ours, theirs, argLists) {
  for (const args of argLists) {
    let expected = null;
    try {
      theirs(...args);
    } catch (e) {
      expected = e;
    }
    let got = null;
    try {
      ours(...args);
    } catch (e) {
      got = e;
    }
    const what = `${name}(${args.map((a) => (typeof a === 'object' && a !== null ? a.constructor?.name ?? 'null-proto' : String(a)))})`;
    if (expected === null) {
      assert.equal(got, null, `${what}: Node accepts it`);
      continue;
    }
    assert.ok(got !== null, `${what}: Node throws ${expected.message}`);
    assert.equal(got.constructor, expected.constructor, `${what}: class`);
    assert.equal(got.code, expected.code, `${what}: code`);
    assert.equal(got.message, expected.message, `${what}: message`);
  }
}

test('node: randomBytes, randomFill and randomUUID accept and refuse what crypto does, with its errors', () => {
  const sizes = [[0], [1], [1.5], [-1], [2 ** 31], [2 ** 31 - 0.5], [NaN], [Infinity], ['8'], [null], [undefined],
    [Object.create(null)], [8n], [{}], [3, 'x'], [3, null], [3, 5]];
  sameErrors('randomBytes', s.randomBytes, crypto.randomBytes, sizes);
  const u16 = () => new Uint16Array(4);
  const fills = [[u16()], [u16(), 1], [u16(), 1, 2], [u16(), 5], [u16(), -1], [u16(), '1'], [u16(), 1, 4],
    [u16(), 0, NaN], [u16(), 1.5], [u16(), undefined, 2], [u16(), 0, 2.5], [new ArrayBuffer(8), 3, 10],
    [u16(), 4, 0], [new DataView(new ArrayBuffer(8)), 2], [5], ['abc'], [[1, 2]], [null], [u16(), Infinity],
    [new Float64Array(2), 1, 1], [new SharedArrayBuffer(16)], [new Int32Array(new SharedArrayBuffer(16)), 1, 2],
    [runInNewContext('new ArrayBuffer(8)')], [runInNewContext('new Uint8Array(8)'), 2], [detached()],
    [new ArrayBuffer(8, { maxByteLength: 16 })]];
  sameErrors('randomFill', s.randomFill, crypto.randomFillSync, fills);
  // Buffers of another realm, shared ones, and detached ones are filled (or left) as Node does.
  for (const make of [() => runInNewContext('new ArrayBuffer(64)'), () => new SharedArrayBuffer(64)]) {
    const b = make();
    s.randomFill(b);
    assert.ok(new Uint8Array(b).some((x) => x !== 0));
  }
  const gone = detached();
  assert.equal(s.randomFill(gone), gone);
  const options = [[], [{}], [{ disableEntropyCache: true }], [{ disableEntropyCache: 'x' }], [[]], [null], [5], ['x']];
  sameErrors('randomUUID', s.randomUUID, crypto.randomUUID, options);
});

test("node: the entry sends the system generator's fills from NATIVE_FILL bytes to crypto.randomFillSync", () => {
  const entry = new URL('../lib/index.cjs', import.meta.url).pathname;
  // crypto.randomFillSync counted before the entry loads (it takes the function then).
  const script = `const c = require('node:crypto');
    const real = c.randomFillSync;
    const sizes = [];
    c.randomFillSync = (buf, ...rest) => (sizes.push(buf.byteLength), real(buf, ...rest));
    const s = require(${JSON.stringify(entry)});
    const { runInNewContext } = require('node:vm');
    s.randomBytes(100);
    s.randomBytes(NATIVE_FILL - 1);
    new s.Engine('chacha8rand', new Uint8Array(32)).bytes(1 << 20);
    const filled = [s.randomFill(new Uint8Array(1 << 20)), s.randomBytes(NATIVE_FILL),
      s.randomFill(new SharedArrayBuffer(NATIVE_FILL)), s.randomFill(runInNewContext('new Uint32Array(NATIVE_FILL)'), 4)];
    const nonZero = filled.map((b) => new Uint8Array(b.buffer ?? b).filter((x) => x !== 0).length);
    console.log(JSON.stringify({ sizes, nonZero }));`.replaceAll('NATIVE_FILL', String(NATIVE_FILL));
  const { sizes, nonZero } = JSON.parse(execFileSync(process.execPath, ['-e', script]).toString());
  assert.deepEqual(sizes, [1 << 20, NATIVE_FILL, NATIVE_FILL, 4 * NATIVE_FILL - 16]);
  // Each buffer holds nearly all non-zero bytes (a zero byte has odds 1/256).
  const lengths = [1 << 20, NATIVE_FILL, NATIVE_FILL, 4 * NATIVE_FILL - 16];
  nonZero.forEach((n, i) => assert.ok(n > lengths[i] * 0.97, `buffer ${i}: ${n} non-zero bytes`));
});

test("node: a randomFillSync mock installed before the entry loads, good ends and zeros between, is refused (issue 45)", () => {
  const entry = new URL('../lib/index.cjs', import.meta.url).pathname;
  const script = `const c = require('node:crypto');
    const real = c.randomFillSync;
    c.randomFillSync = (buf) => { real(buf); buf.fill(0, 32, buf.length - 32); return buf; };
    const s = require(${JSON.stringify(entry)});
    const out = new Uint8Array(1 << 20);
    let code = null;
    try { s.randomFill(out); } catch (e) { code = e.code; }
    console.log(JSON.stringify({ code, nonZero: out.filter((x) => x !== 0).length }));`;
  const { code, nonZero } = JSON.parse(execFileSync(process.execPath, ['-e', script]).toString());
  assert.equal(code, 'ERR_SHAKERAND_ENTROPY');
  assert.equal(nonZero, 0, 'nothing handed out');
});

test('node: the modules import nothing but entropy', () => {
  for (const kernel of ['portable', 'simd128']) {
    const imports = WebAssembly.Module.imports(new WebAssembly.Module(wasm(kernel)));
    assert.deepEqual(imports, [{ module: 'env', name: 'entropy', kind: 'function' }]);
  }
});

test('node: import and require share one instance (one generator, one Engine class)', () => {
  const c = createRequire(import.meta.url)('../lib/index.cjs');
  assert.equal(c, s.default);
  assert.equal(c.Engine, s.Engine);
  assert.equal(c.randomUUIDv7, s.randomUUIDv7);
  assert.ok(s.randomUUIDv7() < c.randomUUIDv7());
});

test('node: each worker thread has its own generator; an Engine cannot be posted to one', async () => {
  const url = new URL('../lib/index.mjs', import.meta.url).href;
  // The worker listens, so it is alive (and messages are serialized) until terminated.
  const source = `const { parentPort } = require('node:worker_threads');
    parentPort.on('message', () => {});
    import(${JSON.stringify(url)}).then((s) => parentPort.postMessage(Buffer.from(s.randomBytes(32)).toString('hex')))`;
  const run = () => new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true });
    worker.once('message', (m) => resolve({ worker, m }));
    worker.once('error', reject);
  });
  const [a, b] = await Promise.all([run(), run()]);
  const mine = Buffer.from(s.randomBytes(32)).toString('hex');
  assert.equal(new Set([a.m, b.m, mine]).size, 3);
  assert.throws(() => a.worker.postMessage(new s.Engine('chacha8rand', new Uint8Array(32))), { name: 'DataCloneError' });
  assert.throws(() => new MessageChannel().port1.postMessage(new s.Engine('chacha8rand', new Uint8Array(32))), {
    name: 'DataCloneError',
  });
  await Promise.all([a.worker.terminate(), b.worker.terminate()]);
});

// The C command line as an oracle of the binding (lengths, byte order):
// SHAKERAND_CLI names it (js/run-tests.sh sets it when build/shakerand is built).
test('node: Engine.bigIntBelow gives the C CLI\'s numbers (shakerand int --below --seed)', (t) => {
  const cli = process.env.SHAKERAND_CLI;
  if (!cli) return t.skip('SHAKERAND_CLI is not set (make build-c, then js/run-tests.sh sets it)');
  for (const bound of [0xaadd9db8dbe9c48b3fd4e6ae33c9fc07n, 1000n, 2n ** 521n - 1n, 3n]) {
    for (const seedHex of ['0102', '', 'ff'.repeat(200)]) {
      const out = execFileSync(cli, ['int', '--below', `0x${bound.toString(16)}`, '--count', '40', '--seed', seedHex, '--hex']);
      const theirs = out.toString().trim().split('\n').map((h) => BigInt(`0x${h}`));
      const e = new s.Engine('turboshake256', Uint8Array.from(seedHex.match(/../g) ?? [], (h) => parseInt(h, 16)));
      assert.deepEqual(theirs.map(() => e.bigIntBelow(bound)), theirs, `bound ${bound}, seed ${seedHex.slice(0, 8)}`);
    }
  }
});
