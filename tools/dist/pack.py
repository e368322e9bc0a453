#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""The reproducible parts of make dist that need more than a shell.

    pack.py zip OUT.zip DIR            DIR's tree as OUT.zip, DIR's name the top folder
    pack.py maven-sums DIR             .md5 .sha1 .sha256 .sha512 beside every file in DIR
    pack.py maven-metadata DIR GROUP ARTIFACT VERSION
                                       DIR/maven-metadata.xml naming VERSION, and its sums
    pack.py seal DIST VERSION COMMIT   DIST/shakerand-VERSION.spdx.json, then DIST/SHA256SUMS

Times come from SOURCE_DATE_EPOCH, members are sorted, owners and modes fixed
(0755 for directories and executables, 0644 for the rest), so two runs on one
commit give the same bytes.
"""
import datetime
import hashlib
import json
import os
import pathlib
import sys
import zipfile

EPOCH = int(os.environ["SOURCE_DATE_EPOCH"])
LICENCE = "MIT OR Apache-2.0"


def when():
    return datetime.datetime.fromtimestamp(EPOCH, datetime.timezone.utc)


def make_zip(out, top):
    top = pathlib.Path(top)
    # zip stores local time with 2-second resolution and nothing before 1980.
    stamp = max(when(), datetime.datetime(1980, 1, 1, tzinfo=datetime.timezone.utc)).timetuple()[:6]
    paths = sorted(p for p in top.rglob("*") if p.is_file())
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for p in paths:
            info = zipfile.ZipInfo(f"{top.name}/{p.relative_to(top).as_posix()}", stamp)
            mode = 0o755 if os.access(p, os.X_OK) else 0o644
            info.external_attr = (0o100000 | mode) << 16
            info.create_system = 3  # Unix, so the modes above are read
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, p.read_bytes(), compresslevel=9)


def maven_sums(directory):
    for p in sorted(pathlib.Path(directory).iterdir()):
        if p.suffix in (".md5", ".sha1", ".sha256", ".sha512") or not p.is_file():
            continue
        data = p.read_bytes()
        for algo in ("md5", "sha1", "sha256", "sha512"):
            p.with_name(p.name + "." + algo).write_text(hashlib.new(algo, data).hexdigest())


def maven_metadata(artifact_dir, group, artifact, version):
    """ARTIFACT_DIR/maven-metadata.xml (what a version range or LATEST is
    resolved from) naming VERSION, with its checksums."""
    stamp = when().strftime("%Y%m%d%H%M%S")
    path = pathlib.Path(artifact_dir) / "maven-metadata.xml"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>{group}</groupId>
  <artifactId>{artifact}</artifactId>
  <versioning>
    <latest>{version}</latest>
    <release>{version}</release>
    <versions>
      <version>{version}</version>
    </versions>
    <lastUpdated>{stamp}</lastUpdated>
  </versioning>
</metadata>
""")
    maven_sums(artifact_dir)


# What each file holds, by its path under dist/ (first match wins).
def describe(rel, version):
    v = version
    table = [
        (f"python/shakerand-{v}.tar.gz", "Python sdist (builds the extension from the C core it carries)"),
        (f"rust/shakerand-{v}.crate", "Rust crate (cargo package; carries the C core it builds with the cc crate)"),
        ("maven-metadata.xml", "Maven repository metadata (the versions, for ranges and LATEST)"),
        ("-manylinux_", "Python wheel (manylinux, glibc floor and CPU in its name; tools/dist/wheels.py)"),
        ("-musllinux_", "Python wheel (musllinux, x86-64; built only)"),
        ("-macosx_", "Python wheel (macOS, built only: cross-compiled by zig cc, never run)"),
        (f"shakerand-{v}.tar.gz", "source archive (git archive of the release commit)"),
        (f"npm/shakerand-{v}.tgz",
         "npm package: JavaScript and the two WebAssembly modules (portable, SIMD128)"),
        (f"@v/v{v}.zip", "Go module zip (golang.org/x/mod/zip) for the Go module proxy"),
        (f"@v/v{v}.mod", "Go module go.mod for the Go module proxy"),
        (f"@v/v{v}.info", "Go module version info for the Go module proxy"),
        ("@v/list", "Go module proxy version list"),
        (f"shakerand-{v}-sources.jar", "Java sources jar"),
        (f"shakerand-{v}-javadoc.jar", "Java javadoc jar"),
        (f"shakerand-{v}.jar", "Java jar: classes and the JNI natives listed in tools/dist/README.md"),
        (f"shakerand-{v}.pom", "Maven POM"),
        ("-windows-x86_64.zip",
         "CLI prebuilt for Windows x86-64 (MinGW-w64, static) with man page, completions, licences"),
        ("-linux-", "CLI prebuilt, static Linux binary with man page, completions, licences"),
    ]
    for suffix in (".md5", ".sha1", ".sha256", ".sha512"):
        if rel.endswith(suffix):
            return f"Maven Central checksum ({suffix[1:]}) of {rel[:-len(suffix)].rsplit('/', 1)[-1]}"
    for key, text in table:
        if key in rel:
            return text
    return "release file"


def seal(dist, version, commit):
    dist = pathlib.Path(dist)
    sbom = dist / f"shakerand-{version}.spdx.json"
    files = sorted(p for p in dist.rglob("*") if p.is_file() and p.name != "SHA256SUMS" and p != sbom)
    packages = []
    for i, p in enumerate(files):
        rel = p.relative_to(dist).as_posix()
        data = p.read_bytes()
        packages.append({
            "SPDXID": f"SPDXRef-File-{i}",
            "name": rel,
            "packageFileName": rel,
            "versionInfo": version,
            "downloadLocation": "NOASSERTION",
            "filesAnalyzed": False,
            "checksums": [
                {"algorithm": "SHA256", "checksumValue": hashlib.sha256(data).hexdigest()},
                {"algorithm": "SHA512", "checksumValue": hashlib.sha512(data).hexdigest()},
            ],
            "licenseConcluded": LICENCE,
            "licenseDeclared": LICENCE,
            "copyrightText": "NOASSERTION",
            "description": describe(rel, version),
            "sourceInfo": f"built from git commit {commit}",
        })
    doc = {
        "spdxVersion": "SPDX-2.3",
        "dataLicense": "CC0-1.0",
        "SPDXID": "SPDXRef-DOCUMENT",
        "name": f"shakerand-{version}",
        "documentNamespace": f"https://github.com/shakerand/shakerand/spdx/{version}-{commit}",
        "creationInfo": {
            "created": when().strftime("%Y-%m-%dT%H:%M:%SZ"),
            "creators": ["Tool: shakerand tools/dist/pack.py"],
        },
        "packages": packages,
        "relationships": [{"spdxElementId": "SPDXRef-DOCUMENT", "relationshipType": "DESCRIBES",
                           "relatedSpdxElement": p["SPDXID"]} for p in packages],
    }
    sbom.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    lines = []
    for p in sorted(p for p in dist.rglob("*") if p.is_file() and p.name != "SHA256SUMS"):
        lines.append(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(dist).as_posix()}\n")
    (dist / "SHA256SUMS").write_text("".join(lines))


def main(argv):
    if argv[:1] == ["zip"] and len(argv) == 3:
        make_zip(argv[1], argv[2])
    elif argv[:1] == ["maven-sums"] and len(argv) == 2:
        maven_sums(argv[1])
    elif argv[:1] == ["maven-metadata"] and len(argv) == 5:
        maven_metadata(*argv[1:])
    elif argv[:1] == ["seal"] and len(argv) == 4:
        seal(*argv[1:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
