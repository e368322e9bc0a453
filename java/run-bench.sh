#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# JMH: drnglib's three benchmarks (nextLong, nextBytes on 2 MiB arrays, UUIDs) at 1 and 2
# threads, issue 29's single draws (nextLong and nextInt(1000) against ThreadLocalRandom, on
# BENCH_JDK and on JDK 25), issue 46's cost of the pure path's vmclock watch (VmClockBench,
# 1 thread), then a markdown section in ../BENCHMARKS.md (tools/bench_section.py java ...).
# Settings (environment): JMH_FORKS (1), JMH_WARMUPS (3), JMH_ITERATIONS (5), JMH_TIME (1s),
# BENCH_JDK (Debian's JDK 17, the JDK the issue's targets were measured on),
# BENCH_JDK25 (Temurin 25; skipped if not installed). The defaults took about 10-12 minutes
# here before VmClockBench, which took 90 s alone; a quick look:
# JMH_WARMUPS=2 JMH_ITERATIONS=3 java/run-bench.sh
set -eu
cd "$(dirname "$0")"
jdk=${BENCH_JDK:-/usr/lib/jvm/java-17-openjdk-amd64}
[ -x "$jdk/bin/java" ] || jdk=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
jdk25=${BENCH_JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
forks=${JMH_FORKS:-1} wi=${JMH_WARMUPS:-3} it=${JMH_ITERATIONS:-5} time=${JMH_TIME:-1s}
out=target/bench
JAVA_HOME=$jdk mvn -B -q --no-transfer-progress -DskipTests test-compile \
    dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
rm -rf "$out" && mkdir -p "$out/jdk25"
cp="target/classes:target/test-classes:$(cat target/cp.txt)"
cat /proc/loadavg >"$out/load-start.txt" 2>/dev/null || true
run_jdk=$jdk run_out=$out
jmh() { # name, threads, extra JMH arguments... (on $run_jdk, into $run_out)
    name=$1 threads=$2
    shift 2
    echo "== JMH $name, $threads thread(s), $(basename "$run_jdk")"
    "$run_jdk/bin/java" -cp "$cp" org.openjdk.jmh.Main -f "$forks" -wi "$wi" -w "$time" \
        -i "$it" -r "$time" -t "$threads" -rf json -rff "$run_out/$name-t$threads.json" "$@" \
        >"$run_out/$name-t$threads.log" 2>&1 || { tail -n 30 "$run_out/$name-t$threads.log"; exit 1; }
    grep -E '^(Benchmark|DrngBench)' "$run_out/$name-t$threads.log" || true
}
for t in 1 2; do
    jmh native "$t" 'DrngBench' -e nextIntBound
    jmh purejava "$t" 'DrngBench' -p impl=ShakeRandom -e uuidJdk -jvmArgsAppend -Dshakerand.native=false
done
# Issue 29's bounded draw against ThreadLocalRandom's (the other generators have no target).
jmh bounded 1 'DrngBench.nextIntBound' -p impl=ThreadLocalRandom,ShakeRandom
# Issue 46: the pure path's vmclock watch per value, its peers and a positional read, one run.
jmh vmclock 1 'VmClockBench' -jvmArgsAppend -Dshakerand.native=false
if [ -x "$jdk25/bin/java" ]; then
    run_jdk=$jdk25 run_out=$out/jdk25
    jmh native 1 'DrngBench.next(Long|IntBound)$' -p impl=ThreadLocalRandom,ShakeRandom
    jmh purejava 1 'DrngBench.next(Long|IntBound)$' -p impl=ShakeRandom -jvmArgsAppend -Dshakerand.native=false
    "$jdk25/bin/java" -version 2>&1 | head -n 1 >"$out/jdk25/version.txt"
else
    echo "== $jdk25: not installed, issue 29's JDK 25 rows skipped"
fi
cat /proc/loadavg >"$out/load-end.txt" 2>/dev/null || true
grep -h '^# implementation' "$out"/*.log | sort -u >"$out/implementations.txt" || true
python3 bench_markdown.py "$out" "$jdk" "$forks/$wi/$it/$time" >"$out/FRAGMENT.md"
python3 ../tools/bench_section.py java "$out/FRAGMENT.md" ../BENCHMARKS.md
echo "BENCHMARKS.md: Java section updated"
