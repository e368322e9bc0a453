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


def ptn(n):
    return bytes(i % 251 for i in range(n))


def engine_vectors():
    out = []
    for kind in ("turboshake256", "shake256", "turboshake256x8"):
        for n in SEED_LENGTHS:
            seed = ptn(n)
            stream = ref.engine_stream(kind, seed, STREAM_BYTES)
            out.append({
                "engine": kind,
                "seed_hex": seed.hex(),
                "chunks": [{"offset": o, "hex": stream[o:o + CHUNK_BYTES].hex()}
                           for o in CHUNK_OFFSETS],
                "sha256_of_first_65536": hashlib.sha256(stream).hexdigest(),
            })
    return out


def document():
    return {
        "_comment": (
            "shakerand engine streams, written by tools/gen_vectors.py from the "
            "Python reference model tools/shakerand_ref.py; do not edit by hand. "
            "seed_hex is ptn(n): byte i is i mod 251. Each entry gives 64-byte "
            "chunks of the stream at the stated offsets (block and period "
            "boundaries) and the SHA-256 of its first 65536 bytes."),
        "engines": engine_vectors(),
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
