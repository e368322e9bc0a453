// SPDX-License-Identifier: MIT OR Apache-2.0
// The JavaScript benchmark: the package beside Node's own generators, in
// one run, each contender in a loop of its own (a shared call site turns
// polymorphic and favours whichever ran first), the median of 7 rounds of
// about 150 ms. Usage: node bench/bench.mjs [--markdown FILE] [--json FILE]
// (make bench-js writes BENCHMARKS.md's JavaScript section with it).
// Also the WebAssembly path of big fills on its own (the entry sends them to
// crypto.randomFillSync), with the portable module beside the SIMD128 one
// for the kernel's gain; and the cost of watching the vmclock page, on a
// file laid out as the page (core.js's testing-only path), beside a
// positional read of /dev/zero.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';

import * as s from '../lib/index.mjs';
import { NATIVE_FILL, create, makeHost, makeRestoreHost, wasmImports } from '../lib/core.js';

const { readFileSync, writeFileSync } = fs;

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const ROUNDS = 7;
const ROUND_MS = 150;

// An instance with no native generator: every fill in WebAssembly.
function wasmOnlyApi(kernel) {
  const host = makeHost(crypto.webcrypto);
  const bytes = readFileSync(new URL(`../lib/shakerand-${kernel}.wasm`, import.meta.url));
  return create(new WebAssembly.Instance(new WebAssembly.Module(bytes), wasmImports(host)), host);
}
const simd128 = wasmOnlyApi('simd128');
const portable = wasmOnlyApi('portable');

// The entry's instance without a watch, and one watching a file laid out
// as the vmclock page (QEMU's: the disruption marker's 12 bytes from the
// sequence count are read before each value).
const pageDir = fs.mkdtempSync(path.join(tmpdir(), 'shakerand-bench-'));
const pageFile = path.join(pageDir, 'vmclock');
{
  const page = Buffer.alloc(4096);
  page.writeUInt32LE(0x4b4c4356, 0);
  page.writeUInt32LE(4096, 4);
  page.writeUInt16LE(1, 8);
  page.writeBigUInt64LE(1n, 16);
  writeFileSync(pageFile, page);
}
function instanceApi(restore) {
  const host = makeHost(crypto.webcrypto, null, restore);
  const bytes = readFileSync(new URL(`../lib/shakerand-${s.kernel}.wasm`, import.meta.url));
  return create(new WebAssembly.Instance(new WebAssembly.Module(bytes), wasmImports(host)), host);
}
const unwatched = instanceApi(null);
const watched = instanceApi(makeRestoreHost(fs, process.hrtime.bigint.bind(process.hrtime), pageFile));
if (!watched.watchesVmGeneration) throw new Error('bench: the file laid out as the page is not watched');
fs.rmSync(pageDir, { recursive: true });
const zeroFd = fs.openSync('/dev/zero', 'r');
const zeroBytes = new Uint8Array(12);

// ns per call: loop(n) runs n calls; doubled until a round lasts ROUND_MS.
function measure(loop, perCall = 1) {
  let n = 1;
  while (true) {
    const t0 = process.hrtime.bigint();
    sink += loop(n) ?? 0;
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (ms >= ROUND_MS / 4) break;
    n *= 2;
  }
  n *= 4;
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    sink += loop(n) ?? 0;
    rounds.push(Number(process.hrtime.bigint() - t0) / n / perCall);
  }
  rounds.sort((a, b) => a - b);
  return rounds[ROUNDS >> 1];
}

