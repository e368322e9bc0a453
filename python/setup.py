# SPDX-License-Identifier: MIT OR Apache-2.0
"""Builds shakerand._core from the C core.

In a checkout the core is copied from the repository root (src/, include/,
the licence texts, the vector file) into csrc/ before each build, so an
sdist made from here carries it and builds anywhere; an unpacked sdist
already has csrc/. src/sources.txt is the list of core sources, as for
every other build; each file enables its own instruction sets, so no flags
are added per file.
"""
import os
import pathlib
import re
import shutil
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
CSRC = HERE / "csrc"


def sync_from_checkout():
    if not (REPO / "src" / "sources.txt").is_file() or not (REPO / "CMakeLists.txt").is_file():
        return  # an unpacked sdist: csrc/ came with it
    shutil.rmtree(CSRC, ignore_errors=True)
    ignore = shutil.ignore_patterns("*.o", "*.so", "*.go", "__pycache__")
    shutil.copytree(REPO / "src", CSRC / "src", ignore=ignore)
    (CSRC / "include").mkdir(parents=True)
    shutil.copy2(REPO / "include" / "shakerand.h", CSRC / "include")
    (CSRC / "vectors").mkdir()
    shutil.copy2(REPO / "vectors" / "shakerand.json", CSRC / "vectors")
    # The launcher the raw-fork tests build (tests/test_raw_fork.py), so an
    # unpacked sdist runs them too.
    launcher = REPO / "tests" / "no_wipeonfork.c"
    if launcher.is_file():
        (CSRC / "tests").mkdir()
        shutil.copy2(launcher, CSRC / "tests")
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        shutil.copy2(REPO / name, HERE / name)


def core_sources():
    listed = (CSRC / "src" / "sources.txt").read_text().splitlines()
    return [str((CSRC / line.strip()).relative_to(HERE)) for line in listed
            if line.strip() and not line.startswith("#")]


def extension_sources():
    # Sorted: the same order, and so the same object files, on every build.
    return [str(p.relative_to(HERE)) for p in sorted((HERE / "ext").glob("*.c"))]


def version():
    header = (CSRC / "include" / "shakerand.h").read_text()
    return re.search(r'#define SHAKERAND_VERSION_STRING "([^"]+)"', header).group(1)


# The compiler and linker options of the extension for a target platform
# (sys.platform's spelling): setup() below takes the running one's, and
# tools/dist/wheels.py, which builds the release's wheels for other
# platforms, asks for theirs here.
def build_options(platform=sys.platform):
    # The x86-64 kernels are chosen by the compiler's target (src/arch.h); the options are the
    # core's list, src/compile_options.txt (csrc/ in an sdist, the checkout's when not copied yet).
    listed = next(p for p in (CSRC / "src" / "compile_options.txt",
                              REPO / "src" / "compile_options.txt") if p.is_file())
    options = [line.strip() for line in listed.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    macros = [(o[2:], None) for o in options if o.startswith("-D")]
    compile_args = [o for o in options if not o.startswith("-D")]
    link_args = []
    if platform.startswith(("linux", "freebsd")):
        # A thread's generator state is wiped by a thread-key destructor in
        # this library: it must stay mapped (CPython never unloads it anyway).
        link_args.append("-Wl,-z,nodelete")
        # Bound at load and the relocated data made read-only after: with lazy
        # binding, glibc resolves a PLT call inside the library on its first
        # use, and its resolver saves the whole XSAVE area on the stack below
        # the library's frame (about 2.7 KiB more on AVX-512 CPUs), outside
        # what the library's stack wipe covers. tests/test_elf.py reads both
        # back from the built extension.
        link_args += ["-Wl,-z,now", "-Wl,-z,relro"]
        link_args.append("-pthread")
    return {"define_macros": macros, "extra_compile_args": compile_args, "extra_link_args": link_args}


class BuildExt(build_ext):
    """What the build needs, named before compiling (setuptools otherwise
    stops at "No such file or directory: 'gcc'")."""

    def build_extensions(self):
        cc = getattr(self.compiler, "compiler_so", None)
        if cc and shutil.which(cc[0]) is None:
            sys.exit(f"shakerand: building from source needs a C compiler, and {cc[0]!r} (the one this "
                     "Python was built with, or $CC) is not on PATH. Install one (Debian and Ubuntu: "
                     "apt install gcc python3-dev) or set CC; on CPython 3.9-3.15 for Linux "
                     "(glibc x86-64, aarch64, ppc64le, s390x; musl x86-64) and macOS, pip takes "
                     "a wheel instead and needs neither.")
        include = sysconfig.get_paths()["include"]
        if self.compiler.compiler_type == "unix" and not os.path.isfile(os.path.join(include, "Python.h")):
            sys.exit(f"shakerand: building from source needs Python's headers, and {include}/Python.h "
                     "is not there (Debian and Ubuntu: apt install python3-dev).")
        super().build_extensions()


if __name__ == "__main__":  # setuptools runs this file as __main__
    sync_from_checkout()
    setup(
        version=version(),
        cmdclass={"build_ext": BuildExt},
        ext_modules=[
            Extension(
                "shakerand._core",
                sources=extension_sources() + core_sources(),
                include_dirs=[str((CSRC / "include").relative_to(HERE)),
                              str((CSRC / "src").relative_to(HERE))],
                **build_options(),
            )
        ],
    )
