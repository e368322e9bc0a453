#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
#
# A real VM snapshot restored twice (issue 37): a guest kernel under QEMU
# (TCG: KVM does not work on this machine kind) runs the C system generator,
# the CLI's `bytes` stream, Go in both builds, OpenSSL's RAND_bytes with
# the provider's configuration and without it (issue 47), and from a
# read-only disk Java (the jar's JNI and pure-Java paths), Python (with
# numpy), JavaScript under Node and Rust (issue 46); the host snapshots it,
# restores the snapshot twice and a snapshot of a clone once more (a chain),
# and compares what each copy hands out after the snapshot point with the
# other copies' output and with the snapshot's own continuation (the
# original VM, and the clone the chain's snapshot came from, let run on
# after the snapshot: nothing tells them of a restore, so they continue the
# snapshot's stream).
#
# Usage: tests/vm/run.sh [SCENARIO...]     (default: all, one line each)
#        tests/vm/run.sh fetch | build       (only that step)
#
# What it fetches, by package name through tools/private-apt.sh (an apt
# state of its own under the cache folder; the system's is not touched),
# into ${SHAKERAND_VM_CACHE:-~/.cache/
# shakerand-vm}: Debian 13's qemu-system-x86 and its library closure, run
# through that release's own dynamic loader (Debian 12's libc is too old
# for it); trixie-backports' cloud kernel and two of its modules
# (ptp_vmclock.ko, the vmclock driver, and virtio_blk.ko for the runtimes'
# disk; SHAKERAND_VM_KERNEL names another version); busybox-static; for
# the runtimes, numpy from PyPI into pip's cache there, and a jlink
# runtime. Scenario 6 needs a QEMU whose vmclock device keeps the VM
# generation counter (qemu-vmclock-generation.patch, beside this script):
# it is built once from Debian's qemu source package into the cache (about
# 5 minutes on 2 cores); SHAKERAND_VM_BUILD_QEMU=0 skips that scenario
# instead of building. The guest programs are built in build-vm/ (or
# SHAKERAND_VM_BUILD): libshakerand.a and the CLI linked statically, the
# agent (agent.c) and the Go program (gdraw/) in both builds; odraw.c
# dynamically, with Debian 12's libcrypto, its loader and the provider
# module (openssl/) copied into the initramfs; the runtimes' programs as
# build_runtimes below says.
#
# Each scenario's expected verdict per front end is written in SCENARIOS
# below before anything runs; driver.py says what a verdict means.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${SHAKERAND_VM_CACHE:-$HOME/.cache/shakerand-vm}
build=${SHAKERAND_VM_BUILD:-$root/build-vm}
kernel_version=${SHAKERAND_VM_KERNEL:-7.3.4+deb13-cloud-amd64}
python=${PYTHON:-python3}
export PATH="$PATH${PATH:+:}/usr/local/go/bin"

mkdir -p "$cache" "$build"
# Two runs at once would empty each other's cache folders and build folder
# while the other reads them: the second waits on the cache's lock (flock)
# until the first ends, then reuses what it made.
exec 9>>"$cache/lock"
if ! flock -n 9; then
    echo "vm: waiting for another run ($cache/lock)" >&2
    flock 9
fi
trixie=$cache/trixie          # QEMU's root: its binaries, libraries, firmware
kernel_dir=$cache/kernel-$kernel_version
qemu_gen=$cache/qemu-vmgen    # the test-only QEMU (scenario 6)

log() { echo "vm: $*" >&2; }
die() { echo "vm: $*" >&2; exit 1; }

# The harness's own apt (tools/private-apt.sh, under the cache folder):
# Debian 13 (trixie, trixie-backports, and trixie's sources), signed by the
# keys Debian 12's debian-archive-keyring holds; lists older than their
# Valid-Until still serve, so a cached run needs no network.
apt_dir=$cache/apt
apt_private() { # apt-get|apt-cache ARG...
    "$root/tools/private-apt.sh" "$apt_dir" amd64 "deb trixie
deb trixie-backports
deb-src trixie" "$1" -o Acquire::Check-Valid-Until=false -o Acquire::Check-Date=false "${@:2}"
}
apt_ready=0
apt_setup() {
    [ "$apt_ready" = 1 ] && return
    # Once a day at most: a cached run needs no network.
    if [ -z "$(find "$apt_dir/lists" -maxdepth 1 -name '*_InRelease' -mmin -1440 2>/dev/null)" ]; then
        log "apt-get update (the harness's own lists in $apt_dir)"
        apt_private apt-get -qq update >/dev/null || die "apt-get update failed"
    fi
    apt_ready=1
}

