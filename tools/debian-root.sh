#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# A private root of Debian packages for another architecture, to run under
# qemu-user (QEMU_LD_PREFIX=ROOT): the packages named and what they need,
# recursively (libraries, and python3 packages), downloaded with an apt
# configuration of its own (tools/private-apt.sh, under ROOT.apt/) and
# unpacked, never installed. Absolute symbolic links are made to point inside the root.
# Kept once made: the same arguments again reuse it. --only: the packages
# named and nothing else (the caller knows what its program needs).
#   tools/debian-root.sh [--only] SUITE ARCH ROOT PACKAGE...
set -eu
only=0
[ "$1" = --only ] && only=1 && shift
suite=$1 arch=$2 root=$3
shift 3
want="$only $suite $arch $*"
# Two runs at once making the same root (two make dist): the second waits on
# its lock (flock, beside it: the root itself is emptied) while the first
# makes it, then finds it made.
mkdir -p "$(dirname "$root")"
exec 9>>"$root.lock"
if ! flock -n 9; then
    echo "debian-root: waiting for another run making $root ($root.lock)" >&2
    flock 9
fi
[ -f "$root/.made-from" ] && [ "$(cat "$root/.made-from")" = "$want" ] && exit 0
state=$root.apt
rm -rf "$state" "$root"
mkdir -p "$state/debs" "$root"
packages=$*
apt_private=$(cd "$(dirname "$0")" && pwd)/private-apt.sh
apt() { "$apt_private" "$state" "$arch" "deb $suite" "$@"; }
apt apt-get update -qq >/dev/null || { echo "debian-root: apt-get update ($suite, $arch) failed" >&2; exit 1; }
# The closure: Depends and Pre-Depends, recursively, minus what matters only
# to dpkg (debconf, adduser and the like).
closure=""
[ $only = 1 ] || closure=$(apt apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances $packages 2>/dev/null | grep -v '^ ' | grep -v '^<' | sort -u |
    grep -E '^(lib|zlib1g$|python3|media-types$|tzdata$)' | grep -Ev '^lib(pam|semanage|audit|debconfclient)')
(cd "$state/debs" && apt apt-get download -qq $packages $closure >/dev/null) ||
    { echo "debian-root: apt-get download ($suite, $arch) failed" >&2; exit 1; }
for deb in "$state/debs"/*.deb; do
    dpkg-deb -x "$deb" "$root"
done
# Debian 13 and later put everything under /usr and leave /lib, /lib64 and
# /bin to base-files' links (the dynamic linker is asked for as
# /lib64/ld-linux-x86-64.so.2): the same links here.
for d in bin sbin lib lib64; do
    [ -e "$root/$d" ] || [ ! -d "$root/usr/$d" ] || ln -s "usr/$d" "$root/$d"
done
rootdir=$(cd "$root" && pwd)
find "$root" -type l | while read -r link; do
    t=$(readlink "$link")
    case $t in /*) ln -sfn "$rootdir$t" "$link" ;; esac
done
# The links a postinst would make through update-alternatives: BLAS and
# LAPACK's reference libraries (numpy loads libblas.so.3).
for lib in "$root"/usr/lib/*/blas/libblas.so.3 "$root"/usr/lib/*/lapack/liblapack.so.3; do
    [ -e "$lib" ] && ln -sfn "$lib" "$(dirname "$(dirname "$lib")")/$(basename "$lib")"
done
rm -rf "$state/debs"
echo "$want" >"$root/.made-from"