let sink = 0;
const MiB = 1 << 20;
const big = new Uint8Array(MiB);
const small = new Uint8Array(NATIVE_FILL);
const SMALL = `${NATIVE_FILL / 1024} KiB`; // the smallest fill the entry sends to randomFillSync
const contenders = {
  'shakerand randomInt(0, 100)': (n) => { let a = 0; for (let i = 0; i < n; i++) a += s.randomInt(0, 100); return a; },
  'crypto.randomInt(0, 100)': (n) => { let a = 0; for (let i = 0; i < n; i++) a += crypto.randomInt(0, 100); return a; },
  'shakerand random()': (n) => { let a = 0; for (let i = 0; i < n; i++) a += s.random(); return a; },
  'Math.random()': (n) => { let a = 0; for (let i = 0; i < n; i++) a += Math.random(); return a; },
  'shakerand randomUUID()': (n) => { let a = 0; for (let i = 0; i < n; i++) a += s.randomUUID().charCodeAt(0); return a; },
  'crypto.randomUUID()': (n) => { let a = 0; for (let i = 0; i < n; i++) a += crypto.randomUUID().charCodeAt(0); return a; },
  'shakerand randomUUIDv7()': (n) => { let a = 0; for (let i = 0; i < n; i++) a += s.randomUUIDv7().charCodeAt(0); return a; },
  'shakerand randomBytes(16)': (n) => { let a = 0; for (let i = 0; i < n; i++) a += s.randomBytes(16)[0]; return a; },
  'crypto.randomBytes(16)': (n) => { let a = 0; for (let i = 0; i < n; i++) a += crypto.randomBytes(16)[0]; return a; },
  'shakerand randomFill(1 MiB)': (n) => { for (let i = 0; i < n; i++) s.randomFill(big); },
  'shakerand randomFill(1 MiB), WebAssembly SIMD128': (n) => { for (let i = 0; i < n; i++) simd128.randomFill(big); },
  'shakerand randomFill(1 MiB), WebAssembly portable': (n) => { for (let i = 0; i < n; i++) portable.randomFill(big); },
  'crypto.randomFillSync(1 MiB)': (n) => { for (let i = 0; i < n; i++) crypto.randomFillSync(big); },
  [`shakerand randomFill(${SMALL})`]: (n) => { for (let i = 0; i < n; i++) s.randomFill(small); },
  [`shakerand randomFill(${SMALL}), WebAssembly SIMD128`]: (n) => { for (let i = 0; i < n; i++) simd128.randomFill(small); },
  [`crypto.randomFillSync(${SMALL})`]: (n) => { for (let i = 0; i < n; i++) crypto.randomFillSync(small); },
  'crypto.getRandomValues, 1 MiB in 64 KiB pieces': (n) => {
    for (let i = 0; i < n; i++)
      for (let o = 0; o < MiB; o += 65536) crypto.webcrypto.getRandomValues(big.subarray(o, o + 65536));
  },
  'random(), not watched': (n) => { let a = 0; for (let i = 0; i < n; i++) a += unwatched.random(); return a; },
  'random(), the page watched (a file)': (n) => { let a = 0; for (let i = 0; i < n; i++) a += watched.random(); return a; },
  'randomBytes(16), not watched': (n) => { let a = 0; for (let i = 0; i < n; i++) a += unwatched.randomBytes(16)[0]; return a; },
  'randomBytes(16), the page watched (a file)': (n) => { let a = 0; for (let i = 0; i < n; i++) a += watched.randomBytes(16)[0]; return a; },
  'fs.readSync of 12 bytes of /dev/zero at position 12': (n) => { for (let i = 0; i < n; i++) fs.readSync(zeroFd, zeroBytes, 0, 12, 12); },
  'reseed() at a restore: jitter sample, /dev/urandom, seed': (n) => { for (let i = 0; i < n; i++) watched.reseed(); },
};
const ns = {};
for (const [name, loop] of Object.entries(contenders)) {
  ns[name] = measure(loop);
  console.log(`${name.padEnd(48)} ${ns[name] >= 1000 ? (ns[name] / 1000).toFixed(1) + ' µs' : ns[name].toFixed(2) + ' ns'}`);
}

// Issue 40's pair, whose two sides are now one generator: their rounds
// alternated, so that a change of the machine's load meets both.
function measurePair(a, b, calls = 200, rounds = 15) {
  const ta = [], tb = [];
  for (let r = 0; r < rounds; r++) {
    for (const [loop, out] of [[a, ta], [b, tb]]) {
      const t0 = process.hrtime.bigint();
      sink += loop(calls) ?? 0;
      out.push(Number(process.hrtime.bigint() - t0) / calls);
    }
  }
  const median = (t) => t.sort((x, y) => x - y)[t.length >> 1];
  return [median(ta), median(tb)];
}
const [pairOurs, pairNode] = measurePair(contenders['shakerand randomFill(1 MiB)'], contenders['crypto.randomFillSync(1 MiB)']);
// The check of each native piece (issue 45) and the argument checks: the
// entry's fill against randomFillSync's alone, alternated likewise, at the
// smallest native size and at 1 MiB (the pair above).
const [smallOurs, smallNode] = measurePair(contenders[`shakerand randomFill(${SMALL})`],
  contenders[`crypto.randomFillSync(${SMALL})`], 1000);

