// SPDX-License-Identifier: MIT OR Apache-2.0
// The ES module for Node (and Deno and Bun, which present themselves as
// Node): index.cjs's instance, so that `import` and `require` in one
// process share one generator (one state, one UUID v7 order, one Engine
// class). Browsers and workers take browser.mjs.
import { createRequire } from 'node:module';

const api = createRequire(import.meta.url)('./index.cjs');

export const {
  randomBytes, randomFill, randomInt, random, randomUUID, randomUUIDv7, bigIntBelow, shuffle, sample, reseed, Engine, kinds,
  watchesVmGeneration, kernel, version,
} = api;
export default api;
