# SPDX-License-Identifier: MIT OR Apache-2.0
# The front door. `make` builds into build/ (CLI at build/shakerand);
# `make test` installs what it needs and runs every test suite; `make demo`
# shows a die roll, a token, a UUID and a reproduced seeded stream, then
# 1 GiB beside openssl rand and /dev/urandom; `make bench` writes
# BENCHMARKS.md.
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
BUILD_CLANG ?= build-clang
BUILD_BENCH ?= build-bench
BUILD_PLATFORMS ?= build-platforms
BUILD_WINDOWS ?= build-windows
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_GEN  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

# Python tools (pytest, scipy, pycryptodome; matplotlib and zig for bench
# and test-platforms) come from one virtual environment, the formatters
# from another; tools/install-deps.sh makes them. Nothing is pip-installed
# into a system Python (Debian's is externally managed, PEP 668). Scripts
# that need only the standard library run with python3.
TOOLS_VENV  ?= build-tools/venv
FORMAT_VENV ?= build-format/venv
export SHAKERAND_TOOLS_VENV := $(abspath $(TOOLS_VENV))
export SHAKERAND_FORMAT_TOOLS := $(abspath $(FORMAT_VENV))
PYTHON := $(SHAKERAND_TOOLS_VENV)/bin/python
PYTEST := SHAKERAND_BUILD_DIR=$(abspath $(BUILD)) $(PYTHON) -m pytest -q -p no:cacheprovider

# Go 1.24 or newer (go.mod); Debian 12's golang-go is 1.19. Go's own
# archive (go.dev/dl) unpacks into /usr/local/go, which is used when no go
# is on PATH.
ifeq ($(shell command -v go 2>/dev/null),)
export PATH := $(if $(wildcard /usr/local/go/bin/go),/usr/local/go/bin:)$(PATH)
endif

.PHONY: all deps build-c check check-format check-python check-go check-java check-js check-rust test test-c test-install test-clang test-asan test-tsan test-cross test-platforms test-platforms-all test-windows test-python test-go test-java test-java-cross test-js test-rust test-verify test-vm test-vm-cached test-openssl demo bench bench-openssl bench-go bench-java bench-python bench-js bench-rust verify verify-long dist test-dist clean

all:
	@command -v cmake >/dev/null 2>&1 || tools/install-deps.sh build
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DSHAKERAND_BUILD_TESTS=OFF
	cmake --build $(BUILD) -j $(JOBS)

deps:
	tools/install-deps.sh test

# The fast loop for a change (a few minutes once built): the formatters'
# verdicts; the C suites in Release; the Python oracle (hashlib,
# pycryptodome), vector and CLI checks; the Go module (cgo); the Java suite
# on JDK 17, both paths; the JavaScript suite under Node; the Rust crate up
# to rustdoc. make test runs everything;
# make verify the long forms.
CHECK_TARGETS := check-format test-c check-python check-go check-java check-js check-rust
check: deps
	@tools/run-targets.sh "$(MAKE)" $(CHECK_TARGETS)
	@echo "make check: passed (make test runs everything)"

# C (clang-format), Go (gofmt), Python (ruff) and whitespace, on the files
# tools/check-format.sh names; changes nothing.
check-format:
	tools/install-deps.sh format
	tools/check-format.sh

# The oracle, vector and CLI suites with the kernel the machine picks
# (test-python runs them with the portable one too).
check-python: build-c
	tools/install-deps.sh python
	$(PYTEST) tests/python/test_oracle.py tests/python/test_vectors.py tests/python/test_cli*.py

check-go:
	@command -v go >/dev/null 2>&1 || { echo "check-go: no go on PATH or in /usr/local/go/bin (Go 1.24+, go.dev/dl)" >&2; exit 1; }
	cd go && go vet ./... && go test -count=1 ./...

check-java:
	SHAKERAND_JDKS=/usr/lib/jvm/java-17-openjdk-amd64 java/run-tests.sh

# One after another, with the time each took (tools/run-targets.sh); the
# last three side by side (a+b+c), each mostly on one core and in a build
# folder of its own: the guest under TCG, the JVMs under qemu-user and the
# statistical batteries.
TEST_TARGETS := check-format test-c test-install test-clang test-asan test-tsan test-cross test-platforms \
    test-windows test-python test-go test-java test-js test-rust test-openssl \
    test-vm-cached+test-java-cross+test-verify
test: deps
	@tools/install-deps.sh verify # now, not beside test-java-cross's own apt downloads
	@tools/run-targets.sh "$(MAKE)" $(TEST_TARGETS)
	@echo "make test: every suite passed"