const watchRows = [
  ['random()', 'random(), not watched', 'random(), the page watched (a file)', 'Math.random()'],
  ['randomBytes(16)', 'randomBytes(16), not watched', 'randomBytes(16), the page watched (a file)', 'crypto.randomBytes(16)'],
];
const fmt = (v) =>
  Math.abs(v) >= 1000 ? `${(v / 1000).toFixed(1)} µs` : `${v.toFixed(Math.abs(v) < 10 ? 2 : 1)} ns`;
const mbps = (v) => `${(MiB / v / 1e-9 / 1e6).toFixed(0)} MB/s`;
const ratio = (a, b) => (ns[b] / ns[a]).toFixed(2);
const targets = [
  ['`randomInt(0, 100)` >= 3x faster than `crypto.randomInt(0, 100)`', 'shakerand randomInt(0, 100)', 'crypto.randomInt(0, 100)', 3, 'x faster'],
  ['`random()` <= 2x `Math.random()`\'s time', 'shakerand random()', 'Math.random()', 0.5, 'time'],
  ['`randomUUID()` no slower than `crypto.randomUUID()`', 'shakerand randomUUID()', 'crypto.randomUUID()', 1, 'x faster'],
  ['1 MiB fill >= 2x `randomFillSync`', 'shakerand randomFill(1 MiB)', 'crypto.randomFillSync(1 MiB)', 2, 'x faster'],
];
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const date = new Date().toISOString().slice(0, 10);
let md = `## JavaScript (\`make bench-js\`)\n\n`;
md += `${date}, Node ${process.version} (V8 ${process.versions.v8}), ${cpu}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)} at the start; `;
md += `module in use: ${s.kernel}. Median of ${ROUNDS} rounds of about ${ROUND_MS} ms, each contender in its own loop, all in one process (js/bench/bench.mjs).\n\n`;
md += `| operation | time per call | throughput |\n|---|---|---|\n`;
const rate = (name) => (name.includes('MiB') ? mbps(ns[name]) : name.includes(SMALL) ? mbps(ns[name] * (MiB / NATIVE_FILL)) : '');
for (const name of Object.keys(contenders)) md += `| ${name} | ${fmt(ns[name])} | ${rate(name)} |\n`;
md += `\n### Targets (issues 30 and 40), same run\n\n| target | measured | verdict |\n|---|---|---|\n`;
for (const [label, ours, theirs, want, kind] of targets) {
  const r = ns[theirs] / ns[ours];
  const measured = kind === 'time'
    ? `${fmt(ns[ours])} vs ${fmt(ns[theirs])}: ${(ns[ours] / ns[theirs]).toFixed(2)}x its time`
    : `${fmt(ns[ours])} vs ${fmt(ns[theirs])}: ${ratio(ours, theirs)}x`;
  md += `| ${label} | ${measured} | ${r >= want ? 'met' : 'missed'} |\n`;
}
const bytesOf = (files) => files.map((f) => readFileSync(new URL(`../${f}`, import.meta.url)).length).reduce((a, b) => a + b, 0);
const size = bytesOf(['lib/index.mjs', 'lib/browser.mjs', 'lib/index.cjs', 'lib/core.js', 'lib/shakerand-portable.wasm',
  'lib/shakerand-simd128.wasm']);
const types = bytesOf(['index.d.ts', 'index.d.cts']);
md += `| 1 MiB fill >= 1.0x \`randomFillSync\` (issue 40; 15 rounds each, alternated) | ${fmt(pairOurs)} vs ${fmt(pairNode)}: ${(pairNode / pairOurs).toFixed(2)}x | ${Math.abs(pairNode / pairOurs - 1) < 0.05 ? 'level: one generator (below)' : pairNode / pairOurs >= 1 ? 'met' : 'missed'} |\n`;
md += `| package: the two \`.wasm\` modules and the JavaScript of the three entries < 100 KB unminified | ${(size / 1000).toFixed(1)} KB (and ${(types / 1000).toFixed(1)} KB of declarations) | ${size < 100000 ? 'met' : 'missed'} |\n`;
md += `\n### The check of native output (issue 45), same run\n\n`;
md += `Each piece \`randomFillSync\` fills is read at 32 drawn pairs of words (16 armed before the call, 16 drawn after it) and in a window of 1024 pairs before it is handed out `;
md += `(js/README.md, "What serves which size"). The entry's fill against \`randomFillSync\`'s alone, 15 rounds each, alternated; `;
md += `the difference is that check plus the argument checks:\n\n`;
md += `| size | shakerand randomFill | crypto.randomFillSync | difference |\n|---|---|---|---|\n`;
for (const [label, ours, theirs] of [[SMALL, smallOurs, smallNode], ['1 MiB', pairOurs, pairNode]])
  md += `| ${label} | ${fmt(ours)} | ${fmt(theirs)} | ${fmt(ours - theirs)} (${((ours / theirs - 1) * 100).toFixed(0)} %) |\n`;
