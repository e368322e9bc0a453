// SPDX-License-Identifier: MIT OR Apache-2.0
// The JavaScript front end in tests/vm's guest, run by agent.c under the
// machine's node: the npm package (npm pack of js/, unpacked into
// node_modules) says its kernel and whether it watches the vmclock page, then for each line N on standard input
// writes N words of each channel in this order, one per line in 16 hex
// digits (gdraw's protocol): randomBytes(32) (four words a call), random()
// (the double's bits), and N words spread over one randomFill of 64 KiB
// (the package hands fills of NATIVE_FILL bytes or more to Node's
// crypto.randomFillSync, OpenSSL's DRBG inside Node, until it sees a
// restore).
import { createInterface } from 'node:readline';
import { randomBytes, random, randomFill, kernel, version, watchesVmGeneration } from 'shakerand';

const FILL = 65536;
const hex = (bytes, at) => Buffer.from(bytes.buffer, bytes.byteOffset + at, 8).toString('hex');
const bits = new DataView(new ArrayBuffer(8));
process.stdout.write(
  `kernel=${kernel} version=${version} node=${process.version} watches_vm_generation=${watchesVmGeneration}\n`,
);
for await (const line of createInterface({ input: process.stdin })) {
  const n = Number.parseInt(line, 10);
  if (!(n > 0)) {
    process.stderr.write(`jsdraw: want a count, got ${line}\n`);
    process.exit(2);
  }
  const out = [];
  for (let i = 0; i < n; i += 4) {
    const b = randomBytes(32);
    for (let j = 0; j < 4 && i + j < n; j++) out.push(hex(b, 8 * j));
  }
  for (let i = 0; i < n; i++) {
    bits.setFloat64(0, random());
    out.push(bits.getBigUint64(0).toString(16).padStart(16, '0'));
  }
  const fill = randomFill(new Uint8Array(FILL));
  for (let i = 0; i < n; i++) out.push(hex(fill, Math.floor((i * (FILL - 8)) / Math.max(n - 1, 1) / 8) * 8));
  process.stdout.write(out.join('\n') + '\n');
}