# The Release build with the suites, which the later targets use; test-c
# runs the suites once (the others need only the build).
build-c:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DSHAKERAND_BUILD_TESTS=ON
	cmake --build $(BUILD) -j $(JOBS)

test-c: build-c
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# find_package and pkg-config consumers of an installed copy.
test-install: build-c
	tests/consumer/run.sh $(BUILD)

# The OpenSSL provider (docs/openssl.md) under the openssl command (rand,
# genpkey, req -x509), Python's ssl (RAND_bytes, a TLS handshake over
# loopback) and a fork check, with OpenSSL 3.0 here and the openssl
# command of OpenSSL 3.5 (Debian 13, a private root): tests/openssl/run.sh.
# OpenSSL's headers first, so that build-c configures the module.
test-openssl:
	@dpkg -s libssl-dev openssl >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq libssl-dev openssl; }
	@$(MAKE) --no-print-directory build-c
	tests/openssl/run.sh $(BUILD)

# Everything again with clang (the C++ header must build -Werror with both);
# every suite runs but the three longest (signal reentrancy, the samplers'
# statistics), which run under gcc and ASan. The library as Release builds
# it; the C++ test code at -O1, which saves a third of the build.
test-clang:
	CC=clang CXX=clang++ cmake -S . -B $(BUILD_CLANG) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release \
	    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DSHAKERAND_BUILD_TESTS=ON
	cmake --build $(BUILD_CLANG) -j $(JOBS)
	ctest --test-dir $(BUILD_CLANG) --output-on-failure -j $(JOBS) -E '^(reentrancy|reentrancy_x8|samplers)$$'

# The whole C suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
# The library as RelWithDebInfo builds it; the C++ test code at -O1 with
# line tables only (enough for the sanitizers' reports), which halves the
# build (googletest's templates at -O2 -g were most of it).
SANITIZER_TEST_CXX_FLAGS := -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1"
test-asan:
	cmake -S . -B $(BUILD_ASAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(SANITIZER_TEST_CXX_FLAGS) \
	    -DSHAKERAND_BUILD_TESTS=ON -DSHAKERAND_SANITIZE=address,undefined
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS)