const smallWasm = ns[`shakerand randomFill(${SMALL}), WebAssembly SIMD128`];
md += `\nAt ${SMALL}, the smallest fill sent to \`randomFillSync\`, the entry's fill with its check (${fmt(smallOurs)}) `;
md += `${smallOurs < smallWasm ? 'beats' : 'does not beat'} the WebAssembly path's (${fmt(smallWasm)}) in this run `;
md += `(js/README.md, "What serves which size", says why the native fills start there).\n`;
const simdFill = 'shakerand randomFill(1 MiB), WebAssembly SIMD128';
md += `\n**Why the 1 MiB fill misses.** In Node, fills of ${NATIVE_FILL / 1024} KiB and more go to \`crypto.randomFillSync\` `;
md += `itself (js/README.md, "What serves which size"), so the entry's 1 MiB fill is that generator's speed `;
md += `plus shakerand's argument checks and its check of the output (the table above): against issue 40's 1.0x the two sides are level, `;
md += `their ratio moving a few per cent either way from run to run. `;
md += `The WebAssembly path is the chacha8rand kernel, SIMD128 at most: `;
md += `${mbps(ns[simdFill])} here (the portable module ${mbps(ns['shakerand randomFill(1 MiB), WebAssembly portable'])}), `;
md += `with a copy out of WebAssembly memory on top (the core writes into its own memory). `;
md += `\`randomFillSync\` runs OpenSSL's native generator, with the CPU's widest vectors and AES instructions: `;
md += `${mbps(ns['crypto.randomFillSync(1 MiB)'])}. Four 32-bit lanes cannot reach that; interleaving two groups `;
md += `of blocks (eight blocks a pass) measured slower in V8, which spills what x86-64's 16 vector registers cannot hold.\n`;
md += `\n### Watching the vmclock page (issue 46), same run\n\n`;
md += `In Node, where \`/dev/vmclock0\` is readable, every value reads the page first (one positional \`fs.readSync\`; js/README.md, "Snapshots"). `;
md += `Measured here on a regular file laid out as the page (core.js's testing-only path; this machine has no device): the watched figure costs a file read, `;
md += `and the device's read, a copy under its sequence count, should cost about as much (not measured here). `;
md += `The entry's instance in this run watches ${s.watchesVmGeneration ? 'the device' : 'nothing (no device)'}.\n\n`;
md += `| call | not watched | watched (a file) | the watch's cost | peer |\n|---|---|---|---|---|\n`;
for (const [label, off, on, peer] of watchRows)
  md += `| ${label} | ${fmt(ns[off])} | ${fmt(ns[on])} | ${fmt(ns[on] - ns[off])} | ${peer}: ${fmt(ns[peer])} |\n`;
md += `\nA positional read of 12 bytes of \`/dev/zero\` (\`fs.readSync\`) took ${fmt(ns['fs.readSync of 12 bytes of /dev/zero at position 12'])}; `;
md += `a restore's reseed (\`reseed()\` on the watched instance: the page read, the 2048-timing jitter sample, 32 bytes of \`/dev/urandom\`, the seed) ${fmt(ns['reseed() at a restore: jitter sample, /dev/urandom, seed'])}.\n`;
if (option('--markdown')) writeFileSync(option('--markdown'), md);
const pairs = { [SMALL]: [smallOurs, smallNode], '1 MiB': [pairOurs, pairNode] };
if (option('--json')) writeFileSync(option('--json'), JSON.stringify({ date, node: process.version, cpu, kernel: s.kernel, ns, pairs, size }, null, 1));
if (sink === 0.5) console.log(''); // keeps the loops' results alive
