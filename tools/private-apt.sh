#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# apt-get or apt-cache with an apt state of their own under DIR: its
# sources, lists, cache, preferences and an empty dpkg status, so the
# machine's sources, pins, package state and architectures are neither
# read nor changed. The machine's settings (/etc/apt/apt.conf.d: a proxy,
# a mirror's date checks) still apply, as they do to its own apt. The one
# place for the mirror, the keyring and the Dir options: tools/debian-root.sh,
# tools/python-ft.sh and tests/vm/run.sh call it.
#   tools/private-apt.sh DIR ARCH SOURCES apt-get|apt-cache ARG...
# SOURCES: one source a line, "deb SUITE" or "deb-src SUITE" (Debian's
# main component, signed by the keys debian-archive-keyring holds). ARGs
# follow this script's own options, so a caller can add -o options.
set -eu
[ $# -ge 4 ] || { echo "usage: private-apt.sh DIR ARCH SOURCES apt-get|apt-cache ARG..." >&2; exit 2; }
dir=$1 arch=$2 sources=$3 command=$4
shift 4
case $command in apt-get | apt-cache) ;; *) echo "private-apt.sh: $command is not apt-get or apt-cache" >&2; exit 2 ;; esac
key=/usr/share/keyrings/debian-archive-keyring.gpg
mkdir -p "$dir/sources.list.d" "$dir/preferences.d" "$dir/state" \
    "$dir/lists/partial" "$dir/cache/archives/partial"
[ -f "$dir/status" ] || : >"$dir/status"
# Written anew each call (two callers may share DIR: a rename, never a
# half-written file).
echo "$sources" | while read -r type suite; do
    [ -z "$type" ] || echo "$type [signed-by=$key] http://deb.debian.org/debian $suite main"
done >"$dir/sources.list.$$"
mv "$dir/sources.list.$$" "$dir/sources.list"
exec "$command" -o "Dir::Etc::SourceList=$dir/sources.list" \
    -o "Dir::Etc::SourceParts=$dir/sources.list.d" -o "Dir::Etc::Preferences=$dir/preferences" \
    -o "Dir::Etc::PreferencesParts=$dir/preferences.d" -o "Dir::State=$dir/state" \
    -o "Dir::State::Lists=$dir/lists" -o "Dir::State::status=$dir/status" \
    -o "Dir::Cache=$dir/cache" -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch" \
    -o "APT::Sandbox::User=root" "$@"
