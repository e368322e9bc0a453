// SPDX-License-Identifier: MIT OR Apache-2.0
// The suite (suite.js) under `node --test`, plus what only Node can check:
// crypto.randomInt's own errors as the oracle for ours, the CommonJS
// entry, the modules' imports, and the package as a user installs it
// (pack.test.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as crypto from 'node:crypto';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

import * as s from '../lib/index.mjs';
import { create, mulHigh32, wasmImports } from '../lib/core.js';
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

test('node: the modules import nothing but entropy', () => {
  for (const kernel of ['portable', 'simd128']) {
    const imports = WebAssembly.Module.imports(new WebAssembly.Module(wasm(kernel)));
    assert.deepEqual(imports, [{ module: 'env', name: 'entropy', kind: 'function' }]);
  }
});

test('node: the CommonJS entry has the same API and kernel choice', () => {
  const c = createRequire(import.meta.url)('../lib/index.cjs');
  assert.deepEqual(Object.keys(c).filter((k) => k !== 'default').sort(), Object.keys(s.default).sort());
  assert.equal(c.kernel, s.kernel);
  assert.match(c.randomUUID(), /^[0-9a-f-]{36}$/);
  const seed = new Uint8Array(32).fill(1);
  assert.deepEqual(new c.Engine('chacha8rand', seed).bytes(64), new s.Engine('chacha8rand', seed).bytes(64));
});

test('node: each worker thread has its own generator; an Engine cannot be posted to one', async () => {
  const url = new URL('../lib/index.mjs', import.meta.url).href;
  const source = `import(${JSON.stringify(url)}).then((s) => require('node:worker_threads').parentPort.postMessage(
    Buffer.from(s.randomBytes(32)).toString('hex')))`;
  const run = () => new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true });
    worker.once('message', (m) => resolve({ worker, m }));
    worker.once('error', reject);
  });
  const [a, b] = await Promise.all([run(), run()]);
  const mine = Buffer.from(s.randomBytes(32)).toString('hex');
  assert.equal(new Set([a.m, b.m, mine]).size, 3);
  assert.throws(() => a.worker.postMessage(new s.Engine('chacha8rand', new Uint8Array(32))), { name: 'DataCloneError' });
  await Promise.all([a.worker.terminate(), b.worker.terminate()]);
});
