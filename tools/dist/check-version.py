#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every copy of the version agrees with VERSION, the one place it is set.

CMake reads VERSION itself (and refuses a header that disagrees). The
copies below exist because a format or a build without CMake needs the
number written out: the C header (Python's setup.py, Go's cgo and the
WebAssembly build compile it), package.json, Cargo.toml, pom.xml, the JCA provider's
version, the man page's title line, the jar names the Java scripts check,
and CHANGELOG.md's entry. Exit 1 with each disagreeing copy named.

    tools/dist/check-version.py [ROOT]
"""
import json
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])


def read(rel):
    return (ROOT / rel).read_text(encoding="utf-8")


def found(rel, pattern, group=1):
    m = re.search(pattern, read(rel), re.M)
    return m.group(group) if m else None


def main():
    version = read("VERSION").strip()
    if not re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", version):
        print(f"VERSION: '{version}' is not X.Y.Z", file=sys.stderr)
        return 1
    major, minor, patch = version.split(".")
    pom = ET.parse(ROOT / "java/pom.xml").getroot()
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    pom_version = pom.find("m:version", ns)
    copies = [
        ("include/shakerand.h SHAKERAND_VERSION_STRING",
         found("include/shakerand.h", r'^#define SHAKERAND_VERSION_STRING "([^"]+)"'), version),
        ("include/shakerand.h SHAKERAND_VERSION_MAJOR",
         found("include/shakerand.h", r"^#define SHAKERAND_VERSION_MAJOR (\d+)"), major),
        ("include/shakerand.h SHAKERAND_VERSION_MINOR",
         found("include/shakerand.h", r"^#define SHAKERAND_VERSION_MINOR (\d+)"), minor),
        ("include/shakerand.h SHAKERAND_VERSION_PATCH",
         found("include/shakerand.h", r"^#define SHAKERAND_VERSION_PATCH (\d+)"), patch),
        ("js/package.json version", json.loads(read("js/package.json"))["version"], version),
        ("rust/Cargo.toml version", found("rust/Cargo.toml", r'^version = "([^"]+)"'), version),
        ("java/pom.xml <version>", None if pom_version is None else pom_version.text, version),
        ("java ShakeRandProvider version",
         found("java/src/main/java/org/shakerand/ShakeRandProvider.java", r'super\("ShakeRand", "([^"]+)"'),
         version),
        ("cli/shakerand.1 .TH",
         found("cli/shakerand.1", r'^\.TH .*"shakerand ([0-9.]+)"'), f"{major}.{minor}"),
        ("CHANGELOG.md entry", found("CHANGELOG.md", rf"^## \[?({re.escape(version)})\]?"), version),
    ]
    for script in ("java/run-tests.sh", "java/run-cross-tests.sh"):
        for jar in sorted(set(re.findall(r"shakerand-(\d+\.\d+\.\d+)", read(script)))):
            copies.append((f"{script} jar name", jar, version))
    bad = [(what, got, want) for what, got, want in copies if got != want]
    for what, got, want in bad:
        print(f"version mismatch: {what} is {got!r}, VERSION wants {want!r}", file=sys.stderr)
    if not bad:
        print(f"version {version}: {len(copies)} copies agree with VERSION")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
