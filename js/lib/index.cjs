// SPDX-License-Identifier: MIT OR Apache-2.0
// The CommonJS entry (require): index.mjs's API, loaded synchronously.
// require cannot load the ES module core.js before Node 22, and a second
// copy would cost a fifth of the package, so its text runs here as a
// function body, `export ` dropped from its top-level declarations.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { randomFillSync, webcrypto } = require('node:crypto');

function loadCore() {
  const filename = path.join(__dirname, 'core.js');
  const names = [];
  const body = fs.readFileSync(filename, 'utf8').replace(
    /^export (function|class|const) ([A-Za-z0-9_$]+)/gm,
    (_, what, name) => {
      names.push(name);
      return `${what} ${name}`;
    },
  );
  if (/^(export|import)\b/m.test(body) || /\bimport\.meta\b/.test(body))
    throw new Error('shakerand: lib/core.js has an ES-only form index.cjs cannot run');
  const source = `'use strict';\n${body}\nreturn { ${names.join(', ')} };\n`;
  try {
    // This realm's Function: in a sandbox that runs this file in a context
    // of its own (Jest), the API's arrays and errors are the sandbox's.
    return new Function(`${source}//# sourceURL=${filename}`)();
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    // --disallow-code-generation-from-strings: vm still compiles.
    return vm.runInThisContext(`(function () {${source}})`, { filename })();
  }
}

const { chooseKernel, create, makeHost, makeRestoreHost, wasmImports } = loadCore();
// Big system fills go to the runtime's generator where it measured faster
// than the WebAssembly kernel with its copy out (js/README.md, "What serves
// which size"): Node's (OpenSSL's) and Bun's, not Deno's. Node alone
// watches the vmclock page (js/README.md, "Snapshots"); Deno and Bun, which
// load this entry too, were not checked with it.
const node = globalThis.Deno === undefined && globalThis.Bun === undefined;
const host = makeHost(webcrypto, globalThis.Deno === undefined ? randomFillSync : null,
  node ? makeRestoreHost(fs, process.hrtime.bigint.bind(process.hrtime)) : null);
const kernel = chooseKernel(process.env.SHAKERAND_KERNEL, (m) => console.warn(m));
const bytes = fs.readFileSync(path.join(__dirname, `shakerand-${kernel}.wasm`));
const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), wasmImports(host));
const api = Object.freeze(create(instance, host));
module.exports = api;
