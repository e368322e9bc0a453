#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Turns `go test -bench` output (several rounds) into the Go section of
BENCHMARKS.md: the seed's table beside ours, and each target of issues 8,
17 and 29 met or missed.

Usage: bench_markdown.py RAW.txt BENCHSTAT.txt FRAGMENT.md [PURE_RAW.txt]
Medians over the runs, as benchstat reports them. PURE_RAW.txt is the same
benchmarks built with CGO_ENABLED=0 (the pure-Go build), its rounds taking
turns with RAW.txt's (tools/go/run-bench.sh). A target's ratio is taken
within each round ("# round N" lines split them), where a benchmark and its
peer ran seconds apart, and the median of the rounds' ratios is reported
with their range.
"""
import datetime
import os
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


def rounds(path):
    """The ns/op and MB/s of each round: lists of dicts, one per round."""
    out = []
    for line in open(path):
        line = line.strip()
        if line.startswith("# round") or not out:
            out.append(({}, {}))
            if line.startswith("# round"):
                continue
        m = LINE.match(line)
        if m:
            out[-1][0][m[1]] = float(m[2])
            if m[3]:
                out[-1][1][m[1]] = float(m[3])
    return out


def round_ratio(rs, f):
    """The median and range of f(ns, mbs) over the rounds where it is defined."""
    vals = []
    for ns, mbs in rs:
        try:
            vals.append(f(ns, mbs))
        except (KeyError, ZeroDivisionError):
            pass
    if not vals:
        return None
    return statistics.median(vals), min(vals), max(vals), len(vals)


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
             f"{sh(['go', 'version'])}; {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; "
             f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end. "
             f"Medians of {n} rounds, the cgo and the pure-Go build taking turns (`tools/go/run-bench.sh`; "
             "the benchstat summary with confidence intervals is below). Lower is better.")
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
        L.append("**The pure-Go build** (`CGO_ENABLED=0`, the same benchmarks, its rounds taking turns with "
                 "the cgo build's):")
        L.append("")
        L.append("| benchmark | ns/op | MB/s |")
        L.append("|---|---:|---:|")
        for key, label in rows:
            if key in pure:
                L.append(f"| {label} | {fmt(pure[key])} | {fmt(pure_mbs[key]) if key in pure_mbs else ''} |")
        L.append("")

    L.append("**Targets** (issues 8, 17 and 29; every figure from this run). Each ratio is the median of "
             "the rounds' ratios, a benchmark against its peer in the same round (the range over the rounds "
             "in brackets); the figures in ns or MB/s are the medians over all rounds.")
    L.append("")
    L.append("| target | limit | measured | verdict |")
    L.append("|---|---|---|---|")
    cgo_rounds = rounds(raw)
    pure_rounds = rounds(sys.argv[4]) if len(sys.argv) > 4 else []

    def ratio_target(label, rs, mine, peer, limit, slower_ok, unit="ns"):
        """mine/peer (ns/op) at most limit if slower_ok, else peer/mine at least limit
        (or, for unit MB/s, mine/peer in MB/s at least limit)."""
        if unit == "MB/s":
            r = round_ratio(rs, lambda ns, mbs: mbs[mine] / mbs[peer])
            med = {k: statistics.median(m[k] for _, m in rs if k in m) for k in (mine, peer)
                   if any(k in m for _, m in rs)}
        else:
            f = (lambda ns, mbs: ns[mine] / ns[peer]) if slower_ok else (lambda ns, mbs: ns[peer] / ns[mine])
            r = round_ratio(rs, f)
            med = {k: statistics.median(n[k] for n, _ in rs if k in n) for k in (mine, peer)
                   if any(k in n for n, _ in rs)}
        if r is None or len(med) < 2:
            return
        m, lo, hi, n = r
        ok = m <= limit if slower_ok else m >= limit
        word = "x the time" if slower_ok else "x faster" if unit == "ns" else "x the rate"
        target(label, f"{'≤' if slower_ok else '≥'} {limit}{word}",
               f"{fmt(med[mine])} {unit} against {fmt(med[peer])} {unit}: {m:.2f}{word} "
               f"[{lo:.2f}–{hi:.2f}, {n} rounds]", ok)

    ratio_target("cgo: top-level `Uint64` ≤ 1.2x `math/rand/v2.Uint64` (issue 8)", cgo_rounds,
                 "Uint64/goroutines=1", "MathRandV2Uint64/goroutines=1", 1.2, True)
    ratio_target("cgo: `Source.Uint64` ≤ `ChaCha8.Uint64` (issue 8)", cgo_rounds,
                 "SourceUint64", "ChaCha8", 1.0, True)
    ratio_target("cgo: `rand.New(NewSource()).Int63` ≤ 1.5x `MathRand` (issue 8)", cgo_rounds,
                 "ShakerandRand", "MathRand", 1.5, True)
    ratio_target("cgo: `Reader`, 1 MiB, ≥ 5x `crypto/rand` (issue 8)", cgo_rounds,
                 "Reader/size=1MiB", "CryptoReader/size=1MiB", 5, False, "MB/s")
    ratio_target("cgo: `Reader.Read`, 8 bytes, ≥ 3x faster than `crypto/rand.Read` (issue 29)", cgo_rounds,
                 "Reader/size=8B", "CryptoReader/size=8B", 3, False)
    ratio_target("pure Go: top-level `Uint64` ≤ 1.2x `math/rand/v2.Uint64` (issue 29)", pure_rounds,
                 "Uint64/goroutines=1", "MathRandV2Uint64/goroutines=1", 1.2, True)
    ratio_target("pure Go: `Reader`, 1 MiB, ≥ 5x `crypto/rand` (issue 29)", pure_rounds,
                 "Reader/size=1MiB", "CryptoReader/size=1MiB", 5, False, "MB/s")
    ratio_target("pure Go: `Reader.Read`, 8 bytes, ≥ 3x faster than `crypto/rand.Read` (issue 29)",
                 pure_rounds, "Reader/size=8B", "CryptoReader/size=8B", 3, False)
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