# Downloads the named packages and unpacks them into a root (the roots are
# the cache; the .deb files are not kept).
unpack_packages() {
    local into=$1 debs=$cache/debs.$$
    shift
    rm -rf "$debs"
    mkdir -p "$debs" "$into"
    (cd "$debs" && apt_private apt-get -qq download "$@" >/dev/null) ||
        die "apt-get download failed: $* (SHAKERAND_VM_KERNEL may name another kernel: apt-cache search linux-binary)"
    local deb
    for deb in "$debs"/*.deb; do
        dpkg-deb -x "$deb" "$into"
        case $deb in */qemu-system-x86_*) dpkg-deb -f "$deb" Version > "$into/.qemu-version" ;; esac
    done
    rm -rf "$debs"
}

# A package and the Depends it needs, recursively, keeping the libraries
# (the rest, adduser and debconf and the like, matter only to dpkg).
closure() {
    apt_private apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
        --no-breaks --no-replaces --no-enhances "$@" 2>/dev/null |
        grep -v '^ ' | grep -v '^<' | sort -u |
        grep -E '^(lib|qemu-system-(x86|common|data)$|seabios$|ipxe-qemu$)' |
        grep -Ev '^lib(pam|semanage|audit|debconfclient|debian-installer)'
}

fetch_qemu() {
    [ -f "$trixie/.done" ] && return
    apt_setup
    log "fetching Debian 13's QEMU and its libraries into $trixie"
    rm -rf "$trixie"
    # shellcheck disable=SC2046
    unpack_packages "$trixie" $(closure qemu-system-x86)
    local loader=$trixie/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
    "$loader" --library-path "$trixie/usr/lib/x86_64-linux-gnu" --list \
        "$trixie/usr/bin/qemu-system-x86_64" | grep -q 'not found' &&
        die "QEMU's libraries are incomplete: $loader --list says 'not found'"
    mv "$trixie/.qemu-version" "$trixie/.done"
}

fetch_kernel() {
    [ -f "$kernel_dir/.done" ] && [ -f "$kernel_dir/virtio_blk.ko" ] && return
    apt_setup
    log "fetching the guest kernel $kernel_version and busybox-static into $kernel_dir"
    rm -rf "$kernel_dir" "$kernel_dir.tmp"
    unpack_packages "$kernel_dir.tmp" "linux-binary-$kernel_version" "linux-modules-$kernel_version" busybox-static
    mkdir -p "$kernel_dir"
    cp "$kernel_dir.tmp/usr/lib/modules/$kernel_version/vmlinuz" "$kernel_dir/vmlinuz"
    xz -dc "$kernel_dir.tmp/usr/lib/modules/$kernel_version/kernel/drivers/ptp/ptp_vmclock.ko.xz" \
        > "$kernel_dir/ptp_vmclock.ko"
    # The runtimes' disk (virtio_blk is a module in this kernel; ext4 and
    # the virtio bus are built in).
    xz -dc "$kernel_dir.tmp/usr/lib/modules/$kernel_version/kernel/drivers/block/virtio_blk.ko.xz" \
        > "$kernel_dir/virtio_blk.ko"
    cp "$kernel_dir.tmp/usr/bin/busybox" "$kernel_dir/busybox"
    rm -rf "$kernel_dir.tmp"
    touch "$kernel_dir/.done"
}

