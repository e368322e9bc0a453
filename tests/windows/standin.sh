#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Test set-up only: installs or removes the stand-in bcryptprimitives.dll
# (bcryptprimitives.c) in the project's Wine prefix (the one wine.sh uses:
# build-windows/wineprefix, or $SHAKERAND_WINEPREFIX). Wine 8 has no such
# DLL, and Go's Windows runtime will not start without it; C code that
# loads ProcessPrng at run time can be tested with the stand-in (ProcessPrng
# found) and without it (the BCryptGenRandom fallback).
# Usage: standin.sh install|remove|status
#   install  builds the DLL and copies it into system32 unless the same
#            file is there already; leaves a DLL that is not ours (a Wine
#            with its own bcryptprimitives) alone and says so.
#   remove   deletes it from system32 if it is ours; nothing to do is fine.
#   status   prints "installed", "absent" or "other" (not ours).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prefix=${SHAKERAND_WINEPREFIX:-$root/build-windows/wineprefix}
target=$prefix/drive_c/windows/system32/bcryptprimitives.dll
marker="shakerand test stand-in for bcryptprimitives.dll"

state() {
    if [ ! -e "$target" ]; then
        echo absent
    elif grep -q "$marker" "$target"; then
        echo installed
    else
        echo other
    fi
}

case ${1:-} in
install)
    command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 ||
        { echo "no x86_64-w64-mingw32-gcc: run tools/install-deps.sh windows" >&2; exit 1; }
    # wine.sh makes the prefix on first use.
    [ -f "$prefix/system.reg" ] || "$here/wine.sh" cmd /c exit 0 >/dev/null 2>&1 ||
        { echo "standin: could not make the Wine prefix $prefix" >&2; exit 1; }
    [ -d "$(dirname "$target")" ] || { echo "standin: no system32 in $prefix" >&2; exit 1; }
    if [ "$(state)" = other ]; then
        echo "standin: $target is not the stand-in (this Wine has its own): left alone"
        exit 0
    fi
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    # Stripped, no time stamp, a fixed image base: the same sources give the
    # same bytes, so an unchanged stand-in is not copied again.
    x86_64-w64-mingw32-gcc -shared -O2 -s -Wall -Wextra -Werror \
        -Wl,--no-insert-timestamp,--disable-auto-image-base -o "$tmp/bcryptprimitives.dll" \
        "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -ladvapi32
    if cmp -s "$tmp/bcryptprimitives.dll" "$target"; then
        echo "standin: installed already ($target)"
    else
        # A copy beside it, then a rename: a program starting meanwhile sees
        # the old file or the new, never half of one.
        cp "$tmp/bcryptprimitives.dll" "$target.new.$$"
        mv -f "$target.new.$$" "$target"
        echo "standin: installed $target"
    fi
    ;;
remove)
    case $(state) in
    installed) rm -f "$target"; echo "standin: removed $target" ;;
    other) echo "standin: $target is not the stand-in: left alone" ;;
    absent) echo "standin: not installed" ;;
    esac
    ;;
status)
    state
    ;;
*)
    echo "usage: $0 install|remove|status" >&2
    exit 2
    ;;
esac
