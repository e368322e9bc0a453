#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs the Java front end's tests: both paths (native JNI and -Dshakerand.native=false, two
# surefire executions) on JDK 17 and on every other JDK listed in SHAKERAND_JDKS that is
# installed (default: Debian's JDK 17 and Temurin 25). Maven fetches JUnit and JMH from Maven
# Central on first use; the native library is built from ../src by the Maven build itself.
set -eu
cd "$(dirname "$0")"
if ! command -v mvn >/dev/null 2>&1 || ! command -v javac >/dev/null 2>&1; then
    echo "installing: maven openjdk-17-jdk-headless"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
        maven openjdk-17-jdk-headless >/dev/null
fi
jdks=${SHAKERAND_JDKS:-"/usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64"}
ran=0
for jdk in $jdks; do
    if [ ! -x "$jdk/bin/javac" ]; then
        echo "== $jdk: not installed, skipped"
        continue
    fi
    echo "== Java tests on $("$jdk/bin/java" -version 2>&1 | head -n 1) ($jdk)"
    JAVA_HOME=$jdk mvn -B -q --no-transfer-progress test
    for dir in target/surefire-reports target/surefire-reports-pure-java; do
        python3 - "$dir" <<'PY'
import glob, re, sys
t = e = f = s = 0
for p in glob.glob(sys.argv[1] + "/TEST-*.xml"):
    head = open(p, encoding="utf-8").read(2000)
    m = re.search(r'tests="(\d+)" errors="(\d+)" skipped="(\d+)" failures="(\d+)"', head)
    t += int(m[1]); e += int(m[2]); s += int(m[3]); f += int(m[4])
path = "pure Java" if sys.argv[1].endswith("pure-java") else "native"
print(f"   {path}: {t} tests, {f} failures, {e} errors, {s} skipped")
PY
    done
    ran=$((ran + 1))
done
if [ "$ran" -eq 0 ]; then
    echo "no JDK found among: $jdks" >&2
    exit 1
fi
echo "Java tests passed on $ran JDK(s)"

# What a release publishes: the jar, its sources and its doclint-clean javadoc (a javadoc
# warning fails the build), installed into the local repository.
mvn -B -q --no-transfer-progress -DskipTests install
for jar in shakerand-0.1.0.jar shakerand-0.1.0-sources.jar shakerand-0.1.0-javadoc.jar; do
    [ -s "target/$jar" ] || { echo "mvn install made no target/$jar" >&2; exit 1; }
done
echo "mvn install: jar, sources jar and javadoc jar"

# examples/java (README, "Use it from a checkout") against the jar, on each
# JDK and both paths; it checks a seeded value itself and prints its
# "runs on" line only if it matched.
for jdk in $jdks; do
    [ -x "$jdk/bin/java" ] || continue
    "$jdk/bin/java" --enable-native-access=ALL-UNNAMED -cp target/shakerand-0.1.0.jar \
        ../examples/java/QuickStart.java | grep -q "^runs on native" ||
        { echo "examples/java failed on $jdk (native)" >&2; exit 1; }
    "$jdk/bin/java" -Dshakerand.native=false -cp target/shakerand-0.1.0.jar \
        ../examples/java/QuickStart.java 2>/dev/null | grep -q "^runs on pure Java" ||
        { echo "examples/java failed on $jdk (pure Java)" >&2; exit 1; }
done
echo "examples/java: ran on the native and pure-Java paths"
