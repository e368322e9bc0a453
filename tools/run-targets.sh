#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs make targets one after another, stopping at the first that fails,
# and says how long each took, as it ends and again at the end: what
# `make test` and `make check` use, so that every run says where its time
# went.
# Usage: run-targets.sh MAKE TARGET...
set -u
make=$1
shift
times=""
total_start=$(date +%s)
summary() { echo "time per target:$times"; echo "total: $(($(date +%s) - total_start)) s"; }
for target in "$@"; do
    start=$(date +%s)
    if ! $make --no-print-directory "$target"; then
        times="$times
  $target FAILED after $(($(date +%s) - start)) s"
        summary >&2
        exit 1
    fi
    times="$times
  $target $(($(date +%s) - start)) s"
    echo "== $target: $(($(date +%s) - start)) s"
done
summary
