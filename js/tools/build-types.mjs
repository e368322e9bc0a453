// SPDX-License-Identifier: MIT OR Apache-2.0
// Writes index.d.cts, the declarations for require('shakerand'), from
// index.d.ts: the same declarations in a namespace, `export =` it.
import { readFileSync, writeFileSync } from 'node:fs';

const here = new URL('../', import.meta.url);
const source = readFileSync(new URL('index.d.ts', here), 'utf8');
const cut = source.indexOf('declare const shakerand');
if (cut < 0) throw new Error('index.d.ts: no `declare const shakerand` (the default export) to leave out');
const body = source
  .slice(0, cut)
  .replace(/^\/\/ SPDX.*\n/, '')
  .split('\n')
  .map((line) => (line === '' ? line : `  ${line}`))
  .join('\n');
const out = `// SPDX-License-Identifier: MIT OR Apache-2.0
// Generated from index.d.ts by tools/build-types.mjs: the declarations for require('shakerand').
declare namespace shakerand {
${body.trimEnd()}
}
export = shakerand;
`;
writeFileSync(new URL('index.d.cts', here), out);
