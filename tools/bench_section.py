#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Puts one language's section into BENCHMARKS.md without touching the others.

Usage: bench_section.py NAME FRAGMENT.md BENCHMARKS.md

The section lives between `<!-- NAME:begin -->` and `<!-- NAME:end -->`; it is
replaced in place when present and appended otherwise, so `make bench`,
`make bench-java` and `make bench-go` can each refresh their own part.
"""
import pathlib
import re
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip())
    name, fragment, target = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    block = f"{begin}\n{fragment.read_text().strip()}\n{end}\n"
    text = target.read_text() if target.exists() else ""
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end) + r"\n?", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + block if text else block
    target.write_text(text)


if __name__ == "__main__":
    main()