# The test-only QEMU: Debian 13's qemu source with Debian's patches (among
# them the one that keeps the build from unpacking firmware the source
# package leaves out), then ours; x86_64-softmmu only, compiled by this
# machine's gcc against Debian 13's headers and libraries (the development
# packages unpacked into the same root, used as a sysroot; -B and -L put
# its C library before the one Debian 12's gcc finds by itself), so that it
# runs as the stock binary does, through that root's loader.
build_qemu_gen() {
    local patch=$here/qemu-vmclock-generation.patch
    local stamp
    stamp=$(sha256sum "$patch" | cut -c1-16)-$(cat "$trixie/.done")
    [ "$(cat "$qemu_gen/.done" 2>/dev/null)" = "$stamp" ] && return 0
    apt_setup
    log "building the test-only QEMU into $qemu_gen (once; about 5 minutes)"
    rm -rf "$qemu_gen"
    mkdir -p "$qemu_gen/src"
    # shellcheck disable=SC2046
    unpack_packages "$trixie" libc6-dev libcrypt-dev linux-libc-dev/trixie libglib2.0-dev \
        libgio-2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev libffi-dev libpcre2-dev libmount-dev \
        libblkid-dev libselinux1-dev libsepol-dev libsysprof-capture-4-dev uuid-dev
    (cd "$qemu_gen/src" && apt_private apt-get -qq source --download-only qemu/trixie >/dev/null) ||
        die "apt-get source qemu failed"
    (cd "$qemu_gen/src" && dpkg-source --no-check -x qemu_*.dsc tree >/dev/null) ||
        die "dpkg-source -x failed"
    patch -d "$qemu_gen/src/tree" -p1 -s < "$patch" || die "$patch does not apply"
    "$python" -m venv "$qemu_gen/venv"
    "$qemu_gen/venv/bin/pip" -q install meson==1.5.2 || die "pip install meson failed"
    local sysroot=$trixie lib=$trixie/usr/lib/x86_64-linux-gnu
    # The libc.so linker script names /lib/...: in a merged-/usr root
    # those are links, which dpkg-deb -x does not make.
    [ -e "$sysroot/lib" ] || ln -s usr/lib "$sysroot/lib"
    [ -e "$sysroot/lib64" ] || ln -s usr/lib64 "$sysroot/lib64"
    mkdir -p "$qemu_gen/build"
    (
        cd "$qemu_gen/build"
        export PKG_CONFIG_SYSROOT_DIR=$sysroot
        export PKG_CONFIG_LIBDIR=$sysroot/usr/lib/x86_64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig
        ../src/tree/configure --python="$qemu_gen/venv/bin/python3" --disable-download \
            --target-list=x86_64-softmmu --without-default-features --enable-fdt=system \
            --disable-docs --disable-install-blobs --disable-debug-info --disable-werror \
            --cc="gcc --sysroot=$sysroot" \
            --extra-ldflags="-B$lib -L$lib -Wl,-rpath-link,$lib" >configure.log 2>&1 ||
            { tail -30 configure.log >&2; exit 1; }
        nice ninja -j2 qemu-system-x86_64 >build.log 2>&1 || { tail -30 build.log >&2; exit 1; }
    ) || die "the test-only QEMU did not build (logs in $qemu_gen/build)"
    cp "$qemu_gen/build/qemu-system-x86_64" "$qemu_gen/qemu-system-x86_64"
    rm -rf "$qemu_gen/src" "$qemu_gen/build" "$qemu_gen/venv"
    echo "$stamp" > "$qemu_gen/.done"
}

# The runtimes' front ends (issue 46), on a read-only ext4 disk image that
# init mounts at /rt (the runtimes are about 250 MB: in the initramfs they
# would sit in the guest's memory, and in every snapshot). Their system
# libraries (the closure ldd names under /lib and /usr/lib) go into the
# initramfs beside odraw's, at their paths.
#  - Java: a jlink runtime of the machine's JDK 17 (SHAKERAND_VM_JDK) with
#    the modules jdeps finds that the jar and jdraw/ need (java.base) and a
#    CDS archive (with it the guest's programs were all ready 31 s after
#    boot, without it 60 s: one run each), cached by the JDK's version and
#    that list; the jar as mvn package builds it from java/ (its bundled
#    JNI library inside); jdraw/ compiled against it.
#  - Python: pyenv's CPython 3.11 (SHAKERAND_VM_PYTHON names another
#    interpreter, never Debian's: pip installs into it), its standard
#    library without its tests, IDLE, Tk and the like, and a folder with
#    numpy (pinned) and the shakerand package that pip builds from python/
#    against it (pip's cache under the harness's cache).
#  - JavaScript: the machine's node and the npm package as npm pack makes
#    it from js/ (the WebAssembly modules built by js/tools/build-wasm.sh
#    when their inputs changed), unpacked into /rt/node_modules/shakerand.
#  - Rust: rdraw/, static, built against rust/ in build-vm/rust.
jdk=${SHAKERAND_VM_JDK:-/usr/lib/jvm/java-17-openjdk-amd64}
vm_python=${SHAKERAND_VM_PYTHON:-$HOME/.pyenv/versions/3.11.7/bin/python3.11}
numpy_pin=numpy==2.2.6

