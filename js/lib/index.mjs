// SPDX-License-Identifier: MIT OR Apache-2.0
// The ES module: loads the WebAssembly core once per agent (top-level
// await) and exports the API of core.js. In Node the module's file is read
// from beside this one; elsewhere it is fetched from the URL beside this
// module (bundlers that understand `new URL(..., import.meta.url)` copy it).
import { chooseKernel, create, wasmImports } from './core.js';

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;

async function nodeCrypto() {
  const crypto = await import('node:crypto');
  return crypto.webcrypto;
}

async function load() {
  const webcrypto =
    globalThis.crypto != null && typeof globalThis.crypto.getRandomValues === 'function'
      ? globalThis.crypto
      : isNode
        ? await nodeCrypto() // Node 18 without the global
        : null;
  const host = { getRandomValues: webcrypto ? webcrypto.getRandomValues.bind(webcrypto) : null, memory: null };
  const forced = isNode ? process.env.SHAKERAND_KERNEL : globalThis.SHAKERAND_KERNEL;
  const kernel = chooseKernel(forced, (m) => console.warn(m));
  const url = new URL(`./shakerand-${kernel}.wasm`, import.meta.url);
  let instance;
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    ({ instance } = await WebAssembly.instantiate(await readFile(url), wasmImports(host)));
  } else {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`shakerand: could not fetch ${url}: ${response.status}`);
    ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), wasmImports(host)));
  }
  return create(instance, host);
}

const api = await load();

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
