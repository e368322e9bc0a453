#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python package's checks (make test-python):
#  1. `pip install ./python[test]` into a virtual environment, and the suite
#     (python/tests) against the installed package, the CLI of BUILD as the
#     cross-language oracle, once per kernel the CPU has, and the system
#     generator's tests again on turboshake256x8;
#  2. `python -m build python` (an sdist, and a wheel built from it), the
#     sdist installed into a fresh virtual environment and the suite run
#     there from the unpacked sdist, with no checkout to lean on;
#  3. the suite on the oldest and newest other CPython found (pyenv's 3.9
#     and 3.13 on this machine kind), when there is one: the oldest with
#     numpy 1.x (which pyproject.toml allows), the newest with numpy 2.x;
#     and on a free-threaded CPython (python3.14t, python3.13t, the one
#     tools/python-ft.sh built, or pyenv's 3.1xt) when there is one, where
#     the extension runs without the GIL.
# Usage: python/run-tests.sh [BUILD]   (BUILD: a CMake build with the CLI)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$(cd "${1:-$ROOT/build}" && pwd)"
WORK="$BUILD/python"
mkdir -p "$WORK"
CLI="$BUILD/shakerand"
[ -x "$CLI" ] || { echo "run-tests.sh: no CLI at $CLI (build BUILD first)" >&2; exit 1; }

# venv DIR PYTHON: a fresh virtual environment with an up-to-date pip.
venv() {
  rm -rf "$1"
  "$2" -m venv "$1"
  "$1/bin/python" -m pip install -q --disable-pip-version-check -U pip
}

# suite PYTHON TESTS [pytest args]: the suite from outside the source tree,
# so the installed package is the one imported.
suite() {
  local python="$1" tests="$2"
  shift 2
  (cd "$WORK" && SHAKERAND_CLI="$CLI" SHAKERAND_REQUIRE_CLI=1 \
     "$python" -m pytest -q -p no:cacheprovider "$tests" "$@")
}

echo "== pip install ./python[test]"
venv "$WORK/venv" python3
"$WORK/venv/bin/pip" install -q "$ROOT/python[test]" build
py="$WORK/venv/bin/python"
export SHAKERAND_VECTORS="$ROOT/vectors/shakerand.json"
suite "$py" "$ROOT/python/tests"
for example in "$ROOT"/examples/python/*.py; do
  (cd "$WORK" && "$py" "$example" >/dev/null) || { echo "example $example failed" >&2; exit 1; }
done
echo "examples/python: $(ls "$ROOT"/examples/python/*.py | wc -l) ran"
for kernel in $("$py" -c "import shakerand; print(' '.join(k for k in ('portable', 'avx2') if k != shakerand.kernel()))"); do
  if SHAKERAND_KERNEL="$kernel" "$py" -c "import shakerand, sys; sys.exit(shakerand.kernel() != '$kernel')" 2>/dev/null; then
    echo "== kernel $kernel"
    SHAKERAND_KERNEL="$kernel" suite "$py" "$ROOT/python/tests" -k "vector or cli or c2sp or engines"
  fi
done

echo "== system generator on turboshake256x8"
SHAKERAND_SYSTEM_ENGINE=turboshake256x8 "$py" -c "import shakerand, sys; sys.exit(shakerand.system_kind() != 'turboshake256x8')"
SHAKERAND_SYSTEM_ENGINE=turboshake256x8 suite "$py" "$ROOT/python/tests" \
  -k "functions or system or fork or thread or numpy"

echo "== python -m build python; the sdist in a fresh virtual environment"
rm -rf "$WORK/dist" "$WORK/unpacked"
"$py" -m build --outdir "$WORK/dist" "$ROOT/python" >"$WORK/build.log" 2>&1 ||
  { cat "$WORK/build.log" >&2; exit 1; }
sdist=$(ls "$WORK/dist"/shakerand-*.tar.gz)
wheel=$(ls "$WORK/dist"/shakerand-*.whl)
echo "built $(basename "$sdist") and $(basename "$wheel")"
venv "$WORK/sdist-venv" python3
"$WORK/sdist-venv/bin/pip" install -q "$sdist[test]"
mkdir -p "$WORK/unpacked"
tar -xzf "$sdist" -C "$WORK/unpacked"
unpacked=$(ls -d "$WORK/unpacked"/shakerand-*)
# The unpacked sdist's own tests and vector copy, no checkout paths.
(unset SHAKERAND_VECTORS; suite "$WORK/sdist-venv/bin/python" "$unpacked/tests")

for version in 3.9 3.13; do
  other=$( (ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version".*/bin/python3 2>/dev/null || true) | tail -1)
  [ -n "$other" ] || other=$(command -v "python$version" || true)
  if [ -z "$other" ] || ! "$other" -c pass 2>/dev/null; then
    echo "== CPython $version: not installed, skipped"
    continue
  fi
  numpy="numpy>=2"
  [ "$version" = 3.9 ] && numpy="numpy<2"
  echo "== CPython $version ($other), $numpy"
  venv "$WORK/venv-$version" "$other"
  "$WORK/venv-$version/bin/pip" install -q "$ROOT/python[test]" "$numpy"
  suite "$WORK/venv-$version/bin/python" "$ROOT/python/tests"
done
free=""
for candidate in python3.14t python3.13t $("$ROOT/tools/python-ft.sh" --if-built) \
    $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[3-9]*t/bin/python3 2>/dev/null || true); do
  free=$(command -v "$candidate" || true)
  [ -n "$free" ] && "$free" -c 'import sys; sys.exit(sys._is_gil_enabled())' 2>/dev/null && break
  free=""
done
if [ -z "$free" ]; then
  echo "== free-threaded CPython: none here, skipped (tools/python-ft.sh builds one, as make dist does)"
else
  # numpy from a wheel only (a source build takes many minutes); cffi and
  # pycryptodome may have no wheel for it, and the tests that need them skip.
  echo "== free-threaded CPython ($free)"
  venv "$WORK/venv-free" "$free"
  "$WORK/venv-free/bin/pip" install -q --only-binary numpy "numpy>=2" pytest
  "$WORK/venv-free/bin/pip" install -q --no-deps "$ROOT/python"
  suite "$WORK/venv-free/bin/python" "$ROOT/python/tests"
fi
echo "python/run-tests.sh: every Python check passed"
