#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Turns run-bench.sh's JMH JSON files into the Java section of BENCHMARKS.md.

Usage: bench_markdown.py OUT_DIR JDK_HOME SETTINGS  (writes markdown to stdout)

Throughput is summed over the threads, as in drnglib's tables; ns per call is per thread.
"""
import datetime
import json
import pathlib
import subprocess
import sys

MIB = 1 << 20
COLUMNS = ["Random", "ThreadLocalRandom", "SecureRandom", "NativePRNG", "DRBG", "ShakeRandom", "ShakeRandom (pure Java)"]
HEADERS = ["Random", "ThreadLocalRandom", "SecureRandom (default)", "NativePRNG", "DRBG",
           "ShakeRandom (native)", "ShakeRandom (pure Java)"]

# drnglib's published rows (Core i7 3770S, Windows 7, Java 7; SecureRandom = SHA1PRNG there).
DRNG = {
    "nextLong": {1: ["379", "2965", "40", "192"], 2: ["528", "5929", "75", "382"]},
    "nextBytes": {1: ["370", "644", "59", "205"], 2: ["652", "1287", "114", "400"]},
    "uuid": {1: ["3.4", "12.4"], 2: ["2.5", "18.5"]},
}


def load(out):
    res = {}  # (bench, column, threads) -> (ops/s, error)
    for f in sorted(out.glob("*.json")):
        if f.name.startswith("vmclock"):
            continue  # vmclock_section's
        pure = f.name.startswith("purejava")
        for r in json.loads(f.read_text() or "[]"):
            bench = r["benchmark"].rsplit(".", 1)[1]
            t = r["threads"]
            params = r.get("params", {})
            if bench in ("nextLong", "nextBytes2MiB", "nextIntBound"):
                col = params["impl"] + (" (pure Java)" if pure else "")
            elif bench == "uuidJdk":
                col = "UUID.randomUUID() + ShakeRand provider" if params["provider"] == "true" else "UUID.randomUUID()"
            else:
                col = "ShakeRandom.randomUUID()" + (" (pure Java)" if pure else "")
            m = r["primaryMetric"]
            res[(bench, col, t)] = (m["score"], m["scoreError"])
    return res


def fmt(v, digits=0):
    return f"{v:,.{digits}f}" if v is not None else "-"


def main():
    out, jdk, settings = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    res = load(out)
    get = lambda b, c, t: res.get((b, c, t), (None, None))[0]
    cpu = next((l.split(":", 1)[1].strip() for l in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
                if l.startswith("Model name")), "unknown")
    ver = subprocess.run([f"{jdk}/bin/java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    impl = (out / "implementations.txt").read_text().strip().replace("# implementation: ", "") if (out / "implementations.txt").exists() else "?"
    forks, wi, it, tm = settings.split("/")
    short = int(wi) < 3 or int(it) < 5
    p = print
    p("## Java (JMH): drnglib's three benchmarks re-made")
    p()
    p(f"Machine: {cpu}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} CPUs; "
      f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {ver} ({jdk}); "
      f"JMH 1.37, {forks} fork(s), {wi} warm-up and {it} measured iterations of {tm}, throughput mode, "
      "each thread with its own generator (as drnglib), summed over the threads. "
      "`make bench-java` (java/run-bench.sh) writes this section.")
    if short:
        p()
        p("**Short settings: rough figures, on a machine shared with other work.**")
    p()
    p(f"ShakeRandom native: {impl.splitlines()[0] if impl else '?'}. Pure Java: the same class with "
      "`-Dshakerand.native=false` (the system generator's engine in Java, chacha8rand here, seeded from the JDK's NativePRNGNonBlocking).")
    p()
    for bench, title, unit, scale, digits in (
            ("nextLong", "Benchmark 1: `nextLong`, MiB/s (ns per call per thread)", "MiB/s", 8 / MIB, 0),
            ("nextBytes2MiB", "Benchmark 2: `nextBytes` on 2 MiB arrays, MiB/s (ms per call per thread)", "MiB/s", 2, 0)):
        p(f"### {title}")
        p()
        p("| threads | " + " | ".join(HEADERS) + " |")
        p("|---|" + "---:|" * len(HEADERS))
        for t in (1, 2):
            cells = []
            for c in COLUMNS:
                v = get(bench, c, t)
                if v is None:
                    cells.append("-")
                elif bench == "nextLong":
                    cells.append(f"{fmt(v * scale)} ({t * 1e9 / v:.1f} ns)")
                else:
                    cells.append(f"{fmt(v * scale)} ({t * 1e3 / v:.2f} ms)")
            p(f"| {t} | " + " | ".join(cells) + " |")
        key = "nextLong" if bench == "nextLong" else "nextBytes"
        p()
        p("drnglib's published figures (Core i7 3770S, Windows 7, Java 7), MiB/s: Random, ThreadLocalRandom, SecureRandom (SHA1PRNG), DigitalRandom (RDRAND):")
        p()
        p("| threads | Random | ThreadLocalRandom | SecureRandom | DigitalRandom |")
        p("|---|---:|---:|---:|---:|")
        for t in (1, 2):
            p(f"| {t} | " + " | ".join(DRNG[key][t]) + " |")
        p()
    p("### Benchmark 3: UUIDs, millions per second (summed over threads)")
    p()
    ucols = ["UUID.randomUUID()", "UUID.randomUUID() + ShakeRand provider", "ShakeRandom.randomUUID()", "ShakeRandom.randomUUID() (pure Java)"]
    p("| threads | " + " | ".join(ucols) + " |")
    p("|---|" + "---:|" * len(ucols))
    for t in (1, 2):
        p(f"| {t} | " + " | ".join(fmt(get(b, c, t) and get(b, c, t) / 1e6, 1) if get(b, c, t) else "-"
                                   for b, c in (("uuidJdk", ucols[0]), ("uuidJdk", ucols[1]), ("uuidShakeRandom", ucols[2]), ("uuidShakeRandom", ucols[3]))) + " |")
    p()
    p("drnglib's published figures, millions per second: UUID.randomUUID, DigitalRandom.nextUUID:")
    p()
    p("| threads | UUID.randomUUID | DigitalRandom |")
    p("|---|---:|---:|")
    for t in (1, 2):
        p(f"| {t} | " + " | ".join(DRNG["uuid"][t]) + " |")
    p()
    p("(The POWER9 DARN thread's P9TRNG provider reached about 127 Mbit/s, 15 MiB/s, through `nextBytes` with the intrinsic; NativePRNG about 30 Mbit/s there.)")
    p()

    # Targets of issue 7.
    p("### Targets (issue 7)")
    p()
    p("Reference figures the issue measured on this machine (JDK 17): default SecureRandom.nextLong 162 ns, DRBG 628 ns, "
      "ThreadLocalRandom 2.4 ns; nextBytes(2 MiB) 19 ms default, 5.5 ms DRBG; UUID.randomUUID() 4.6 M/s on 1 thread, 2.9 M/s on 2.")
    p()
    p("| target | goal | measured | verdict |")
    p("|---|---|---|---|")
    ns = lambda c: (1e9 / get("nextLong", c, 1)) if get("nextLong", c, 1) else None
    def row(name, goal, measured, ok):
        verdict = "-" if ok is None else ("met" if ok else "missed")
        p(f"| {name} | {goal} | {measured} | {verdict} |")
    tlr, nat, pure = ns("ThreadLocalRandom"), ns("ShakeRandom"), ns("ShakeRandom (pure Java)")
    if tlr and nat:
        row("`nextLong` native vs ThreadLocalRandom (1 thread)", f"<= 2x ({2 * tlr:.1f} ns)", f"{nat:.1f} ns ({nat / tlr:.2f}x)", nat <= 2 * tlr)
    if tlr and pure:
        row("`nextLong` pure Java vs ThreadLocalRandom (1 thread)", f"<= 10x ({10 * tlr:.1f} ns)", f"{pure:.1f} ns ({pure / tlr:.2f}x)", pure <= 10 * tlr)
    nb = get("nextBytes2MiB", "ShakeRandom", 1)
    if nb:
        gbs = nb * 2 * MIB / 1e9
        row("`nextBytes(2 MiB)` native (1 thread)", ">= 4 GB/s", f"{gbs:.2f} GB/s", gbs >= 4)
    u1, u2 = get("uuidShakeRandom", "ShakeRandom.randomUUID()", 1), get("uuidShakeRandom", "ShakeRandom.randomUUID()", 2)
    j2 = get("uuidJdk", "UUID.randomUUID()", 2)
    if u2 and j2:
        row("UUIDs vs UUID.randomUUID() at 2 threads", ">= 20x", f"{u2 / 1e6:.1f} M/s vs {j2 / 1e6:.1f} M/s ({u2 / j2:.1f}x)", u2 >= 20 * j2)
    if u1 and u2:
        row("UUIDs, 2 threads vs 1", ">= 1.8x", f"{u2 / 1e6:.1f} vs {u1 / 1e6:.1f} M/s ({u2 / u1:.2f}x)", u2 >= 1.8 * u1)
    p()
    p("On 2 cores shared with the JIT and GC threads a second benchmark thread cannot double throughput "
      "when anything else runs; the scaling row is only meaningful on an otherwise idle machine.")
    p()
    issue29(out, res, ver)
    vmclock_section(out, ver)


def vmclock_section(out, ver):
    """What watching the vmclock page costs the pure-Java path per value (VmClockBench)."""
    f = out / "vmclock-t1.json"
    if not f.exists():
        return
    ns = {}
    for r in json.loads(f.read_text() or "[]"):
        m = r["primaryMetric"]
        ns[r["benchmark"].rsplit(".", 1)[1]] = (m["score"], m["scoreError"])
    cell = lambda b: f"{ns[b][0]:.1f} ± {ns[b][1]:.1f}" if b in ns else "-"
    p = print
    p("### The vmclock watch in pure Java (issue 46), same run")
    p()
    p("ns per call (JMH average time, 1 thread, " + ver + ", `-Dshakerand.native=false`; `VmClockBench`). "
      "The pure path's system generator for one thread (what `nextLong` and `nextBytes` draw from) with "
      "nothing watched (no `/dev/vmclock0`: what this machine and every machine without the device run) and "
      "watching a regular file laid out as the page, read as the device is read (one positional read of the "
      "page's first bytes before every value). On the device a watched value costs the unwatched one plus "
      "the device's read; the reads below estimate it: a positional read of 24 bytes from this regular file "
      "and from `/dev/zero`, a character device (the vmclock driver's read copies the page's bytes under its "
      "sequence count, not measured here: no device on this machine).")
    p()
    p("| draw | pure Java, unwatched | pure Java, watched (file) | ThreadLocalRandom | SecureRandom NativePRNG |")
    p("|---|---:|---:|---:|---:|")
    p("| `nextLong` | " + " | ".join(cell(b) for b in ("pureNextLongUnwatched", "pureNextLongWatched",
                                                         "threadLocalRandomNextLong", "nativePrngNextLong")) + " |")
    p("| `nextBytes(16)` | " + " | ".join(cell(b) for b in ("pureNextBytes16Unwatched", "pureNextBytes16Watched",
                                                              "threadLocalRandomNextBytes16", "nativePrngNextBytes16")) + " |")
    p()
    p(f"Positional read of 24 bytes (`FileChannel.read(buf, 0)`): the file {cell('preadFile')} ns, "
      f"`/dev/zero` {cell('preadDevZero')} ns.")
    p()


def issue29(out, res17, ver17):
    """Issue 29's targets: nextLong and nextInt(bound) <= 1.5x ThreadLocalRandom, per JDK and path."""
    p = print
    runs = [("JDK 17" if " 17" in ver17 or '"17' in ver17 else ver17, res17)]
    v25 = out / "jdk25" / "version.txt"
    if v25.exists():
        runs.append(("JDK 25" if '"25' in v25.read_text() else v25.read_text().strip(), load(out / "jdk25")))
    ns = lambda res, b, c: (1e9 / res[(b, c, 1)][0]) if (b, c, 1) in res else None
    p("### Targets (issue 29): single draws against ThreadLocalRandom, 1 thread")
    p()
    p("ns per call (1e9 / JMH throughput). `nextInt(bound)` is `nextInt(1000)`: Lemire's multiply-and-reject "
      "here, a modulus in ThreadLocalRandom. Each JDK's ThreadLocalRandom and native ShakeRandom are forks of "
      "one JMH run; the pure-Java figures are the next run of the same script, against the same "
      "ThreadLocalRandom figure. JDK 25: " + (v25.read_text().strip() if v25.exists() else "not installed") + ".")
    p()
    missed = False
    p("| target | JDK | ThreadLocalRandom | ShakeRandom | ratio | verdict |")
    p("|---|---|---:|---:|---:|---|")
    for name, res in runs:
        for bench, label in (("nextLong", "`nextLong`"), ("nextIntBound", "`nextInt(bound)`")):
            tlr = ns(res, bench, "ThreadLocalRandom")
            for col, path in (("ShakeRandom", "native"), ("ShakeRandom (pure Java)", "pure Java")):
                v = ns(res, bench, col)
                if tlr is None or v is None:
                    continue
                r = v / tlr
                missed |= r > 1.5
                p(f"| {label} {path} <= 1.5x ThreadLocalRandom | {name} | {tlr:.2f} ns | {v:.2f} ns | {r:.2f}x | "
                  f"{'met' if r <= 1.5 else 'missed'} |")
    p()
    p("JMH's wall-clock figures move with the machine's load and, on JDK 17, with how C2 compiles JMH's own loop: "
      "forks of native `nextInt(1000)` settle at about 4.0 or about 6 ns (java/README.md, \"Where the time goes\"); "
      "a ratio near 1.5x can fall either side between runs.")
    p()
    loads = [(out / f).read_text().split()[:3] for f in ("load-start.txt", "load-end.txt") if (out / f).exists()]
    if loads:
        p("Load average (1, 5, 15 min) at the start of the runs: " + " ".join(loads[0])
          + (", at the end: " + " ".join(loads[-1]) if len(loads) > 1 else "") + ".")
        if any(float(l[0]) > 3 for l in loads):
            p("**The machine was loaded (load above 3 on 2 CPUs): figures are wall-clock JMH times under "
              "contention; ratios between forks of one run are the comparable part.**")
        p()
    if missed:
        p("Why the misses (java/README.md, \"Where the time goes\"): a native draw is about 30 "
          "instructions that C2 inlines whole, with no call; what it cannot shed is the buffer position's "
          "store and reload from one call to the next, which is about all of ThreadLocalRandom's cost, plus "
          "the word's generation through the 8 KiB JNI refills (1.05 to 1.55 ns a word on the machines "
          "measured), so the floor is about 1.7x ThreadLocalRandom's time; an int is half a word. The "
          "pure-Java path is bound by its scalar ChaCha8.")


if __name__ == "__main__":
    main()
