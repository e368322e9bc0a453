// SPDX-License-Identifier: MIT OR Apache-2.0
// The suite (suite.js) without a test framework, for runtimes other than
// Node that load the package's Node entry (Deno and Bun present themselves
// as Node): `deno run -A test/runtime.mjs`, `bun test/runtime.mjs`.
// Exit status 0 when every case passed.
import { readFileSync } from 'node:fs';

import * as s from '../lib/index.mjs';
import { create, mulHigh32, wasmImports } from '../lib/core.js';
import { cases } from './suite.js';

const runtime = globalThis.Deno ? `Deno ${Deno.version.deno}` : globalThis.Bun ? `Bun ${Bun.version}` : `Node ${process.version}`;
const root = new URL('../../', import.meta.url);
const text = (path) => readFileSync(new URL(path, root), 'utf8');
async function instantiate(kernel, host) {
  const bytes = readFileSync(new URL(`js/lib/shakerand-${kernel}.wasm`, root));
  const { instance } = await WebAssembly.instantiate(bytes, wasmImports(host));
  return create(instance, host, { testing: true });
}
let failed = 0;
const env = globalThis.Deno ? Deno.env.get('SHAKERAND_KERNEL') : process.env.SHAKERAND_KERNEL;
if (s.kernel !== (env || 'simd128')) {
  failed++;
  console.log(`not ok: the module in use is ${s.kernel}, SHAKERAND_KERNEL=${env}`);
}
const list = cases({ s, vectorsText: text('vectors/shakerand.json'), randomshake: JSON.parse(text('vectors/randomshake.json')),
  instantiate, mulHigh32 });
for (const c of list) {
  try {
    await c.fn();
    console.log(`ok: ${c.name}`);
  } catch (e) {
    failed++;
    console.log(`not ok: ${c.name}: ${e && e.stack ? e.stack : e}`);
  }
}
console.log(`${runtime}, module ${s.kernel}: ${failed === 0 ? `all ${list.length} cases passed` : `${failed} of ${list.length} failed`}`);
if (failed !== 0) (globalThis.Deno ? Deno.exit : process.exit)(1);
