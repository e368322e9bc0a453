#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs a Windows program under Wine (Debian's wine64) in the project's own
# Wine prefix, made on first use: build-windows/wineprefix, or
# $SHAKERAND_WINEPREFIX. Its exit status is the program's.
# Usage: wine.sh PROGRAM.exe [ARG...]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || { echo "no $wine: run tools/install-deps.sh windows" >&2; exit 1; }
WINEPREFIX=${SHAKERAND_WINEPREFIX:-$root/build-windows/wineprefix}
WINEDEBUG=${WINEDEBUG:--all}
export WINEPREFIX WINEDEBUG
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    mkdir -p "$WINEPREFIX"
    # No desktop, no Mono or Gecko installers: a console prefix is enough.
    WINEDLLOVERRIDES="mscoree,mshtml=" "$wine" wineboot --init >/dev/null 2>&1 || true
    /usr/lib/wine/wineserver -w 2>/dev/null || true
fi
exec "$wine" "$@"
