#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# JMH: drnglib's three benchmarks (nextLong, nextBytes on 2 MiB arrays, UUIDs) at 1 and 2
# threads, then a markdown section in ../BENCHMARKS.md (tools/bench_section.py java ...).
# Settings (environment): JMH_FORKS (1), JMH_WARMUPS (3), JMH_ITERATIONS (5), JMH_TIME (1s),
# BENCH_JDK (Debian's JDK 17, the JDK the issue's targets were measured on). The defaults take
# about 6-8 minutes here; a quick look: JMH_WARMUPS=2 JMH_ITERATIONS=3 java/run-bench.sh
set -eu
cd "$(dirname "$0")"
jdk=${BENCH_JDK:-/usr/lib/jvm/java-17-openjdk-amd64}
[ -x "$jdk/bin/java" ] || jdk=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
forks=${JMH_FORKS:-1} wi=${JMH_WARMUPS:-3} it=${JMH_ITERATIONS:-5} time=${JMH_TIME:-1s}
out=target/bench
JAVA_HOME=$jdk mvn -B -q --no-transfer-progress -DskipTests test-compile \
    dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
rm -rf "$out" && mkdir -p "$out"
cp="target/classes:target/test-classes:$(cat target/cp.txt)"
jmh() { # name, threads, extra JMH arguments...
    name=$1 threads=$2
    shift 2
    echo "== JMH $name, $threads thread(s)"
    "$jdk/bin/java" -cp "$cp" org.openjdk.jmh.Main -f "$forks" -wi "$wi" -w "$time" \
        -i "$it" -r "$time" -t "$threads" -rf json -rff "$out/$name-t$threads.json" "$@" \
        >"$out/$name-t$threads.log" 2>&1 || { tail -n 30 "$out/$name-t$threads.log"; exit 1; }
    grep -E '^(Benchmark|DrngBench)' "$out/$name-t$threads.log" || true
}
for t in 1 2; do
    jmh native "$t" 'DrngBench'
    jmh purejava "$t" 'DrngBench' -p impl=ShakeRandom -e uuidJdk -jvmArgsAppend -Dshakerand.native=false
done
grep -h '^# implementation' "$out"/*.log | sort -u >"$out/implementations.txt" || true
python3 bench_markdown.py "$out" "$jdk" "$forks/$wi/$it/$time" >"$out/FRAGMENT.md"
python3 ../tools/bench_section.py java "$out/FRAGMENT.md" ../BENCHMARKS.md
echo "BENCHMARKS.md: Java section updated"
