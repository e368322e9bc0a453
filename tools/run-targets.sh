#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs make targets one after another, stopping at the first that fails,
# and says how long each took, as it ends and again at the end: what
# `make test` and `make check` use, so that every run says where its time
# went. A TARGET written a+b runs a and b side by side (for targets that
# each keep about one core busy and share no build folder), their outputs
# kept apart and printed in order once both have ended.
# Usage: run-targets.sh MAKE TARGET...
set -u
make=$1
shift
times=""
total_start=$(date +%s)
summary() { echo "time per target:$times"; echo "total: $(($(date +%s) - total_start)) s"; }
failed() { # target start
    times="$times
  $1 FAILED after $(($(date +%s) - $2)) s"
    summary >&2
    exit 1
}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
for target in "$@"; do
    start=$(date +%s)
    case $target in
    *+*)
        group=$(echo "$target" | tr '+' ' ')
        for t in $group; do
            (
                s=$(date +%s)
                $make --no-print-directory "$t" >"$logs/$t.out" 2>&1
                echo "$? $(($(date +%s) - s))" >"$logs/$t.status"
            ) &
        done
        wait
        status=0
        for t in $group; do
            cat "$logs/$t.out"
            read -r rc took <"$logs/$t.status"
            if [ "$rc" != 0 ]; then
                times="$times
  $t FAILED after $took s"
                status=1
            else
                times="$times
  $t $took s (beside the others of $target)"
                echo "== $t: $took s"
            fi
        done
        [ $status = 0 ] || { summary >&2; exit 1; }
        echo "== $target: $(($(date +%s) - start)) s"
        ;;
    *)
        $make --no-print-directory "$target" || failed "$target" "$start"
        times="$times
  $target $(($(date +%s) - start)) s"
        echo "== $target: $(($(date +%s) - start)) s"
        ;;
    esac
done
summary
