#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Adds the C++ section to the benchmark page from Google Benchmark's JSON.

Usage: bench_cpp_markdown.py RESULTS.json [SYSTEM-X8.json] BENCHMARKS.md

RESULTS.json is bench/cpp_bench's output (with repetitions; the fastest
repetition of each benchmark is used, like the best-of-N figures of the
rest of the page). SYSTEM-X8.json, optional, is system_u64 alone run with
SHAKERAND_SYSTEM_ENGINE=turboshake256x8. The section goes in before the
page's "## Targets" (or at the end), so tables come before verdicts.
"""
import json
import re
import sys

KINDS = ["turboshake256", "shake256", "turboshake256x8", "chacha8rand"]
LABELS = ["seed_deterministic", "seed_default", "sample<std::uint8_t>", "sample<std::uint16_t>",
          "sample<std::uint32_t>", "sample<std::uint64_t>", "generate"]
UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def bytes_per_call(name):
    """What one iteration produces, from the benchmark's name: sizeof(T) for
    sample<T>, the argument for generate/N, 8 for system_u64, else 0.
    (Google Benchmark's bytes_per_second divides by CPU time, which on a
    busy machine is less than the wall time the table reports.)"""
    m = re.search(r"std::uint(\d+)_t", name)
    if name.startswith("sample<") and m:
        return int(m.group(1)) // 8
    m = re.match(r"generate<.*>/(\d+)$", name)
    if m:
        return int(m.group(1))
    return 8 if name == "system_u64" else 0


def fastest(path):
    """{run name: (ns per iteration, MB/s)} from the fastest repetition."""
    with open(path) as f:
        data = json.load(f)
    best = {}
    for b in data["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = b.get("run_name", b["name"])
        ns = b["real_time"] * UNIT_NS[b.get("time_unit", "ns")]
        if name not in best or ns < best[name][0]:
            best[name] = (ns, bytes_per_call(name) / ns * 1e3)
    return best


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip())
    runs = fastest(sys.argv[1])
    x8 = fastest(sys.argv[2]) if len(sys.argv) == 4 else {}
    out = sys.argv[-1]
    rows = {}
    for name, value in runs.items():
        m = re.match(r"(\w+)<(?:(std::uint\d+_t), )?(?:shakerand::)?kind::(\w+)>(?:/(\d+))?", name)
        if m:
            label = m.group(1) + (f"<{m.group(2)}>" if m.group(2) else "")
            rows[(label, m.group(3))] = value

    lines = ["## C++ engines (Google Benchmark, `bench/cpp_bench.cpp`)", "",
             "RandomSHAKE's table re-made with `shakerand::engine<T, K>` for every kind: time per call",
             "(MB/s where bytes are produced), the fastest of 3 repetitions. RandomSHAKE itself is",
             "compared in its own section below.", "",
             "| operation | " + " | ".join(KINDS) + " |",
             "|---|" + "---:|" * len(KINDS)]
    for label in LABELS:
        cells = []
        for k in KINDS:
            if (label, k) not in rows:
                cells.append("-")
                continue
            ns, mbs = rows[(label, k)]
            if label.startswith("seed"):
                cells.append(f"{ns / 1000:.2f} us")
            elif label == "generate":
                cells.append(f"{mbs:.0f} MB/s")
            else:
                cells.append(f"{ns:.2f} ns, {mbs:.0f} MB/s")
        name = {"generate": "generate (1 MiB)"}.get(label, label)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    system = [f"{runs['system_u64'][0]:.2f} ns (chacha8rand)"] if "system_u64" in runs else []
    if "system_u64" in x8:
        system.append(f"{x8['system_u64'][0]:.2f} ns (turboshake256x8)")
    if system:
        lines += ["", "`shakerand::system_rng` u64 (one call of `shakerand_system_u64` per word): "
                  + ", ".join(system) + "."]
    section = "\n".join(lines) + "\n\n"

    with open(out) as f:
        text = f.read()
    marker = "## Targets"
    text = text.replace(marker, section + marker, 1) if marker in text else text + "\n" + section
    with open(out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
