#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Chi-square by value on integers from the CLI's samplers.

Usage: sampler_chi2.py SHAKERAND COUNT

For each bound, `shakerand int --below` (RNG-BC-1, RNG-BC-8 and Simple
Discard on a seeded engine, RNG-BC-1 on the system generator) is tested
against uniform; a plain-modulo sampler over the same engine's bytes must be
rejected, which shows the test can fail. (The word samplers' chi-square
tests are in tests/test_samplers.cpp.) Prints one markdown row per case; exits 1 when a
good sampler is rejected or the bad one is not.
"""
import math
import subprocess
import sys

ALPHA = 1e-4  # per case; about 30 cases, so a false alarm about once in 300 runs


def chi2_sf(x, k):
    """Upper tail of chi-square with k degrees of freedom (Wilson-Hilferty)."""
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def chi2(counts, probs, n):
    return sum((c - n * p) ** 2 / (n * p) for c, p in zip(counts, probs))


def bins_for(bound):
    """Values binned by value for small bounds, else by 16 equal-width slices."""
    if bound <= 1024:
        return bound, (lambda v: v), [1 / bound] * bound
    k = 16
    edges = [bound * i // k for i in range(k + 1)]
    probs = [(edges[i + 1] - edges[i]) / bound for i in range(k)]
    return k, (lambda v: v * k // bound), probs


def judge(name, values, bound, expect_uniform):
    k, bin_of, probs = bins_for(bound)
    counts = [0] * k
    for v in values:
        assert 0 <= v < bound, (name, v)
        counts[bin_of(v)] += 1
    stat = chi2(counts, probs, len(values))
    p = chi2_sf(stat, k - 1)
    ok = (p >= ALPHA) == expect_uniform
    verdict = ("pass" if p >= ALPHA else "REJECTED") + ("" if ok else " (UNEXPECTED)")
    print(f"| {name} | {bound:#x} | {len(values)} | {k} | {stat:.1f} | {p:.3g} | {verdict} |")
    return ok


def main():
    cli, count = sys.argv[1], int(sys.argv[2])
    bounds = [3, 5, 7, 255, 257, 1000, 2**32 - 1, 3 * 2**30, 3 * 2**62, 2**64 + 1,
              (2**255 - 19), 3 * 2**254]
    print("| sampler | bound | draws | bins | chi-square | p | verdict |")
    print("|---|---|---|---|---|---|---|")
    ok = True
    for method in ("rng-bc-1", "simple-discard", "rng-bc-8", "system"):
        for i, bound in enumerate(bounds):
            args = [cli, "int", "--below", f"{bound:#x}", "--count", str(count)]
            if method != "system":
                args += ["--method", method, "--seed", f"{i:02x}{len(method):02x}"]
            out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
            name = "rng-bc-1 (system generator)" if method == "system" else method
            ok &= judge(name, [int(v) for v in out.split()], bound, True)
    # The bad sampler: plain modulo of 1 or 8 stream bytes. Must be rejected.
    raw = subprocess.run([cli, "bytes", "-n", str(8 * count), "--seed", "ba"],
                         check=True, capture_output=True).stdout
    ok &= judge("plain modulo (bad)", [b % 7 for b in raw[:count]], 7, False)
    words = [int.from_bytes(raw[8 * i:8 * i + 8], "little") for i in range(count)]
    ok &= judge("plain modulo (bad)", [w % (3 * 2**62) for w in words], 3 * 2**62, False)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