build_runtimes() {
    local init=$1 rt=$build/rt lib
    rm -rf "$rt" "$build/rt.img"
    mkdir -p "$rt/jdraw" "$rt/node_modules"
    [ -x "$jdk/bin/jlink" ] || die "no JDK at $jdk (Debian: openjdk-17-jdk-headless; SHAKERAND_VM_JDK)"
    [ -x "$vm_python" ] || die "no Python at $vm_python (pyenv install 3.11.7; SHAKERAND_VM_PYTHON)"

    # Maven builds in a copy of java/ (the C core still from $root), so that
    # its target/ is the harness's own: make test runs test-java-cross, which
    # builds in java/target, beside this harness.
    log "runtimes: the jar (mvn package in a copy of java/, this machine's native library)"
    rm -rf "$build/javasrc"
    mkdir -p "$build/javasrc"
    (cd "$root" && tar -c --exclude=java/target java) | tar -x -C "$build/javasrc"
    JAVA_HOME=$jdk mvn -f "$build/javasrc/java/pom.xml" -B -q --no-transfer-progress -DskipTests \
        -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -Dshakerand.root="$root" \
        -Dshakerand.platforms=host package >"$build/mvn.log" 2>&1 ||
        { tail -30 "$build/mvn.log" >&2; die "mvn package failed in a copy of java/"; }
    cp "$build/javasrc/java/target/shakerand-0.1.0.jar" "$rt/shakerand.jar"
    "$jdk/bin/javac" --release 17 -cp "$rt/shakerand.jar" -d "$rt/jdraw" "$here/jdraw/JDraw.java" ||
        die "jdraw/JDraw.java did not build"
    local modules jlinked
    modules=$("$jdk/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 17 \
        "$rt/shakerand.jar" "$rt/jdraw" 2>"$build/jdeps.log") ||
        { cat "$build/jdeps.log" >&2; die "jdeps failed"; }
    jlinked=$cache/jlink-cds-$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$jdk/release")-$modules
    if [ ! -f "$jlinked/.done" ]; then
        log "runtimes: jlink --add-modules $modules into $jlinked"
        rm -rf "$jlinked"
        "$jdk/bin/jlink" --add-modules "$modules" --generate-cds-archive --strip-debug \
            --no-header-files --no-man-pages --output "$jlinked" >"$build/jlink.log" 2>&1 ||
            { cat "$build/jlink.log" >&2; die "jlink failed"; }
        touch "$jlinked/.done"
    fi
    cp -a "$jlinked" "$rt/java"

    log "runtimes: Python (numpy and python/ into a folder of their own)"
    local prefix pyver
    prefix=$("$vm_python" -c 'import sys; print(sys.base_prefix)')
    pyver=$("$vm_python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    [ -f "$build/pyvenv/.done" ] && [ "$(cat "$build/pyvenv/.done")" = "$vm_python" ] || {
        rm -rf "$build/pyvenv"
        "$vm_python" -m venv "$build/pyvenv" || die "venv failed"
        echo "$vm_python" > "$build/pyvenv/.done"
    }
    # pip builds in the source folder (python/build), whose objects setuptools
    # takes as current when they are newer than the sources, whatever the
    # sources were then: a fresh copy of what setup.py reads, every run.
    rm -rf "$build/pysrc"
    mkdir -p "$build/pysrc"
    (cd "$root" && tar -c --exclude=python/build --exclude=python/csrc --exclude='*.egg-info' \
        --exclude=__pycache__ python src include vectors/shakerand.json tests/no_wipeonfork.c \
        CMakeLists.txt LICENSE-MIT LICENSE-APACHE) | tar -x -C "$build/pysrc"
    PIP_CACHE_DIR=$cache/pip "$build/pyvenv/bin/pip" -q --disable-pip-version-check install \
        --target "$rt/pylib" "$numpy_pin" "$build/pysrc/python" >"$build/pip.log" 2>&1 ||
        { tail -30 "$build/pip.log" >&2; die "pip install numpy ./python failed"; }
    mkdir -p "$rt/python/bin" "$rt/python/lib"
    cp -L "$prefix/bin/python$pyver" "$rt/python/bin/python3"
    cp -L "$prefix/lib/libpython$pyver.so.1.0" "$rt/python/lib/" 2>/dev/null || true
    (cd "$prefix/lib" && tar -c --exclude=test --exclude=tests --exclude=idlelib --exclude=tkinter \
        --exclude=turtledemo --exclude=ensurepip --exclude=lib2to3 --exclude=site-packages \
        --exclude='config-*' --exclude=pydoc_data "python$pyver") | tar -x -C "$rt/python/lib"
    cp "$here/pydraw.py" "$rt/pydraw.py"

    log "runtimes: node and the npm package"
    local stamp
    stamp=$(cat "$root"/js/tools/build-wasm.sh "$root"/js/wasm/* "$root"/src/*.c "$root"/src/*.h \
        "$root"/include/*.h 2>/dev/null | sha256sum | cut -c1-16)
    if [ "$(cat "$build/js-wasm.stamp" 2>/dev/null)" != "$stamp" ] ||
        [ ! -f "$root/js/lib/shakerand-portable.wasm" ] || [ ! -f "$root/js/lib/shakerand-simd128.wasm" ]; then
        (cd "$root/js" && tools/build-wasm.sh) >"$build/wasm.log" 2>&1 ||
            { tail -30 "$build/wasm.log" >&2; die "js/tools/build-wasm.sh failed"; }
        echo "$stamp" > "$build/js-wasm.stamp"
    fi
    rm -rf "$build/npm"
    mkdir -p "$build/npm"
    (cd "$root/js" && npm pack --ignore-scripts --silent --pack-destination "$build/npm") >/dev/null ||
        die "npm pack failed in js/"
    tar -xzf "$build"/npm/shakerand-*.tgz -C "$build/npm"
    mv "$build/npm/package" "$rt/node_modules/shakerand"
    cp -L "$(command -v node)" "$rt/node"
    cp "$here/jsdraw.mjs" "$rt/jsdraw.mjs"

    log "runtimes: rdraw/ (Rust)"
    (cd "$here/rdraw" && CARGO_TARGET_DIR=$build/rust PATH="$HOME/.cargo/bin:$PATH" \
        cargo build --release --locked -q) || die "rdraw/ did not build"
    cp "$build/rust/release/rdraw" "$rt/rdraw"

    # The system libraries every ELF file there needs, into the initramfs.
    find "$rt" -type f \( -name '*.so' -o -name '*.so.*' -o -perm -u+x \) |
        while read -r elf; do
            [ "$(head -c 4 "$elf" | od -An -c | tr -d ' ')" = 177ELF ] || continue
            ldd "$elf" 2>/dev/null | grep -o '=> /[^ ]*\|^\s*/[^ ]*' | grep -o '/[^ ]*' || true
        done | grep -E '^/(usr/)?lib' | sort -u > "$build/rt-libs.txt"
    for lib in $(cat "$build/rt-libs.txt"); do
        mkdir -p "$init$(dirname "$lib")"
        cp -L "$lib" "$init$lib"
    done
    local size
    size=$(( $(du -sm "$rt" | cut -f1) * 5 / 4 + 32 ))
    truncate -s "${size}M" "$build/rt.img"
    mke2fs -q -t ext4 -O ^has_journal -m 0 -L shakerand-rt -E root_owner=0:0 -d "$rt" \
        "$build/rt.img" || die "mke2fs -d failed (e2fsprogs 1.43 or later)"
}

# The guest programs and the initramfs.
build_guest() {
    log "building the guest programs in $build"
    cmake -S "$root" -B "$build/lib" ${CMAKE_GEN:-$(command -v ninja >/dev/null && echo -G Ninja)} \
        -DCMAKE_BUILD_TYPE=Release -DSHAKERAND_BUILD_TESTS=OFF -DSHAKERAND_BUILD_EXAMPLES=OFF \
        -DSHAKERAND_INSTALL=OFF -DCMAKE_EXE_LINKER_FLAGS=-static >"$build/cmake.log" 2>&1 ||
        { cat "$build/cmake.log" >&2; die "cmake failed"; }
    cmake --build "$build/lib" -j 2 --target shakerand_static shakerand_cli shakerand_openssl \
        >"$build/build.log" 2>&1 ||
        { tail -30 "$build/build.log" >&2; die "the library or the CLI did not build"; }
    cc -O2 -std=c11 -Wall -Wextra -static -I"$root/include" -o "$build/agent" "$here/agent.c" \
        "$build/lib/libshakerand.a" -lpthread || die "agent.c did not build"
    (cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$build/go-pure" ./tests/vm/gdraw) ||
        die "the pure-Go program did not build"
    (cd "$root" && CGO_ENABLED=1 go build -trimpath -ldflags '-linkmode external -extldflags -static' \
        -o "$build/go-cgo" ./tests/vm/gdraw) || die "the cgo program did not build"
    # OpenSSL's RAND_bytes (odraw.c): Debian 12's libcrypto, dynamically
    # linked (a static program cannot load the provider module), so the
    # loader and the libraries go into the initramfs at their paths.
    cc -O2 -std=c11 -Wall -Wextra -o "$build/odraw" "$here/odraw.c" -lcrypto ||
        die "odraw.c did not build (Debian: libssl-dev)"
    local init=$build/initramfs
    rm -rf "$init"
    mkdir -p "$init"/{bin,dev,proc,sys,tmp}
    cp "$kernel_dir/busybox" "$init/bin/busybox"
    cp "$kernel_dir/ptp_vmclock.ko" "$kernel_dir/virtio_blk.ko" "$init/"
    cp "$build/agent" "$build/go-pure" "$build/go-cgo" "$init/bin/"
    cp "$build/lib/shakerand" "$init/bin/shakerand"
    cp "$here/init" "$init/init"
    for lib in $(ldd "$build/odraw" | grep -o '/[^ ]*'); do
        mkdir -p "$init$(dirname "$lib")"
        cp -L "$lib" "$init$lib"
    done
    cp "$build/odraw" "$init/bin/"
    mkdir -p "$init/lib/ossl-modules" "$init/etc"
    cp "$build/lib/openssl/shakerand.so" "$init/lib/ossl-modules/"
    cp "$root/openssl/shakerand.cnf" "$init/etc/"
    build_runtimes "$init"
    chmod 755 "$init/init"
    "$python" "$here/driver.py" cpio "$init" "$build/initramfs.cpio"
}

# One row per scenario: name, QEMU (stock or gen), CPU, devices, and the
# expected verdict of each front end (driver.py: differ, repeats,
# clones-alike), written before the run.
#  - The C library and the CLI (the C library inside) watch the vmclock
#    page: its generation counter where the flags say it is kept (6), else
#    its disruption marker (1, 2, 5); vmgenid alone (3) they cannot see.
#  - Go's cgo build follows the C library's words.
#  - OpenSSL with the provider's configuration is the C library inside
#    OpenSSL (docs/openssl.md): the C library's verdicts. Without it,
#    OpenSSL's own CTR-DRBG knows nothing of a restore and reseeds only on
#    its request count and time interval (long after these draws): every
#    copy continues the snapshot's stream, the control for the problem
#    issue 47 names.
#  - After a seen restore, the clones differ from each other only if the
#    reseed reads something that differs: RDRAND/RDSEED (TCG fills them
#    from the host's generator) with -cpu max; with qemu64 (5), no
#    hardware source and no vmgenid to reseed the guest kernel, the two
#    clones read the same getrandom bytes, and what separates them is the
#    CPU-jitter sample every front end's reseed after a seen restore mixes
#    in (docs/system.md): differ (clones alike before that sample).
#  - The pure-Go build maps the vmclock page itself and watches the same
#    word (go/vmclock_linux.go), mixes in RDSEED/RDRAND as the C core does,
#    and takes the jitter sample (go/jitter.go): the C program's verdicts.
#  - Java's native path (java-jni: new SecureRandom() from the ShakeRand
#    provider, and ShakeRandom), Python (token_bytes, random(), numpy's
#    SystemBitGenerator) and Rust (rng()'s inlined take, and getrandom
#    through getrandom_backend!()) ride on the C core, whose epoch words
#    their buffers and views compare: the C program's verdicts.
#  - Pure Java (-Dshakerand.native=false) reads the vmclock page before
#    every draw (VmClock.java: JDK 17 maps no character device) and takes
#    the jitter sample; JavaScript under Node reads it before every value
#    and at a move reseeds from /dev/urandom with the jitter sample, its
#    64 KiB fills no longer from randomFillSync (OpenSSL's DRBG, whose
#    state the snapshot copied): the C program's verdicts. Without the
#    page (3, 4) nothing is watched and every copy continues the
#    snapshot's stream, the 64 KiB fill included.
qemu64=qemu64,+ssse3,+sse4.1,+sse4.2,+popcnt
rt() { echo "go-pure=$1 java-jni=$1 python=$1 rust=$1 java-pure=$1 js=$1"; }
SCENARIOS=(
    "vmclock+vmgenid     stock max      vmclock,vmgenid c=differ cli=differ go-cgo=differ openssl=differ openssl-default=repeats $(rt differ)"
    "vmclock             stock max      vmclock         c=differ cli=differ go-cgo=differ openssl=differ openssl-default=repeats $(rt differ)"
    "vmgenid             stock max      vmgenid         c=repeats cli=repeats go-cgo=repeats openssl=repeats openssl-default=repeats $(rt repeats)"
    "neither             stock max      -               c=repeats cli=repeats go-cgo=repeats openssl=repeats openssl-default=repeats $(rt repeats)"
    "qemu64+vmclock      stock $qemu64 vmclock         c=differ cli=differ go-cgo=differ openssl=differ openssl-default=repeats $(rt differ)"
    "generation-counter  gen   max      vmclock         c=differ cli=differ go-cgo=differ openssl=differ openssl-default=repeats $(rt differ)"
)

run_scenarios() {
    local want=("$@") failed=0 row name qemu cpu devices expect binary
    for row in "${SCENARIOS[@]}"; do
        read -r name qemu cpu devices expect <<<"$row"
        if [ "${#want[@]}" -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$name"; then
            continue
        fi
        binary=$trixie/usr/bin/qemu-system-x86_64
        if [ "$qemu" = gen ]; then
            if [ ! -f "$qemu_gen/.done" ] && [ "${SHAKERAND_VM_BUILD_QEMU:-1}" = 0 ]; then
                echo "scenario $name: skipped (no test-only QEMU in $qemu_gen and SHAKERAND_VM_BUILD_QEMU=0)"
                continue
            fi
            build_qemu_gen
            binary=$qemu_gen/qemu-system-x86_64
        fi
        "$python" "$here/driver.py" scenario --name "$name" --work "$build/run/$name" \
            --loader "$trixie/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
            --libs "$trixie/usr/lib/x86_64-linux-gnu" --qemu "$binary" \
            --firmware "$trixie/usr/share/qemu" --firmware "$trixie/usr/share/seabios" \
            --kernel "$kernel_dir/vmlinuz" --initrd "$build/initramfs.cpio" \
            --disk "$build/rt.img" --memory 1G \
            --cpu "$cpu" --devices "$devices" --expect "$expect" || failed=1
    done
    return $failed
}

case "${1:-}" in
    fetch) fetch_qemu; fetch_kernel ;;
    build) fetch_kernel; build_guest ;;
    build-qemu) fetch_qemu; build_qemu_gen ;;
    *)
        start=$(date +%s)
        fetch_qemu
        fetch_kernel
        build_guest
        status=0
        run_scenarios "$@" || status=1
        echo "vm: $(($(date +%s) - start)) s in all"
        exit $status
        ;;
esac
