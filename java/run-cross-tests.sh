#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Java suite's platform-sensitive part on the other architectures the jar carries, each
# under qemu-user with that architecture's JVM (Debian's openjdk-17-jre-headless, unpacked into
# a private root under target/cross/, never installed): the native library the jar holds for it,
# the vectors (s390x is big-endian), the native-versus-Java cross-check, the provider, DRBG
# parameters, threads, and the sources report: DARN used under -cpu power9 and absent under
# power8, RNDR used under -cpu max and absent under cortex-a57.
# Usage: java/run-cross-tests.sh   (make test-java-cross; installs what it needs)
set -eu
cd "$(dirname "$0")"
../tools/install-deps.sh cross
if ! command -v mvn >/dev/null 2>&1 || ! command -v javac >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
        maven openjdk-17-jdk-headless >/dev/null
fi
cross=$(pwd)/target/cross
mkdir -p "$cross"

# A JVM for Debian architecture $1: Debian 12's packages unpacked into a root of their own
# under target/cross/ (tools/debian-root.sh: never installed, the machine's apt state untouched).
jvm_root() {
    ../tools/debian-root.sh --only bookworm "$1" "$cross/root-$1" openjdk-17-jre-headless libc6 libgcc-s1 \
        libstdc++6 zlib1g >&2
    echo "$cross/root-$1"
}

# The host build: all four natives (a missing cross compiler is an error here), the test
# classes, and JUnit's console launcher. The Windows DLL is tests/windows/java.sh's to check:
# -Dshakerand.windows=if-tested lets this run without it.
mvn -B -q --no-transfer-progress -Prelease -Dshakerand.windows=if-tested test-compile
mvn -B -q --no-transfer-progress dependency:copy \
    -Dartifact=org.junit.platform:junit-platform-console-standalone:1.10.2 \
    -DoutputDirectory="$cross" >/dev/null
launcher="$cross/junit-platform-console-standalone-1.10.2.jar"
classes="target/classes:target/test-classes"
tests="--select-class=org.shakerand.PlatformTest --select-class=org.shakerand.VectorTest
    --select-class=org.shakerand.CrossCheckTest --select-class=org.shakerand.SeededApiTest
    --select-class=org.shakerand.DrbgTest --select-class=org.shakerand.ThreadSafetyTest
    --select-class=org.shakerand.UuidTest --select-class=org.shakerand.ArgumentTest
    --select-class=org.shakerand.KindTableTest"

# run QEMU DEBIAN_ARCH PLATFORM CPU EXPECT_SOURCES
run() {
    qemu=$1 arch=$2 platform=$3 cpu=$4 expect=$5
    root=$(jvm_root "$arch")
    start=$(date +%s)
    if ! out=$(QEMU_LD_PREFIX="$root" QEMU_CPU="$cpu" "$qemu" \
            "$root/usr/lib/jvm/java-17-openjdk-$arch/bin/java" \
            -XX:TieredStopAtLevel=1 --add-opens java.base/java.security=ALL-UNNAMED \
            -Dshakerand.expectNative=true -Dshakerand.expectPlatform="$platform" \
            -Dshakerand.expectSources="$expect" \
            -jar "$launcher" -cp "$classes" $tests --disable-banner --details=summary \
            --disable-ansi-colors 2>&1); then
        echo "$out"
        echo "java cross $platform -cpu $cpu: FAILED" >&2
        exit 1
    fi
    summary=$(echo "$out" | grep -E "tests (successful|failed)" | tr -s ' ' | tr '\n' ' ')
    echo "java cross $platform -cpu $cpu ($expect): $summary($(($(date +%s) - start)) s)"
}

run qemu-ppc64le ppc64el linux-ppc64le power9 +darn
run qemu-ppc64le ppc64el linux-ppc64le power8 -darn
run qemu-aarch64 arm64 linux-aarch64 max +rndr
run qemu-aarch64 arm64 linux-aarch64 cortex-a57 -rndr
run qemu-s390x s390x linux-s390x max ""
mvn -B -q --no-transfer-progress -Prelease -Dshakerand.windows=if-tested -DskipTests package >/dev/null
for platform in linux-x86_64 linux-aarch64 linux-ppc64le linux-s390x; do
    unzip -l target/shakerand-0.1.0.jar | grep -q "native/$platform/libshakerand_jni.so" ||
        { echo "the jar has no native/$platform" >&2; exit 1; }
    # Only the JNI entry points are exported (build.sh: --exclude-libs). The name is the last
    # field: ppc64le adds "[<localentry>: 8]" to the visibility column.
    exported=$(readelf --dyn-syms -W "target/classes/native/$platform/libshakerand_jni.so" |
        awk '($5 == "GLOBAL" || $5 == "WEAK") && ($4 == "FUNC" || $4 == "OBJECT") && !/ UND / { print $NF }')
    echo "$exported" | grep -q '^Java_' || { echo "$platform: no JNI symbol found" >&2; exit 1; }
    others=$(echo "$exported" | grep -v '^Java_' || true)
    [ -z "$others" ] || { echo "$platform exports more than JNI:" $others >&2; exit 1; }
done
echo "the jar holds the natives of linux-x86_64, linux-aarch64, linux-ppc64le and linux-s390x"
echo "Java cross tests passed"
