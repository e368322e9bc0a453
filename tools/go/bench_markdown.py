#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Turns `go test -bench` output (several -count runs) into the Go section
of BENCHMARKS.md: the seed's table beside ours, and each target of issue 8
met or missed.

Usage: bench_markdown.py RAW.txt BENCHSTAT.txt FRAGMENT.md [PURE_RAW.txt]
Medians over the runs, as benchstat reports them. PURE_RAW.txt is the same
benchmarks built with CGO_ENABLED=0 (the pure-Go build), run in the same
session.
"""
import datetime
import platform
import re
import statistics
import subprocess
import sys

# The figures of shared/seeds/go-bad-random-benchmark.txt (macOS, its
# author's machine, old Go): ns per rand.New(SOURCE).Int63.
SEED = {"MathRand": 10.0, "CryptoRand": 840, "LibcRand": 240, "LibcBufRand": 36.9,
        "CryptoBufRand": 613}

LINE = re.compile(r"^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) MB/s)?")


def parse(path):
    ns, mbs = {}, {}
    for line in open(path):
        m = LINE.match(line.strip())
        if m:
            ns.setdefault(m[1], []).append(float(m[2]))
            if m[3]:
                mbs.setdefault(m[1], []).append(float(m[3]))
    return ({k: statistics.median(v) for k, v in ns.items()},
            {k: statistics.median(v) for k, v in mbs.items()},
            {k: len(v) for k, v in ns.items()})


def sh(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def fmt(v):
    return f"{v:.3g}" if v < 100 else f"{v:,.0f}"


def main():
    raw, stat, out = sys.argv[1:4]
    ns, mbs, runs = parse(raw)
    model = "?"
    for line in sh(["lscpu"]).splitlines():
        if line.startswith("Model name:"):
            model = line.split(":", 1)[1].strip()
    n = max(runs.values()) if runs else 0
    L = []
    L.append("## Go (`make bench-go`)")
    L.append("")
    L.append(f"Machine: {model}, {sh(['nproc'])} CPUs, {platform.system()} {platform.release()}; "
             f"{sh(['go', 'version'])}; {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC. "
             f"Medians of {n} runs (`tools/go/run-bench.sh`; the benchstat summary with confidence "
             "intervals is below). Lower is better.")
    L.append("")
    L.append("**The \"bad random\" table re-made** (shared/seeds/go-bad-random-benchmark.txt): "
             "each source behind math/rand's `rand.New(SOURCE).Int63`, its names, its figures "
             "(its author's machine, years ago) beside ours (this machine, this run). "
             "`ShakerandRand` is `rand.New(shakerand.NewSource())`.")
    L.append("")
    L.append("| benchmark | seed's figure (ns/op) | this run (ns/op) | vs MathRand, this run |")
    L.append("|---|---:|---:|---:|")
    base = ns.get("MathRand")
    for name in ["MathRand", "CryptoRand", "LibcRand", "LibcBufRand", "CryptoBufRand", "ShakerandRand"]:
        if name not in ns:
            continue
        seed = fmt(SEED[name]) if name in SEED else "—"
        ratio = f"{ns[name] / base:.2f}x" if base else "?"
        L.append(f"| {name} | {seed} | {fmt(ns[name])} | {ratio} |")
    L.append("")
    L.append("**Generators and the package's API** (this run):")
    L.append("")
    L.append("| benchmark | ns/op | MB/s |")
    L.append("|---|---:|---:|")
    rows = [("ChaCha8", "math/rand/v2 ChaCha8.Uint64"), ("PCG", "math/rand/v2 PCG.Uint64"),
            ("SourceUint64", "shakerand Source.Uint64"),
            ("Uint64/goroutines=1", "shakerand.Uint64, 1 goroutine"),
            ("Uint64/goroutines=2", "shakerand.Uint64, 2 goroutines at once (per call in each)"),
            ("MathRandV2Uint64/goroutines=1", "math/rand/v2 Uint64, 1 goroutine"),
            ("MathRandV2Uint64/goroutines=2", "math/rand/v2 Uint64, 2 goroutines at once"),
            ("Reader/size=8B", "shakerand.Reader, 8 bytes"),
            ("Reader/size=1MiB", "shakerand.Reader, 1 MiB"),
            ("CryptoReader/size=8B", "crypto/rand.Read, 8 bytes"),
            ("CryptoReader/size=1MiB", "crypto/rand.Read, 1 MiB"),
            ("UUID", "shakerand.NewUUID (v4)"), ("UUIDv7", "shakerand.NewUUIDv7 (one cgo call)"),
            ("GoogleUUIDNewRandom", "google/uuid NewRandom (bench/go-peer)"),
            ("ShakerandUUID", "shakerand.NewUUID, in bench/go-peer's run")]
    for key, label in rows:
        if key in ns:
            L.append(f"| {label} | {fmt(ns[key])} | {fmt(mbs[key]) if key in mbs else ''} |")
    L.append("")

    # ChaCha8 on both sides (bench_test.go): math/rand/v2 against the
    # ChaCha8Rand engine, same seed and same stream; the system generator's
    # row names the engine it ran.
    def system_key(prefix, suffix=""):
        for k in ns:
            if k.startswith(prefix + "/impl=system/engine=") and k.endswith(suffix):
                return k
        return None

    def engine(key):
        return key.split("/engine=")[1].split("/")[0] if key else ""

    u64, rd = system_key("ChaCha8Uint64"), system_key("ChaCha8Read", "/size=1MiB")
    base_u64, base_rd = "ChaCha8Uint64/impl=mathrandv2", "ChaCha8Read/impl=mathrandv2/size=1MiB"
    chacha = [(base_u64, "math/rand/v2 `ChaCha8.Uint64`", base_u64),
              ("ChaCha8Uint64/impl=shakerand", "shakerand `NewSeeded(ChaCha8Rand, seed).Uint64`", base_u64),
              (u64, f"`shakerand.Uint64` (system generator, {engine(u64)})", base_u64),
              (base_rd, "math/rand/v2 `ChaCha8.Read`, 1 MiB", base_rd),
              ("ChaCha8Read/impl=shakerand/size=1MiB", "shakerand `NewSeeded(ChaCha8Rand, seed).Read`, 1 MiB",
               base_rd),
              (rd, f"`shakerand.Read` (system generator, {engine(rd)}), 1 MiB", base_rd)]
    if any(key in ns for key, _, _ in chacha if key):
        L.append("**ChaCha8 side by side** (this run): math/rand/v2's `ChaCha8` and the C core's "
                 "`chacha8rand` engine, which give the same stream for the same seed, and the "
                 "system generator.")
        L.append("")
        L.append("| benchmark | ns/op | MB/s | time vs math/rand/v2 |")
        L.append("|---|---:|---:|---:|")
        for key, label, base_key in chacha:
            if key and key in ns:
                ratio = f"{ns[key] / ns[base_key]:.2f}x" if base_key in ns else "?"
                L.append(f"| {label} | {fmt(ns[key])} | {fmt(mbs[key]) if key in mbs else ''} | {ratio} |")
        L.append("")

    def target(label, limit, measured, ok):
        L.append(f"| {label} | {limit} | {measured} | {'met' if ok else 'missed'} |")

    pure = parse(sys.argv[4])[0] if len(sys.argv) > 4 else {}
    pure_mbs = parse(sys.argv[4])[1] if len(sys.argv) > 4 else {}
    if pure:
        L.append("**The pure-Go build** (`CGO_ENABLED=0`, the same benchmarks in the same session):")
        L.append("")
        L.append("| benchmark | ns/op | MB/s |")
        L.append("|---|---:|---:|")
        for key, label in rows:
            if key in pure:
                L.append(f"| {label} | {fmt(pure[key])} | {fmt(pure_mbs[key]) if key in pure_mbs else ''} |")
        L.append("")

    L.append("**Targets** (issues 8 and 17; every figure from this run):")
    L.append("")
    L.append("| target | limit | measured | verdict |")
    L.append("|---|---|---|---|")
    g = ns.get
    top, v2 = g("Uint64/goroutines=1"), g("MathRandV2Uint64/goroutines=1")
    if top and v2:
        target("cgo: top-level `Uint64` ≤ 1.2x `math/rand/v2.Uint64`", f"{fmt(1.2 * v2)} ns",
               f"{fmt(top)} ns ({top / v2:.2f}x)", top <= 1.2 * v2)
    if g("SourceUint64") and g("ChaCha8"):
        target("cgo: `Source.Uint64` ≤ `ChaCha8.Uint64`", f"{fmt(g('ChaCha8'))} ns",
               f"{fmt(g('SourceUint64'))} ns", g("SourceUint64") <= g("ChaCha8"))
    if g("Reader/size=8B") and g("CryptoReader/size=8B"):
        r8, c8 = g("Reader/size=8B"), g("CryptoReader/size=8B")
        target("cgo: `Reader`, 8 bytes, ≤ 0.5x `crypto/rand.Read`", f"{fmt(0.5 * c8)} ns",
               f"{fmt(r8)} ns ({r8 / c8:.2f}x)", r8 <= 0.5 * c8)
    if g("ShakerandRand") and g("MathRand"):
        target("cgo: `rand.New(NewSource()).Int63` ≤ 1.5x `MathRand`",
               f"{fmt(1.5 * g('MathRand'))} ns",
               f"{fmt(g('ShakerandRand'))} ns ({g('ShakerandRand') / g('MathRand'):.2f}x)",
               g("ShakerandRand") <= 1.5 * g("MathRand"))
    if mbs.get("Reader/size=1MiB") and mbs.get("CryptoReader/size=1MiB"):
        r = mbs["Reader/size=1MiB"] / mbs["CryptoReader/size=1MiB"]
        target("cgo: `Reader`, 1 MiB, ≥ 5x `crypto/rand`", f"{fmt(5 * mbs['CryptoReader/size=1MiB'])} MB/s",
               f"{fmt(mbs['Reader/size=1MiB'])} MB/s ({r:.1f}x)", r >= 5)
    ptop, pv2 = pure.get("Uint64/goroutines=1"), pure.get("MathRandV2Uint64/goroutines=1")
    if ptop and pv2:
        target("pure Go: top-level `Uint64` ≤ 1.5x `math/rand/v2.Uint64`", f"{fmt(1.5 * pv2)} ns",
               f"{fmt(ptop)} ns ({ptop / pv2:.2f}x)", ptop <= 1.5 * pv2)
    if pure_mbs.get("Reader/size=1MiB") and pure_mbs.get("CryptoReader/size=1MiB"):
        r = pure_mbs["Reader/size=1MiB"] / pure_mbs["CryptoReader/size=1MiB"]
        target("pure Go: `Reader`, 1 MiB, ≥ 1.5x `crypto/rand`",
               f"{fmt(1.5 * pure_mbs['CryptoReader/size=1MiB'])} MB/s",
               f"{fmt(pure_mbs['Reader/size=1MiB'])} MB/s ({r:.1f}x)", r >= 1.5)
    L.append("")
    summary = open(stat).read().strip() if stat != "-" else ""
    if summary:
        L.append("<details><summary>benchstat</summary>")
        L.append("")
        L.append("```")
        L.append(summary)
        L.append("```")
        L.append("")
        L.append("</details>")
    open(out, "w").write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
