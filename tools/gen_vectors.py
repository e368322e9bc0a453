#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Writes vectors/shakerand.json from the reference model in shakerand_ref.py.

Usage: gen_vectors.py [OUTPUT]   (default: vectors/shakerand.json beside this
tool's parent). The C, C++, Java and Go tests all read the file; a test runs
this generator and fails if the checked-in file differs. Never edit the file
by hand: change the model or this generator and regenerate.
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shakerand_ref as ref  # noqa: E402

STREAM_BYTES = 65536
# Block, period and refill boundaries: 136-byte blocks, 1088-byte periods
# (turboshake256, shake256), 1056-byte refills (turboshake256x8).
CHUNK_OFFSETS = [0, 100, 1024, 1056, 1088, 2112, 2176, 8704, 65472]
CHUNK_BYTES = 64
SEED_LENGTHS = [0, 1, 32, 64, 135, 136, 137, 272, 300]
# chacha8rand: 256-byte groups, 992-byte outputs of 1024-byte iterations.
CHACHA8_OFFSETS = [0, 100, 248, 256, 960, 992, 1984, 8704, 65472]
# Its seeds are exactly 32 bytes: ptn(32), all zeros, all ones, and the
# seed of the C2SP chacha8rand test vector (see C2SP_CHACHA8RAND).
CHACHA8_SEEDS = [bytes(32), b"\xff" * 32, b"ABCDEFGHIJKLMNOPQRSTUVWXYZ123456"]
# The test vector published with the C2SP chacha8rand specification (and in
# Go's internal/chacha8rand tests): its first 32 Uint64 values.
C2SP_CHACHA8RAND = {
    "seed_hex": b"ABCDEFGHIJKLMNOPQRSTUVWXYZ123456".hex(),
    "uint64_hex": [
        "b773b6063d4616a5", "1160af22a66abc3c", "8c2599d9418d287c", "7ee07e037edc5cd6",
        "cfaa9ee02d1c16ad", "0e090eef8febea79", "3c82d271128b5b3e", "9c5addc11252a34f",
        "df79bb617d6ceea6", "36d553591f9d736a", "eef0d14e181ee01f", "089bfc760ae58436",
        "d9e52b59cc2ad268", "eb2fb4444b1b8aba", "4f95c8a692c46661", "c3c6323217cae62c",
        "91ebb4367f4e2e7e", "784cf2c6a0ec9bc6", "5c34ec5c34eabe20", "4f0a8f515570daa8",
        "fc35dcb4113d6bf2", "5b0da44c645554bc", "6d963da3db21d9e1", "eeaefc3150e500f3",
        "2d37923dda3750a5", "380d7a626d4bc8b0", "eeaf68ede3d7ee49", "f4356695883b717c",
        "846a9021392495a4", "8e8510549630a61b", "18dc02545dbae493", "0f8f9ff0a65a3d43",
    ],
}


def ptn(n):
    return bytes(i % 251 for i in range(n))


def entry(kind, seed, offsets):
    stream = ref.engine_stream(kind, seed, STREAM_BYTES)
    return {
        "engine": kind,
        "seed_hex": seed.hex(),
        "chunks": [{"offset": o, "hex": stream[o:o + CHUNK_BYTES].hex()} for o in offsets],
        "sha256_of_first_65536": hashlib.sha256(stream).hexdigest(),
    }


def engine_vectors():
    out = []
    for kind, _, seed_size, _ in ref.KINDS:
        if seed_size == 0:
            for n in SEED_LENGTHS:
                out.append(entry(kind, ptn(n), CHUNK_OFFSETS))
    for seed in [ptn(32)] + CHACHA8_SEEDS:
        out.append(entry("chacha8rand", seed, CHACHA8_OFFSETS))
    return out


def kinds():
    return [{"name": name, "value": value, "seed_size": seed_size, "block_size": block_size}
            for name, value, seed_size, block_size in ref.KINDS]


def document():
    return {
        "_comment": (
            "shakerand engine streams, written by tools/gen_vectors.py from the "
            "Python reference model tools/shakerand_ref.py; do not edit by hand. "
            "seed_hex is ptn(n): byte i is i mod 251. Each entry gives 64-byte "
            "chunks of the stream at the stated offsets (block and period "
            "boundaries) and the SHA-256 of its first 65536 bytes; chacha8rand "
            "seeds are 32 bytes, and its streams are checked against Go's "
            "math/rand/v2 ChaCha8 (go/vectors_test.go). c2sp_chacha8rand is "
            "the test vector published with the C2SP chacha8rand "
            "specification: the first Uint64 values for its seed. kinds is "
            "the table of engine kinds (src/engine.c): name, the C enum's "
            "value, the seed length required (0: any length), the bytes "
            "handed out between ratchets or rekeys."),
        "kinds": kinds(),
        "engines": engine_vectors(),
        "c2sp_chacha8rand": C2SP_CHACHA8RAND,
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "vectors",
                                                               "shakerand.json")
    with open(path, "w") as f:
        json.dump(document(), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
