#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The package as a user gets it: `npm pack` (which builds the modules),
# its size (the .wasm modules and the JavaScript under 100 KB, the
# declarations beside them), installed into a new Node project, README.md's first
# example run there as an ES module and its last line checked (C2SP's
# chacha8rand vector), the CommonJS entry required, and the types checked
# by TypeScript's compiler (from npm) on a program using every export.
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm pack --silent --pack-destination "$work" >/dev/null
tgz=$(ls "$work"/shakerand-*.tgz)
size=$(tar -tvzf "$tgz" | awk '$6 ~ /\.(mjs|cjs|js|wasm)$/ { s += $3 } END { print s }')
types=$(tar -tvzf "$tgz" | awk '$6 ~ /\.d\.c?ts$/ { s += $3 } END { print s }')
echo "pack: $(basename "$tgz"): $size bytes of JavaScript and WebAssembly, $types of declarations"
[ "$size" -lt 100000 ] || { echo "pack: $size bytes of code is not under 100 KB" >&2; exit 1; }
for f in LICENSE-MIT LICENSE-APACHE README.md index.d.ts index.d.cts lib/browser.mjs lib/shakerand-simd128.wasm lib/shakerand-portable.wasm; do
    tar -tzf "$tgz" | grep -qx "package/$f" || { echo "pack: package/$f is missing" >&2; exit 1; }
done

mkdir "$work/app"
cd "$work/app"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund "$tgz"
# README.md's first ```js block, as a user would paste it.
awk '/^```js$/ { on = 1; next } on && /^```$/ { exit } on' node_modules/shakerand/README.md > example.mjs
node example.mjs > example.out
cat example.out
[ "$(tail -n 1 example.out)" = "b773b6063d4616a5" ] ||
    { echo "pack: the README example's last line is not C2SP's first chacha8rand word" >&2; exit 1; }
node -e '
const s = require("shakerand");
const n = s.randomInt(10);
if (!(n >= 0 && n < 10) || s.randomUUID().length !== 36) process.exit(1);
console.log("pack: require(\"shakerand\") works, module " + s.kernel);
'
npm install --silent --no-audit --no-fund typescript@5 >/dev/null
cat > check.ts <<'TS'
import shakerand, { randomBytes, randomFill, randomInt, random, randomUUID, randomUUIDv7, bigIntBelow, shuffle,
  sample, reseed, Engine, kinds, kernel, version, type Kind, type KindName } from 'shakerand';
const bytes: Uint8Array = randomBytes(16);
randomBytes(16, (err: Error | null, b: Uint8Array) => void (err ?? b));
const f: Float64Array = randomFill(new Float64Array(4), 1, 2);
randomFill(new Uint32Array(4), 1, (err: Error | null, b: Uint32Array) => void (err ?? b));
const n: number = randomInt(1, 7) + randomInt(6) + random();
randomInt(10, (err: Error | null, v: number) => void (err ?? v));
const id: string = randomUUID() + randomUUIDv7();
const k: bigint = bigIntBelow(2n ** 255n - 19n);
const order: string[] = shuffle(['a', 'b']);
const two: number[] = sample([1, 2, 3], 2).concat(sample(new Uint8Array(4), 2));
shuffle(new Int32Array(4));
reseed();
const first: Kind = kinds[0];
const name: KindName = first.name;
const e = new Engine('chacha8rand', new Uint8Array(32));
const w: bigint = e.nextU64();
const x: number = e.nextU32() + e.random() + e.randomInt(3, 9);
e.fill(new Uint8Array(8));
e.wipe();
const which: 'simd128' | 'portable' = kernel;
console.log(bytes, f, n, id, k, order, two, name, w, x, which, version, shakerand.random());
TS
cat > check-require.cts <<'TS'
import shakerand = require('shakerand');
const e: shakerand.Engine = new shakerand.Engine('chacha8rand', new Uint8Array(32));
const k: shakerand.Kind = shakerand.kinds[0];
console.log(shakerand.randomInt(6), e.nextU64(), k.name, shakerand.randomFill(new Uint8Array(4)));
TS
# node16: the setting for Node 18 and 20; nodenext: the newest.
for module in node16 nodenext; do
    npx tsc --noEmit --strict --target es2022 --module $module --moduleResolution $module check.ts check-require.cts
done
echo "pack: TypeScript (tsc $(npx tsc --version | cut -d' ' -f2), --strict, node16 and nodenext) accepts import and require"
