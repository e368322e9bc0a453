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

# String seeds (docs/engines.md, "Seeds"): a string is its UTF-8 bytes. Text
# with 2-, 3- and 4-byte characters for the kinds that take any length;
# for chacha8rand 32 UTF-8 bytes in 29 UTF-16 code units and 28 code
# points, so a length counted in characters is refused.
STRING_SEEDS = {0: "Grüße, é ☃ 🎲", 32: "chacha8rand é 🎲 ABCDEFGHIJKL"}


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


def string_seed_vectors():
    out = []
    for kind, _, seed_size, _ in ref.KINDS:
        text = STRING_SEEDS[seed_size]
        seed = ref.string_seed(text)
        out.append({
            "engine": kind,
            "seed_text": text,
            "seed_hex": seed.hex(),
            "first_64_hex": ref.engine_stream(kind, seed, 64).hex(),
        })
    return out


def kinds():
    return [{"name": name, "value": value, "seed_size": seed_size, "block_size": block_size}
            for name, value, seed_size, block_size in ref.KINDS]


# The system generator's seed derivation for fixed inputs: OS bytes and a
# counter through the conditioner (no hardware words: the pure-Go and
# pure-Java builds have none), then each engine's seed, without and with the
# caller's bytes of a reseed (None: an automatic seed).
SYSTEM_DERIVATION_INPUTS = [
    (ptn(32), 1, None),
    (b"\xff" * 32, 0x0123456789ABCDEF, None),  # below 2**63: the Java tests' reader takes longs
    (ptn(32), 1, b""),
    (ptn(32), 1, ptn(200)),
]


def system_policy():
    out = dict(ref.SYSTEM_POLICY)
    out["derivation"] = []
    for os_bytes, counter, extra in SYSTEM_DERIVATION_INPUTS:
        material = ref.system_conditioner(os_bytes, [], counter)
        out["derivation"].append({
            "os_hex": os_bytes.hex(),
            "counter": counter,
            "extra_hex": None if extra is None else extra.hex(),
            "material_hex": material.hex(),
            "chacha8rand_key_hex": ref.system_engine_seed("chacha8rand", material, extra).hex(),
            "turboshake256x8_seed_hex":
                ref.system_engine_seed("turboshake256x8", material, extra).hex(),
        })
    return out


# Seeds after a restore: (os bytes, counter, deltas as (first, step, count):
# delta i is first + i * step). The first is the C core's own known answer
# (tests/test_snapshot.cpp: the FIXED fault's os bytes, 0xA5 ^ i, and its
# fixed timer's 2048 deltas of 100 ticks). Each has the 2048 deltas of one
# sample (src/entropy/conditioner.c).
RESTORE_DERIVATION_INPUTS = [
    (bytes(0xA5 ^ i for i in range(32)), 1, (100, 0, 2048)),
    (ptn(32), 7, (1000, 37, 2048)),
    # Negative deltas, 2**64 - 50 and on as words: a clock that went back.
    (b"\xff" * 32, 0x0123456789ABCDEF, (-50, 1, 2048)),
]


def restore_derivation():
    out = {
        "jitter_domain": ref.JITTER_DOMAIN,
        "jitter_digest_bytes": ref.JITTER_DIGEST_BYTES,
        "restore_conditioner_domain": ref.RESTORE_CONDITIONER_DOMAIN,
        "derivation": [],
    }
    for os_bytes, counter, (first, step, count) in RESTORE_DERIVATION_INPUTS:
        digest = ref.jitter_digest([first + i * step for i in range(count)])
        out["derivation"].append({
            "os_hex": os_bytes.hex(),
            "counter": counter,
            "delta_first": first,
            "delta_step": step,
            "delta_count": count,
            "jitter_digest_hex": digest.hex(),
            "material_hex": ref.system_conditioner(os_bytes, [], counter, digest).hex(),
        })
    return out


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
            "specification: the first Uint64 values for its seed. "
            "string_seeds gives, for each kind, a seed given as a string "
            "(seed_text): its UTF-8 bytes (seed_hex) are the seed, and "
            "first_64_hex is the stream's first 64 bytes. kinds is "
            "the table of engine kinds (src/engine.c): name, the C enum's "
            "value, the seed length required (0: any length), the bytes "
            "handed out between ratchets or rekeys. system_policy is the system "
            "generator's policy (docs/system.md), held by the C core "
            "(src/policy.h), the pure-Go build and the pure-Java path, each "
            "tested against it: the reseed budget (bytes, seconds, the bytes "
            "between clock reads, the largest piece of a request) and the seed "
            "derivation's sizes and TurboSHAKE256 domain bytes (as numbers); its "
            "derivation entries are known answers: material = TurboSHAKE256(os "
            "|| counter as 8 bytes little-endian, D = conditioner_domain) (the "
            "C core puts each hardware source's words between the two; these "
            "entries have none), then each engine's seed from it, with the "
            "digest of extra_hex appended when it is not null. restore_derivation "
            "is the seed material after a restore (docs/system.md, \"Snapshots and "
            "clones\"), held by the pure-Java path (the C core's tests hold their "
            "own known answers): jitter_digest = TurboSHAKE256(the deltas, each 8 "
            "bytes little-endian, D = jitter_domain), delta i being delta_first + "
            "i * delta_step for i below delta_count; material = TurboSHAKE256(os "
            "|| counter as 8 bytes little-endian || jitter_digest, D = "
            "restore_conditioner_domain)."),
        "kinds": kinds(),
        "engines": engine_vectors(),
        "c2sp_chacha8rand": C2SP_CHACHA8RAND,
        "string_seeds": string_seed_vectors(),
        "system_policy": system_policy(),
        "restore_derivation": restore_derivation(),
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
