#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Appends the C++ section to BENCHMARKS.md from Google Benchmark's JSON.

Usage: bench_cpp_markdown.py RESULTS.json BENCHMARKS.md
"""
import json
import re
import sys

KINDS = ["turboshake256", "shake256", "turboshake256x8"]
# RandomSHAKE on this machine kind (issue 5) and from its README (c8i.large).
RANDOMSHAKE = {
    ("generate", "turboshake256"): "493 MB/s",
    ("generate", "shake256"): "289 MB/s",
    ("sample<std::uint64_t>", "turboshake256"): "16 ns",
    ("seed_deterministic", "turboshake256"): "1.3 us (its README)",
    ("seed_default", "turboshake256"): "38.5 us (its README)",
}
TARGETS = {  # (row, kind): (limit, unit) from issue 5
    ("sample<std::uint64_t>", "turboshake256"): (8, "ns"),
    ("sample<std::uint64_t>", "turboshake256x8"): (2, "ns"),
    ("seed_deterministic", "turboshake256"): (1000, "ns"),
    ("seed_default", "turboshake256"): (2000, "ns"),
}


def main():
    results, out = sys.argv[1], sys.argv[2]
    with open(results) as f:
        data = json.load(f)
    rows = {}
    system = None
    for b in data["benchmarks"]:
        # With repetitions, use the median of the runs.
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"])
        ns = b["real_time"] if b.get("time_unit", "ns") == "ns" else None
        if ns is None:
            ns = b["real_time"] * {"us": 1e3, "ms": 1e6}[b["time_unit"]]
        mbs = b.get("bytes_per_second", 0) / 1e6
        if name == "system_u64":
            system = (ns, mbs)
            continue
        m = re.match(r"(\w+)<(?:(std::uint\d+_t), )?(?:shakerand::)?kind::(\w+)>(?:/(\d+))?", name)
        if not m:
            continue
        label = m.group(1) + (f"<{m.group(2)}>" if m.group(2) else "")
        rows[(label, m.group(3))] = (ns, mbs)

    lines = ["", "## C++ engines (Google Benchmark, `bench/cpp_bench.cpp`)", "",
             "RandomSHAKE's table re-made with `shakerand::engine<T, K>`: time per call (MB/s where",
             "bytes are produced), the median of 3 runs. RandomSHAKE's own figures: measured on this",
             "machine kind by the project (generate, u64), or from its README where marked.", "",
             "| operation | " + " | ".join(KINDS) + " | RandomSHAKE (TurboSHAKE256) |",
             "|---|" + "---:|" * (len(KINDS) + 1)]
    labels = ["seed_deterministic", "seed_default", "sample<std::uint8_t>", "sample<std::uint16_t>",
              "sample<std::uint32_t>", "sample<std::uint64_t>", "generate"]
    for label in labels:
        cells = []
        for k in KINDS:
            if (label, k) not in rows:
                cells.append("")
                continue
            ns, mbs = rows[(label, k)]
            if label.startswith("seed"):
                cells.append(f"{ns / 1000:.2f} us")
            elif label == "generate":
                cells.append(f"{mbs:.0f} MB/s")
            else:
                cells.append(f"{ns:.2f} ns, {mbs:.0f} MB/s")
        name = {"generate": "generate (1 MiB)"}.get(label, label)
        lines.append(f"| {name} | " + " | ".join(cells) + " | "
                     + RANDOMSHAKE.get((label, "turboshake256"), "") + " |")
    if system:
        lines.append(f"| system_rng u64 | {system[0]:.2f} ns |  |  |  |")
    lines += ["", "| target (issue 5) | limit | measured | verdict |", "|---|---:|---:|---|"]
    for (label, k), (limit, unit) in TARGETS.items():
        if (label, k) in rows:
            ns = rows[(label, k)][0]
            verdict = "met" if ns <= limit else f"missed by {100 * (ns / limit - 1):.0f} %"
            lines.append(f"| {label} {k} | {limit} {unit} | {ns:.2f} ns | {verdict} |")
    if system:
        verdict = "met" if system[0] <= 3 else f"missed by {100 * (system[0] / 3 - 1):.0f} %"
        lines.append(f"| system_rng u64 | 3 ns | {system[0]:.2f} ns | {verdict} |")
    with open(out) as f:
        text = f.read()
    marker = "\n## Notes"
    section = "\n".join(lines) + "\n"
    text = text.replace(marker, section + marker, 1) if marker in text else text + section
    with open(out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
