# SPDX-License-Identifier: MIT OR Apache-2.0
"""The README's release recipes, for make test-dist to run as written.

A recipe is the fenced block after a line `<!-- dist-recipe: NAME -->` (a
shell block, run) or `<!-- dist-recipe: NAME FILE -->` (written to FILE
first); one NAME may have several blocks, kept in order. In each,
/path/to/shakerand/dist stands for the dist/ under test. A shell line ending
in `# prints VALUE` says what the recipe's last output line must be.

    recipes.py README DIST OUT   writes OUT/NAME/{FILE..., run.sh, expect}
                                 and prints the names, one a line
"""
import pathlib
import re
import sys

MARK = re.compile(r"^<!-- dist-recipe: ([a-z0-9-]+)(?: (\S+))? -->$")
PLACEHOLDER = "/path/to/shakerand/dist"


def recipes(text):
    lines = text.splitlines()
    found = []
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        i += 1
        if not m:
            continue
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i == len(lines) or not lines[i].startswith("```"):
            sys.exit(f"recipes: line {i}: no fenced block after the dist-recipe mark")
        start = i + 1
        i = start
        while i < len(lines) and lines[i] != "```":
            i += 1
        if i == len(lines):
            sys.exit(f"recipes: line {start}: the block is not closed")
        found.append((m.group(1), m.group(2), "\n".join(lines[start:i]) + "\n"))
        i += 1
    return found


def main(readme, dist, out):
    out = pathlib.Path(out)
    names = []
    for name, file, body in recipes(pathlib.Path(readme).read_text()):
        body = body.replace(PLACEHOLDER, dist)
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        if name not in names:
            names.append(name)
        if file:
            (d / file).parent.mkdir(parents=True, exist_ok=True)
            (d / file).write_text(body)
            continue
        with open(d / "run.sh", "a") as f:
            f.write(body)
        for line in body.splitlines():
            m = re.search(r"# prints (\S+)$", line)
            if m:
                (d / "expect").write_text(m.group(1) + "\n")
    if not names:
        sys.exit(f"recipes: no dist-recipe block in {readme}")
    for name in names:
        if not (out / name / "run.sh").is_file():
            sys.exit(f"recipes: {name} has files but no shell block to run")
        print(name)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
