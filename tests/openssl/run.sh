#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The OpenSSL provider (openssl/, docs/openssl.md) under programs no one
# here wrote, each run with openssl/shakerand.cnf as OPENSSL_CONF and each
# shown to have drawn from the provider: the module appends a line per
# generate call to the file SHAKERAND_OPENSSL_TRACE names, and a check
# counts this run's lines (rand_check.c reads the contexts' byte count
# instead). The same commands without the configuration leave no line
# (the control: the lines come from the configuration, not from loading).
#   tests/openssl/run.sh BUILD   (BUILD/openssl/shakerand.so, make build-c)
# Debian 12's OpenSSL 3.0 and python3; then the openssl command of
# Debian 13 (OpenSSL 3.5) from a private root (tools/debian-root.sh, kept
# in BUILD/openssl-trixie) over the same module.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
here=$root/tests/openssl
fail() {
    echo "test-openssl: FAILED: $*" >&2
    exit 1
}
[ -f "$build/openssl/shakerand.so" ] ||
    fail "no $build/openssl/shakerand.so (CMake found no OpenSSL 3 headers? Debian: libssl-dev)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
conf=$root/openssl/shakerand.cnf
trace=$tmp/trace
export OPENSSL_MODULES="$build/openssl" SHAKERAND_OPENSSL_TRACE="$trace"
unset OPENSSL_CONF
# Debian's python3, which links the system's libssl (a pyenv or venv
# python may carry an OpenSSL of its own).
python=/usr/bin/python3
openssl=openssl

# with CMD...: CMD under the configuration, the trace emptied first.
with() {
    rm -f "$trace"
    OPENSSL_CONF=$conf "$@"
}
without() {
    rm -f "$trace"
    "$@"
}
# The bytes the trace's generate lines add up to (0 for no trace).
drawn() {
    [ -f "$trace" ] || { echo 0; return; }
    awk '$2 == "generate" { n += $3 } END { print n + 0 }' "$trace"
}
# drew WHAT: the command just run drew through the provider.
drew() {
    n=$(drawn)
    [ "$n" -gt 0 ] || fail "$1: no generate call reached the provider"
    echo "  $1: $n bytes through the provider"
}
# control WHAT: the command just run, without the configuration, did not.
control() {
    [ "$(drawn)" -eq 0 ] || fail "$1 without the configuration drew through the provider"
}

run_openssl() {
    label=$1
    echo "$label: $($openssl version)"
    with $openssl list -random-generators >"$tmp/list"
    grep -q '^ *SHAKERAND @ shakerand$' "$tmp/list" || fail "$label: list -random-generators shows no SHAKERAND"
    without $openssl list -random-generators >"$tmp/list"
    ! grep -q SHAKERAND "$tmp/list" || fail "$label: SHAKERAND listed without the configuration"

    with $openssl rand -out "$tmp/rand" 1000000
    [ "$(wc -c <"$tmp/rand")" -eq 1000000 ] || fail "$label: openssl rand wrote $(wc -c <"$tmp/rand") bytes"
    [ "$(drawn)" -ge 1000000 ] || fail "$label: openssl rand 1000000 drew $(drawn) bytes through the provider"
    drew "openssl rand 1000000"
    without $openssl rand -out "$tmp/rand" 1000
    control "openssl rand"

    for alg in ed25519 ec; do
        opt=""
        [ $alg = ec ] && opt="-pkeyopt ec_paramgen_curve:P-256"
        with $openssl genpkey -algorithm $alg $opt -out "$tmp/$alg.key"
        drew "openssl genpkey $alg${opt:+ P-256}"
        $openssl pkey -in "$tmp/$alg.key" -noout || fail "$label: genpkey $alg wrote no key"
    done
    without $openssl genpkey -algorithm ed25519 -out "$tmp/control.key"
    control "openssl genpkey"

    # The certificate the TLS test serves (its serial number is random).
    with $openssl req -x509 -key "$tmp/ec.key" -subj /CN=localhost -days 1 \
        -addext subjectAltName=DNS:localhost -out "$tmp/cert.pem"
    drew "openssl req -x509 (EC P-256 key)"
    $openssl x509 -in "$tmp/cert.pem" -noout -subject | grep -q localhost || fail "$label: req -x509 wrote no certificate"
}

run_openssl "OpenSSL of Debian 12"

echo "Python's ssl ($python):"
with $python "$here/python_ssl.py" rand "$trace" >"$tmp/out"
cat "$tmp/out"
grep -q 'drew [1-9][0-9]* bytes' "$tmp/out" || fail "ssl.RAND_bytes did not draw through the provider"
without $python "$here/python_ssl.py" rand "$trace" >"$tmp/out"
grep -q 'drew 0 bytes' "$tmp/out" || fail "ssl.RAND_bytes without the configuration drew through the provider"
with $python "$here/python_ssl.py" tls "$trace" "$tmp/cert.pem" "$tmp/ec.key" >"$tmp/out"
cat "$tmp/out"
grep -q 'TLSv1.3 .* drew [1-9][0-9]* bytes' "$tmp/out" || fail "the TLS handshake did not draw through the provider"
without $python "$here/python_ssl.py" tls "$trace" "$tmp/cert.pem" "$tmp/ec.key" >"$tmp/out"
grep -q 'drew 0 bytes' "$tmp/out" || fail "the TLS handshake without the configuration drew through the provider"

echo "rand_check.c (libcrypto of Debian 12):"
cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -o "$tmp/rand_check" \
    "$here/rand_check.c" -lcrypto
OPENSSL_CONF=$conf "$tmp/rand_check" || fail "rand_check"
if "$tmp/rand_check" >/dev/null 2>&1; then
    fail "rand_check passed without the configuration"
fi

# OpenSSL 3.5 (Debian 13) over the same module, its own dynamic linker
# and libraries from the private root.
r=$build/openssl-trixie
"$root/tools/debian-root.sh" trixie amd64 "$r" openssl || fail "the Debian 13 root (tools/debian-root.sh)"
cat >"$tmp/openssl35" <<EOF
#!/bin/sh
exec "$r/lib64/ld-linux-x86-64.so.2" --library-path "$r/usr/lib/x86_64-linux-gnu" "$r/usr/bin/openssl" "\$@"
EOF
chmod +x "$tmp/openssl35"
openssl=$tmp/openssl35
run_openssl "OpenSSL of Debian 13"
echo "test-openssl: passed"
