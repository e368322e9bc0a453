// SPDX-License-Identifier: MIT OR Apache-2.0
// The ES module: loads the WebAssembly core once per agent (top-level
// await) and exports the API of core.js. In Node it is index.cjs's
// instance, so that `import` and `require` in one process share one
// generator (one state, one UUID v7 order, one Engine class); elsewhere
// the module is fetched from the URL beside this file (bundlers that
// understand `new URL(..., import.meta.url)` copy it).
import { chooseKernel, create, wasmImports } from './core.js';

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;

async function loadInBrowser() {
  const webcrypto = globalThis.crypto != null && typeof globalThis.crypto.getRandomValues === 'function' ? globalThis.crypto : null;
  const host = { getRandomValues: webcrypto ? webcrypto.getRandomValues.bind(webcrypto) : null, memory: null };
  const kernel = chooseKernel(globalThis.SHAKERAND_KERNEL, (m) => console.warn(m));
  const url = new URL(`./shakerand-${kernel}.wasm`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`shakerand: could not fetch ${url}: ${response.status}`);
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), wasmImports(host));
  return create(instance, host);
}

const api = isNode ? (await import('node:module')).createRequire(import.meta.url)('./index.cjs') : await loadInBrowser();

export const {
  randomBytes,
  randomFill,
  randomInt,
  random,
  randomUUID,
  randomUUIDv7,
  bigIntBelow,
  shuffle,
  sample,
  reseed,
  Engine,
  kinds,
  kernel,
  version,
} = api;
export default api;
