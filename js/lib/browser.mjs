// SPDX-License-Identifier: MIT OR Apache-2.0
// The ES module for browsers and workers (package.json's "browser"
// condition): fetches the WebAssembly module from beside this file (top-level
// await), once per agent, and exports the API of core.js. Bundlers that
// understand `new URL(..., import.meta.url)` copy the module.
import { chooseKernel, create, makeHost, wasmImports } from './core.js';

const host = makeHost(globalThis.crypto);
const chosen = chooseKernel(globalThis.SHAKERAND_KERNEL, (m) => console.warn(m));
const url = new URL(`./shakerand-${chosen}.wasm`, import.meta.url);
const response = await fetch(url);
if (!response.ok) throw new Error(`shakerand: could not fetch ${url}: ${response.status}`);
const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), wasmImports(host));
const api = Object.freeze(create(instance, host));

export const {
  randomBytes, randomFill, randomInt, random, randomUUID, randomUUIDv7, bigIntBelow, shuffle, sample, reseed, Engine, kinds,
  watchesVmGeneration, kernel, version,
} = api;
export default api;
