// SPDX-License-Identifier: MIT OR Apache-2.0
// Runs the suite in headless Chromium (Debian's /usr/bin/chromium, or
// $CHROMIUM): serves the repository on 127.0.0.1, opens
// js/test/browser/index.html once with the detected module (SIMD128) and
// once with ?kernel=portable, then examples/web/ with ?report, and reads
// what each page posts to /report. No browser driver: the page reports.
// Exit status 0 when every case passed on every page.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json',
  '.wasm': 'application/wasm', '.css': 'text/css' };
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const TIMEOUT_MS = 120000;

let waiting = null;
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (req.method === 'POST' && url.pathname === '/report') {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.end('ok');
      waiting?.(JSON.parse(body));
    });
    return;
  }
  const path = normalize(join(root, decodeURIComponent(url.pathname)));
  if (!path.startsWith(root)) return res.writeHead(403).end();
  let body;
  try {
    body = readFileSync(path);
  } catch {
    return res.writeHead(404).end();
  }
  res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

async function visit(path) {
  const profile = mkdtempSync(join(tmpdir(), 'shakerand-chromium-'));
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`,
    '--remote-debugging-port=0', `${base}${path}`], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  browser.stderr.on('data', (d) => (stderr += d));
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${path}: no report in ${TIMEOUT_MS / 1000} s\n${stderr}`)), TIMEOUT_MS);
      browser.on('exit', (code) => reject(new Error(`${path}: chromium exited (${code}) before reporting\n${stderr}`)));
      waiting = (r) => {
        clearTimeout(timer);
        resolve(r);
      };
    });
  } finally {
    waiting = null;
    // The whole process group: the renderers and helpers too.
    try {
      process.kill(-browser.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await new Promise((resolve) => (browser.exitCode !== null || browser.signalCode !== null ? resolve() : browser.on('exit', resolve)));
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

let failed = 0;
function fail(message) {
  failed++;
  console.log(`not ok: ${message}`);
}
for (const [query, kernel] of [['', 'simd128'], ['?kernel=portable', 'portable']]) {
  const r = await visit(`/js/test/browser/index.html${query}`);
  if (r.fatal) {
    fail(`suite ${query}: ${r.fatal}`);
    continue;
  }
  console.log(`# ${r.userAgent}: module ${r.kernel}, SIMD128 ${r.simd ? 'validates' : 'does not validate'}`);
  if (r.kernel !== kernel) fail(`expected the ${kernel} module, got ${r.kernel}`);
  if (JSON.stringify(r.seededBy) !== '[32]') fail(`seeded by crypto.getRandomValues calls ${JSON.stringify(r.seededBy)}, expected [32]`);
  for (const c of r.results) {
    if (c.ok) console.log(`ok: ${c.name} (${r.kernel})`);
    else fail(`${c.name} (${r.kernel}): ${c.error}`);
  }
}
const demo = await visit('/examples/web/index.html?report');
if (demo.fatal) fail(`examples/web: ${demo.fatal}`);
for (const c of demo.checks ?? []) {
  if (c.ok) console.log(`ok: examples/web: ${c.name}`);
  else fail(`examples/web: ${c.name}: ${c.detail}`);
}
if (!demo.fatal && !(demo.checks?.length > 0)) fail('examples/web reported no checks');
server.close();
console.log(failed === 0 ? 'browser: every case passed' : `browser: ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
