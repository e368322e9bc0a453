// SPDX-License-Identifier: MIT OR Apache-2.0
// Types for the shakerand package (lib/index.mjs, lib/browser.mjs; index.d.cts, made from this file, for lib/index.cjs).

export type TypedArray =
  | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array
  | Float32Array | Float64Array | BigInt64Array | BigUint64Array;
type NumberArray = Exclude<TypedArray, BigInt64Array | BigUint64Array>;

/** `size` bytes from the system generator (a Uint8Array), with crypto.randomBytes's rules and errors. */
export function randomBytes(size: number): Uint8Array;
export function randomBytes(size: number, callback: (err: Error | null, buf: Uint8Array) => void): void;
/**
 * Fills `buf` (any ArrayBufferView or ArrayBuffer, any size), or `size` elements from element `offset`,
 * with crypto.randomFillSync's rules and errors, and returns it; with a callback, calls it later instead.
 */
export function randomFill<T extends ArrayBufferView | ArrayBuffer>(buf: T, offset?: number, size?: number): T;
export function randomFill<T extends ArrayBufferView | ArrayBuffer>(buf: T, callback: (err: Error | null, buf: T) => void): void;
export function randomFill<T extends ArrayBufferView | ArrayBuffer>(
  buf: T,
  offset: number,
  callback: (err: Error | null, buf: T) => void,
): void;
export function randomFill<T extends ArrayBufferView | ArrayBuffer>(
  buf: T,
  offset: number,
  size: number,
  callback: (err: Error | null, buf: T) => void,
): void;
/** A uniform integer in [min, max) (min defaults to 0), with crypto.randomInt's rules and errors. */
export function randomInt(max: number): number;
export function randomInt(min: number, max: number): number;
export function randomInt(max: number, callback: (err: Error | null, n: number) => void): void;
export function randomInt(min: number, max: number, callback: (err: Error | null, n: number) => void): void;
/** A double in [0, 1) with 53 random bits: a drop-in for Math.random(). */
export function random(): number;
/** A version 4 UUID (RFC 9562), lower case. `options` is accepted as crypto.randomUUID's, and ignored. */
export function randomUUID(options?: { disableEntropyCache?: boolean }): string;
/** A version 7 UUID (RFC 9562: Unix milliseconds, a counter, random bits), increasing within this agent. */
export function randomUUIDv7(): string;
/** A uniform BigInt in [0, n) by RNG-BC-1 (the Optimized Simple Discard Method), for any size of n > 0n. */
export function bigIntBelow(n: bigint): bigint;
/** Shuffles an array or typed array in place (Fisher-Yates) and returns it; holes in a sparse array become undefined. */
export function shuffle<T extends unknown[] | TypedArray>(array: T): T;
/** `k` distinct elements of an array or typed array, in random order (as Python's random.sample). */
export function sample<T>(population: readonly T[], k: number): T[];
export function sample(population: NumberArray, k: number): number[];
export function sample(population: BigInt64Array | BigUint64Array, k: number): bigint[];
/** Forgets buffered output and seeds the system generator again now, as after a snapshot restore
 * (for a restore hook): in Node from the kernel (/dev/urandom) with a CPU-jitter sample mixed in,
 * elsewhere from crypto.getRandomValues; big fills no longer go to the runtime's own generator. */
export function reseed(): void;
/** Whether this agent watches the vmclock page (/dev/vmclock0) before each value: Node on Linux
 * only, where the device was readable and its page valid when the package loaded. */
export const watchesVmGeneration: boolean;

export type KindName = 'turboshake256' | 'shake256' | 'turboshake256x8' | 'chacha8rand';
export interface Kind {
  readonly name: KindName;
  /** The C core's enum value. */
  readonly value: number;
  /** The seed length the kind requires, or 0 for any length. */
  readonly seedSize: number;
  /** The bytes handed out between two ratchets or rekeys. */
  readonly blockSize: number;
}
/** The engine kinds, as the C core's table (the vector file's `kinds`). */
export const kinds: readonly Kind[];

/**
 * A seeded, deterministic generator: the same bytes for the same kind and
 * seed as shakerand in every language (chacha8rand equals Go's
 * math/rand/v2 ChaCha8). Not cloneable: structuredClone and postMessage
 * throw a DataCloneError.
 */
export class Engine {
  /**
   * `seed`: bytes, or a string as its UTF-8 bytes (docs/engines.md,
   * "Seeds"; a string with an unpaired surrogate is refused); exactly
   * `seedSize` bytes for a kind that has one.
   */
  constructor(kind: KindName, seed: ArrayBufferView | ArrayBuffer | string);
  readonly kind: KindName;
  /** Fills `buf` with the next bytes of the stream and returns it. */
  fill<T extends ArrayBufferView | ArrayBuffer>(buf: T): T;
  /** The next `size` bytes of the stream. */
  bytes(size: number): Uint8Array;
  /** The next 4 bytes, little-endian. */
  nextU32(): number;
  /** The next 8 bytes, little-endian. */
  nextU64(): bigint;
  /** A double in [0, 1), as the C core's shakerand_double. */
  random(): number;
  /** A uniform integer in [min, max), as the C core's shakerand_range_i64 on [min, max - 1]. */
  randomInt(max: number): number;
  randomInt(min: number, max: number): number;
  /** A uniform BigInt in [0, n) by RNG-BC-1. */
  bigIntBelow(n: bigint): bigint;
  /**
   * Zeroes the state; the engine cannot be used again. Where the runtime has Symbol.dispose the engine
   * has it too (`using`), undeclared here so that the types need no `esnext.disposable` library.
   */
  wipe(): void;
}

/** "simd128" or "portable": the WebAssembly module in use. */
export const kernel: 'simd128' | 'portable';
/** The C core's version. */
export const version: string;

declare const shakerand: {
  randomBytes: typeof randomBytes;
  randomFill: typeof randomFill;
  randomInt: typeof randomInt;
  random: typeof random;
  randomUUID: typeof randomUUID;
  randomUUIDv7: typeof randomUUIDv7;
  bigIntBelow: typeof bigIntBelow;
  shuffle: typeof shuffle;
  sample: typeof sample;
  reseed: typeof reseed;
  Engine: typeof Engine;
  kinds: typeof kinds;
  watchesVmGeneration: typeof watchesVmGeneration;
  kernel: typeof kernel;
  version: typeof version;
};
export default shakerand;