# The threaded suites under ThreadSanitizer.
test-tsan:
	cmake -S . -B $(BUILD_TSAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(SANITIZER_TEST_CXX_FLAGS) \
	    -DSHAKERAND_BUILD_TESTS=ON -DSHAKERAND_SANITIZE=thread
	cmake --build $(BUILD_TSAN) -j $(JOBS) --target test_system test_engine test_entropy \
	    test_entropy_atfork test_reentrancy
	ctest --test-dir $(BUILD_TSAN) --output-on-failure -j $(JOBS) -R '^(system|engine|entropy|reentrancy)'

# ppc64le (DARN), aarch64 (RNDR), s390x (big-endian) and x86-64 without
# RDRAND, under qemu-user; then the stack-residue suite on the first three.
test-cross:
	tools/install-deps.sh cross
	tests/cross/run.sh
	tests/cross/suites.sh --stack $(BUILD)-cross

# macOS (arm64, x86-64) and FreeBSD (x86-64), cross-built with zig cc and
# -Werror, not run: the libraries and the CLI for each, every C suite
# compiled for each, both C++ headers against libc++, the Python
# extension; Go's cross builds. test-platforms-all links every C suite
# for every target (zig then builds each target's libc++ first).
test-platforms:
	tools/install-deps.sh platforms
	JOBS=$(JOBS) tests/platforms/build.sh $(BUILD_PLATFORMS)
	tests/platforms/go.sh $(BUILD_PLATFORMS)/go

# x86-64 Windows, cross-built with MinGW-w64 and run under Wine 8
# (tests/windows/): the C suites, cmake --install and its find_package and
# pkg-config consumers, the CLI's tests, the Go suites (pure and cgo) and
# the Java native tests on a Windows JVM, whose success lets the jar carry
# the Windows DLL (so before test-java).
test-windows: build-c
	tools/install-deps.sh windows
	tools/install-deps.sh python
	tests/windows/c.sh $(BUILD_WINDOWS)
	tests/windows/install.sh $(BUILD_WINDOWS)/install
	tests/windows/cli.sh
	tests/windows/go.sh
	tests/windows/java.sh

test-platforms-all:
	tools/install-deps.sh platforms
	JOBS=$(JOBS) tests/platforms/build.sh --all $(BUILD_PLATFORMS)

# Oracle, vector-drift and CLI tests, once per kernel; then the Python
# package (python/run-tests.sh: pip install, the sdist in a fresh virtual
# environment, other CPythons).
test-python: build-c
	tools/install-deps.sh python
	$(PYTEST) tests/python
	SHAKERAND_KERNEL=portable $(PYTEST) tests/python/test_oracle.py tests/python/test_cli.py
	python/run-tests.sh $(BUILD)

# The Go front end: vet, go test -race, and a consumer module built from
# this checkout with only Go and a C compiler.
test-go:
	tools/go/run-tests.sh

# The Java front end (java/): both paths on JDK 17 and 25.
test-java:
	java/run-tests.sh

# The JavaScript package (js/): the WebAssembly modules built, the suite
# under node --test, in headless Chromium, and under Deno and Bun with each
# module, examples/web, and npm pack installed into a new project
# (js/run-tests.sh; the CLI of build-c is its oracle for seeded big
# bounds). About a minute.
test-js: build-c
	tools/install-deps.sh js
	SHAKERAND_CLI=$(abspath $(BUILD))/shakerand js/run-tests.sh

# make check's part of it: the suite under Node with each module (no
# Chromium, Deno, Bun or packing).
check-js: build-c
	tools/install-deps.sh js
	SHAKERAND_CLI=$(abspath $(BUILD))/shakerand js/run-tests.sh --quick

# The Rust crate (rust/): fmt, clippy, cargo test on every kernel and with
# every feature (the CLI of build-c the oracle for seeded streams and big
# bounds), the getrandom back end, rustdoc, and the tests under qemu-user
# and Wine (rust/run-tests.sh).
test-rust: build-c
	SHAKERAND_CLI=$(abspath $(BUILD))/shakerand SHAKERAND_REQUIRE_CLI=1 rust/run-tests.sh

# make check's part of it: up to rustdoc (no valgrind, other kernels, MSRV
# or cross runs).
check-rust: build-c
	SHAKERAND_CLI=$(abspath $(BUILD))/shakerand SHAKERAND_REQUIRE_CLI=1 rust/run-tests.sh --quick

# The jar's aarch64, ppc64le and s390x natives under qemu-user with each
# architecture's JVM: vectors, provider, threads, DARN and RNDR.
test-java-cross:
	java/run-cross-tests.sh

# A real VM snapshot restored twice and once from a clone (tests/vm/run.sh):
# QEMU 10 under TCG with Debian's 7.3.4 guest kernel, fetched by package
# name into ~/.cache/shakerand-vm, six scenarios with their verdicts written
# down for every front end (the runtimes' on a read-only disk). A first run
# also builds the test-only QEMU that keeps the VM generation counter
# (scenario 6, about 10 minutes); about 270 to 360 s when cached (docs/system.md).
# make test runs test-vm-cached: every scenario whose QEMU is at hand,
# scenario 6 only once make test-vm has built its QEMU (it says so).
test-vm:
	tests/vm/run.sh

test-vm-cached:
	SHAKERAND_VM_BUILD_QEMU=0 tests/vm/run.sh

# The verification suite's short forms (fuzzing 20 s a target; SmallCrush,
# rngtest, ent and seven dieharder tests on the system generator; sampler
# chi-square, ctgrind, valgrind on the fast suites); report in
# build-verify/RESULTS.md.
test-verify: build-c
	tools/install-deps.sh verify
	verification/run.sh short

# Everything (about 40 minutes): sanitizers, valgrind, static analysis, the
# suites under qemu, ctgrind, fuzzing, Crush and every dieharder test; writes
# verification/RESULTS.md. verify-long adds BigCrush (hours).
verify: deps
	tools/install-deps.sh verify
	tools/install-deps.sh cross
	verification/run.sh full

verify-long: deps
	tools/install-deps.sh verify
	tools/install-deps.sh cross
	verification/run.sh long

# Release files (tools/dist/README.md): make dist writes dist/ from the
# commit at HEAD (source archive, npm tarball, Go module proxy tree, Maven
# repository tree, static CLI archives, SPDX SBOM, SHA256SUMS; about 3
# minutes); make test-dist installs each from its local registry in a fresh
# place, checks a seeded value against the Python oracle, then makes dist
# again elsewhere and compares every file. Neither is part of make test.
dist:
	tools/dist/dist.sh dist build-dist/work

test-dist:
	@[ -f dist/SHA256SUMS ] || { echo "test-dist: no dist/SHA256SUMS: run make dist first" >&2; exit 1; }
	tools/dist/test.sh dist

# What it is for, in a few lines (a die roll, a token, a UUID, a seeded
# stream twice), then 1 GiB from the CLI, openssl rand and /dev/urandom,
# each timed writing to /dev/null (tools/demo.sh). A few seconds once built.
demo:
	@tools/install-deps.sh demo
	@$(MAKE) --no-print-directory all >/dev/null
	@tools/demo.sh $(BUILD)/shakerand

# Every figure in the core section of BENCHMARKS.md comes from this one run,
# peers included (Rust's rand::rng() through bench/rust-peer when cargo is
# there); the charts go to bench/charts/; then make bench-rust. About 5-6
# minutes.
bench:
	tools/install-deps.sh bench
	cmake -S . -B $(BUILD_BENCH) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release \
	    -DSHAKERAND_BUILD_TESTS=OFF -DSHAKERAND_BUILD_BENCH=ON
	cmake --build $(BUILD_BENCH) -j $(JOBS)
	-command -v cargo >/dev/null 2>&1 && cargo build --release -q --manifest-path bench/rust-peer/Cargo.toml
	$(BUILD_BENCH)/bench/shakerand_bench --cli $(BUILD_BENCH)/shakerand \
	    --json $(BUILD_BENCH)/core.json --markdown $(BUILD_BENCH)/core.md
	SHAKERAND_SYSTEM_ENGINE=chacha8rand $(BUILD_BENCH)/bench/cpp_bench --benchmark_min_time=0.2 \
	    --benchmark_repetitions=3 --benchmark_format=json > $(BUILD_BENCH)/cpp.json
	SHAKERAND_SYSTEM_ENGINE=turboshake256x8 $(BUILD_BENCH)/bench/cpp_bench --benchmark_filter='^system_u64$$' \
	    --benchmark_min_time=0.2 --benchmark_repetitions=3 --benchmark_format=json > $(BUILD_BENCH)/cpp-x8.json
	python3 tools/bench_cpp_markdown.py $(BUILD_BENCH)/cpp.json $(BUILD_BENCH)/cpp-x8.json $(BUILD_BENCH)/core.md
	$(PYTHON) tools/bench_charts.py $(BUILD_BENCH)/core.json bench/charts
	python3 tools/bench_section.py core $(BUILD_BENCH)/core.md BENCHMARKS.md
	$(MAKE) --no-print-directory bench-rust

# The Rust crate beside rand, getrandom, fastrand and the uuid crate
# (rust/benches/peers.rs, two builds: rust/bench.sh), into BENCHMARKS.md.
bench-rust:
	rust/bench.sh

# The Python benchmark (tools/bench_python.py: the package beside secrets,
# random, uuid, os.urandom, numpy's PCG64 and randomgen's AESCounter when it
# installs), into BENCHMARKS.md. About 2 minutes.
bench-python:
	tools/install-deps.sh python
	python3 -m venv --clear $(BUILD_BENCH)/python-venv
	$(BUILD_BENCH)/python-venv/bin/pip install -q --disable-pip-version-check "./python[numpy]"
	-$(BUILD_BENCH)/python-venv/bin/pip install -q --disable-pip-version-check randomgen
	$(BUILD_BENCH)/python-venv/bin/python tools/bench_python.py \
	    --markdown $(BUILD_BENCH)/python.md --json $(BUILD_BENCH)/python.json
	python3 tools/bench_section.py python $(BUILD_BENCH)/python.md BENCHMARKS.md

# The Go benchmarks (the "bad random" table re-made), into BENCHMARKS.md.
bench-go:
	tools/go/run-bench.sh

# The JavaScript benchmark (js/bench/bench.mjs: the package beside Node's
# crypto and Math.random), into BENCHMARKS.md. About 30 s.
bench-js:
	tools/install-deps.sh js
	js/tools/build-wasm.sh
	mkdir -p $(BUILD_BENCH)
	node js/bench/bench.mjs --markdown $(BUILD_BENCH)/js.md --json $(BUILD_BENCH)/js.json
	python3 tools/bench_section.py javascript $(BUILD_BENCH)/js.md BENCHMARKS.md

# RAND_bytes and RAND_priv_bytes through the OpenSSL provider against
# OpenSSL's default DRBG in one process, and openssl rand of 1 GiB with and
# without the configuration (bench/openssl.sh), into BENCHMARKS.md. About
# 30 s once built.
bench-openssl:
	@dpkg -s libssl-dev openssl >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq libssl-dev openssl; }
	@$(MAKE) --no-print-directory build-c
	bench/openssl.sh $(BUILD)

# JMH: drnglib's three benchmarks at 1 and 2 threads into BENCHMARKS.md (about 6-8 minutes).
bench-java:
	java/run-bench.sh

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_TSAN) $(BUILD_CLANG) $(BUILD_BENCH) $(BUILD_PLATFORMS) $(BUILD_WINDOWS) build-fuzz build-verify build-tidy build-ctgrind build-vm build-dist build-rust dist
