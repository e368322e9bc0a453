#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Draws the benchmark page's charts from one run's figures.

Usage: bench_charts.py CORE.json OUTDIR

CORE.json is what `shakerand_bench --json` wrote. Writes OUTDIR/bulk.svg
(GB/s filling 1 MiB), OUTDIR/words.svg (ns per 64-bit word) and
OUTDIR/small.svg (ns per 16-byte request), one bar per generator, peers
included, coloured by kind. The SVGs carry no date and fixed element ids,
so an unchanged figure gives an unchanged file.
"""
import json
import pathlib
import sys

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

COLOURS = {  # group: (colour, legend)
    "engine": ("#4c72b0", "shakerand engine (kernel forced)"),
    "system": ("#dd8452", "shakerand system generator"),
    "peer": ("#55a868", "other secure generators"),
    "floor": ("#8c8c8c", "std::mt19937_64 (not secure)"),
}


def label(v):
    return f" {v:.2f}" if v < 10 else f" {v:.1f}" if v < 100 else f" {v:.0f}"


def chart(rows, value, title, xlabel, path, log=False):
    rows = [r for r in rows if value(r) > 0]
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(rows) + 1.4))
    names = [r["name"] for r in rows]
    values = [value(r) for r in rows]
    colours = [COLOURS[r["group"]][0] for r in rows]
    y = range(len(rows))
    ax.barh(y, values, color=colours)
    ax.set_yticks(list(y), names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    if log:
        ax.set_xscale("log")
    for i, v in enumerate(values):
        ax.text(v, i, label(v), va="center", fontsize=7)
    ax.margins(x=0.15)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for g, (c, _) in COLOURS.items()
               if any(r["group"] == g for r in rows)]
    labels = [label for g, (_, label) in COLOURS.items() if any(r["group"] == g for r in rows)]
    ax.legend(handles, labels, fontsize=7, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    data = json.loads(pathlib.Path(sys.argv[1]).read_text())
    out = pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "shakerand-bench"
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: small files, searchable
    where = f"{data['cpu']}, {data['date']}"
    rows = data["rows"]
    chart(rows, lambda r: r["mbs_1m"] / 1000, f"1 MiB fills, one thread (higher is better)\n{where}",
          "GB/s", out / "bulk.svg")
    chart(rows, lambda r: r["ns_u64"], f"One 64-bit word (lower is better; log scale)\n{where}",
          "ns per word", out / "words.svg", log=True)
    chart(rows, lambda r: 16e3 / r["mbs_16"] if r["mbs_16"] > 0 else 0,
          f"One 16-byte request (lower is better; log scale)\n{where}", "ns per request",
          out / "small.svg", log=True)


if __name__ == "__main__":
    main()
