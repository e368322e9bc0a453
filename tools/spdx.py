#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every source file of the repository carries the licence's SPDX line.

    tools/spdx.py          add the line where it is missing
    tools/spdx.py --check  list the files without it; exit 1 if any

Source files are the tracked files with the extensions below; data (JSON,
corpora), documents (Markdown) and the licence texts are not.
"""
import pathlib
import subprocess
import sys

TAG = "SPDX-License-Identifier: MIT OR Apache-2.0"
ROOT = pathlib.Path(__file__).resolve().parent.parent

# How a line comment is written, by file name or extension.
BLOCK = ("/* ", " */")
STYLES = {
    ".c": BLOCK, ".h": BLOCK, ".inc": BLOCK,
    ".cpp": ("// ", ""), ".hpp": ("// ", ""), ".go": ("// ", ""), ".java": ("// ", ""),
    ".py": ("# ", ""), ".sh": ("# ", ""), ".cmake": ("# ", ""), ".in": ("# ", ""),
    ".bash": ("# ", ""), ".fish": ("# ", ""), ".toml": ("# ", ""),
    ".1": ('.\\" ', ""), ".xml": ("<!-- ", " -->"), ".rs": ("// ", ""),
    ".js": ("// ", ""), ".mjs": ("// ", ""), ".cjs": ("// ", ""), ".ts": ("// ", ""),
    ".html": ("<!-- ", " -->"),
}
NAMES = {"CMakeLists.txt": ("# ", ""), "Makefile": ("# ", ""), "_shakerand": ("# ", ""),
         "run": ("# ", ""), "go.mod": ("// ", ""), "sources.txt": ("# ", ""),
         "compile_options.txt": ("# ", ""),
         ".clang-tidy": ("# ", ""), "java.security.Provider": ("# ", "")}
SKIP_DIRS = ("tests/fuzz/corpus/", "tests/fuzz/regressions/")


def style(path):
    if path.startswith(SKIP_DIRS):
        return None
    name = pathlib.PurePath(path).name
    return NAMES.get(name) or STYLES.get(pathlib.PurePath(path).suffix)


def files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, capture_output=True, text=True)
    return [p for p in out.stdout.splitlines() if style(p) and (ROOT / p).is_file()]


def add(path):
    start, end = style(path)
    text = (ROOT / path).read_text()
    lines = text.splitlines(keepends=True)
    at = 0
    # After a shebang, an XML declaration, and a zsh #compdef line, which
    # must stay first.
    while at < len(lines) and lines[at].startswith(("#!", "<?xml", "#compdef")):
        at += 1
    # A Go comment right above the package clause would join its doc comment.
    blank = "\n" if path.endswith(".go") else ""
    lines.insert(at, f"{start}{TAG}{end}\n{blank}")
    (ROOT / path).write_text("".join(lines))


def main():
    missing = [p for p in files() if TAG not in (ROOT / p).read_text()[:2000]]
    if "--check" in sys.argv[1:]:
        for p in missing:
            print(f"no SPDX line: {p}")
        return 1 if missing else 0
    for p in missing:
        add(p)
        print(f"added: {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
