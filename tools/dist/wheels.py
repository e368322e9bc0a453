#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""make dist's Python files: the sdist made reproducible, and binary wheels.

    wheels.py sdist SDIST OUT                  SDIST (python -m build's) re-packed as OUT
    wheels.py wheels SRC SDIST OUT WORK ZIG    a wheel per target and CPython into OUT
                                               (PATCHELF: patchelf, for the musl wheel)
    wheels.py pyconfig ARCH X86_64_PYCONFIG    the pyconfig.h derived for ARCH, on stdout

The wheels are built by zig cc (PyPI's ziglang), which links against the C
library version a target names, so a Linux wheel runs on glibc 2.17 and
later whatever glibc this machine has; auditwheel show checks that in make
test-dist. The compiler and linker options are python/setup.py's
(build_options), the sources its list and the extension's, the metadata the
sdist's PKG-INFO, so a wheel holds what pip would build from the sdist.

One wheel per CPython version (cp39 to cp315, and cp313t, the free-threaded
3.13), not one abi3 wheel (which no free-threaded CPython loads either): the
extension's hot paths use the full C API (METH_FASTCALL, PyTuple_GET_ITEM,
the bytes and float macros) and its big-integer conversions
_PyLong_FromByteArray/_PyLong_AsByteArray, which have no limited-API
equivalent before 3.13; numpy is not compiled against (the bit generator
is a plain bitgen_t struct in a capsule), so no numpy ABI enters the tag.
Headers: each CPython's own include directory (python_includes says
whose); pyconfig.h is the only architecture-specific header, and the
others' are derived from x86-64's by `pyconfig` (make test-dist checks the
derivation against Debian's own arm64, ppc64el and s390x pyconfig.h).
"""
import base64
import concurrent.futures
import gzip
import hashlib
import importlib.util
import io
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile

EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
JOBS = int(os.environ.get("JOBS", "2"))

# zig target, wheel platform tags, sys.platform, the extension's suffix
# after cpython-3XY (None on macOS: no architecture in it), pyconfig's CPU
# (pyconfig_for; arm64 is macOS's, whose wchar_t is signed).
TARGETS = [
    ("x86_64-linux-gnu.2.17", ["manylinux_2_17_x86_64", "manylinux2014_x86_64"], "linux",
     "x86_64-linux-gnu", "x86_64"),
    ("aarch64-linux-gnu.2.17", ["manylinux_2_17_aarch64", "manylinux2014_aarch64"], "linux",
     "aarch64-linux-gnu", "aarch64"),
    # zig carries ppc64le's glibc headers from 2.19 on (the first release
    # for ELFv2), so the wheel claims 2.19, though its symbols are 2.17's.
    ("powerpc64le-linux-gnu.2.19", ["manylinux_2_19_ppc64le"], "linux", "powerpc64le-linux-gnu", "ppc64le"),
    ("s390x-linux-gnu.2.17", ["manylinux_2_17_s390x", "manylinux2014_s390x"], "linux",
     "s390x-linux-gnu", "s390x"),
    ("x86_64-linux-musl", ["musllinux_1_2_x86_64"], "linux", "x86_64-linux-musl", "x86_64"),
    ("x86_64-macos.11.0", ["macosx_11_0_x86_64"], "darwin", None, "x86_64"),
    ("aarch64-macos.11.0", ["macosx_11_0_arm64"], "darwin", None, "arm64"),
]
PYTHONS = ["3.9", "3.10", "3.11", "3.12", "3.13"]  # pyenv's, on this kind of machine
DEBIAN_PYTHONS = ["3.14", "3.15"]  # Debian unstable's


def pyconfig_for(arch, text):
    """pyconfig.h of an x86-64 CPython made the target CPU's: the lines in
    which Debian's arm64, ppc64el and s390x pyconfig.h differ from its
    amd64 one (PY_SUPPORT_TIER aside, which no header reads)."""
    def undef(name, t):
        return re.sub(rf"^#define {name} 1$", f"/* #undef {name} */", t, flags=re.M)

    def define(name, t):
        return re.sub(rf"^/\* #undef {name} \*/$", f"#define {name} 1", t, flags=re.M)
    if arch == "x86_64":
        return text
    text = undef("HAVE_GCC_ASM_FOR_X64", undef("HAVE_GCC_ASM_FOR_X87", text))
    if arch == "aarch64":
        text = define("HAVE_USABLE_WCHAR_T", text)  # wchar_t is unsigned there
    if arch == "s390x":
        text = undef("DOUBLE_IS_LITTLE_ENDIAN_IEEE754", text)
        text = define("DOUBLE_IS_BIG_ENDIAN_IEEE754", text)
        text = define("FLOAT_WORDS_BIGENDIAN", text)
        text = re.sub(r"^/\* #  undef WORDS_BIGENDIAN \*/$", "#  define WORDS_BIGENDIAN 1", text, flags=re.M)
    return text


def python_includes():
    """{"3.X": (include directory, its pyconfig.h)} of the CPythons found:
    pyenv's newest release of each of PYTHONS; 3.14 and 3.15 from the
    Debian root SHAKERAND_DEBIAN_PYTHONS names (its libpython3.X-dev, whose
    pyconfig.h is the multiarch one); the free-threaded 3.13 that
    tools/python-ft.sh builds (SHAKERAND_FT_PYTHON: its interpreter). A
    version not found is an error unless SHAKERAND_DIST_PARTIAL=1: a
    release made elsewhere must not quietly ship fewer wheels."""
    found = {}
    versions = pathlib.Path(os.environ.get("PYENV_ROOT", pathlib.Path.home() / ".pyenv")) / "versions"
    for v in PYTHONS:
        dirs = sorted(versions.glob(f"{v}.*"), key=lambda p: [int(x) for x in re.findall(r"\d+", p.name)])
        for d in reversed(dirs):
            inc = d / "include" / f"python{v}"
            if re.fullmatch(rf"{re.escape(v)}\.\d+", d.name) and (inc / "Python.h").is_file():
                found[v] = (inc, inc / "pyconfig.h")
                break
    debian = os.environ.get("SHAKERAND_DEBIAN_PYTHONS")
    for v in DEBIAN_PYTHONS:
        inc = pathlib.Path(debian or "/nonexistent") / "usr" / "include" / f"python{v}"
        config = inc.parent / "x86_64-linux-gnu" / f"python{v}" / "pyconfig.h"
        if (inc / "Python.h").is_file() and config.is_file():
            found[v] = (inc, config)
    ft = os.environ.get("SHAKERAND_FT_PYTHON")
    if ft:
        inc = pathlib.Path(ft).resolve().parent.parent / "include" / "python3.13t"
        if not (inc / "pyconfig.h").is_file() or "#define Py_GIL_DISABLED 1" not in (inc / "pyconfig.h").read_text():
            raise SystemExit(f"wheels.py: {inc} holds no free-threaded CPython's headers")
        found["3.13t"] = (inc, inc / "pyconfig.h")
    missing = [v for v in PYTHONS + DEBIAN_PYTHONS + ["3.13t"] if v not in found]
    if missing and os.environ.get("SHAKERAND_DIST_PARTIAL") != "1":
        raise SystemExit(f"wheels.py: no headers of CPython {', '.join(missing)} here "
                         "(SHAKERAND_DIST_PARTIAL=1 makes the wheels of the others)")
    if missing:
        print(f"wheels: no headers of CPython {', '.join(missing)} here: no wheels for them")
    return found


def normalized_tar_gz(members, out):
    """members: (TarInfo, bytes or None) pairs, written sorted by name with
    the epoch's time, owner 0 and fixed modes, gzip with no name or time."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in sorted(members, key=lambda m: m[0].name):
            info.mtime = EPOCH
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.pax_headers = {}
            if info.isdir():
                info.mode = 0o755
            elif info.isfile():
                info.mode = 0o755 if info.mode & 0o111 else 0o644
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    with open(out, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9, mtime=0, filename="") as gz:
        gz.write(raw.getvalue())


def repack_sdist(sdist, out):
    members = []
    with tarfile.open(sdist) as tar:
        for info in tar.getmembers():
            members.append((info, tar.extractfile(info).read() if info.isfile() else None))
    normalized_tar_gz(members, out)


def pkg_info(sdist):
    with tarfile.open(sdist) as tar:
        name = next(n for n in tar.getnames() if n.count("/") == 1 and n.endswith("/PKG-INFO"))
        return tar.extractfile(name).read()


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(f"{shlex.join(cmd)}\n{done.stdout}{done.stderr}")
        raise SystemExit(f"wheels.py: the compiler failed ({cmd[-1]})")


def zip_wheel(out, files):
    """files: {archive name: (bytes, executable)}; RECORD added last."""
    stamp = time.gmtime(max(EPOCH, 315532800))[:6]  # zip keeps no time before 1980
    names = sorted(files)
    dist_info = next(n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info"))
    record = []
    for n in names:
        digest = base64.urlsafe_b64encode(hashlib.sha256(files[n][0]).digest()).rstrip(b"=").decode()
        record.append(f"{n},sha256={digest},{len(files[n][0])}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = (("\n".join(record) + "\n").encode(), False)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        # The .dist-info last, as the wheel specification recommends.
        for n in sorted(files, key=lambda n: (n.startswith(dist_info), n)):
            info = zipfile.ZipInfo(n, stamp)
            info.external_attr = (0o100000 | (0o755 if files[n][1] else 0o644)) << 16
            info.create_system = 3
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, files[n][0], compresslevel=9)


def build_wheels(src, sdist, out, work, zig):
    src, out, work = pathlib.Path(src), pathlib.Path(out), pathlib.Path(work)
    spec = importlib.util.spec_from_file_location("shakerand_setup", src / "python" / "setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)  # not as __main__: defines, builds nothing
    metadata = pkg_info(sdist)
    version = re.search(rb"^Version: (.+)$", metadata, re.M).group(1).decode()
    core = [src / line.strip() for line in (src / "src" / "sources.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    ext = sorted((src / "python" / "ext").glob("*.c"))
    package = src / "python" / "src" / "shakerand"
    pure = {f"shakerand/{p.name}": (p.read_bytes(), False) for p in sorted(package.iterdir())
            if p.is_file() and p.suffix in (".py", ".pyi", ".typed")}
    licences = {f"shakerand-{version}.dist-info/licenses/{n}": ((src / n).read_bytes(), False)
                for n in ("LICENSE-MIT", "LICENSE-APACHE")}
    pythons = python_includes()
    extra_cflags = shlex.split(os.environ.get("CFLAGS", ""))
    pool = concurrent.futures.ThreadPoolExecutor(JOBS)
    made = []
    for target, tags, platform, suffix, cpu in TARGETS:
        options = setup.build_options(platform)
        flags = ["-target", target, "-fPIC", "-g0"] + extra_cflags + options["extra_compile_args"] + [
            f"-D{name}" if value is None else f"-D{name}={value}" for name, value in options["define_macros"]]
        tdir = work / target
        tdir.mkdir(parents=True, exist_ok=True)

        def compile_to(c, obj, more, flags=flags):
            run([zig, "cc", *flags, *more, "-I", str(src / "include"), "-I", str(src / "src"),
                 "-c", str(c), "-o", str(obj)])
            return obj
        core_objs = list(pool.map(lambda c: compile_to(
            c, tdir / ("core-" + str(c.relative_to(src)).replace("/", "_") + ".o"), []), core))
        for v, (include, config) in pythons.items():
            abi = "cp" + v.replace(".", "")  # cp313t for the free-threaded 3.13
            python_tag = abi.rstrip("t")
            vdir = tdir / abi
            # A copy of the headers with the target's pyconfig.h in place:
            # Python.h includes it as "pyconfig.h", found beside itself first.
            shutil.rmtree(vdir / "include", ignore_errors=True)
            shutil.copytree(include, vdir / "include")
            (vdir / "include" / "pyconfig.h").write_text(pyconfig_for(cpu, config.read_text()))
            more = ["-I", str(vdir / "include")]
            used = subprocess.run([zig, "cc", *flags, *more, "-I", str(src / "include"), "-I", str(src / "src"),
                                   "-M", str(ext[0])], capture_output=True, text=True).stdout
            if str(vdir / "include" / "pyconfig.h") not in used:
                raise SystemExit(f"wheels.py: {target} {abi} would not compile with its own pyconfig.h")
            objs = list(pool.map(lambda c: compile_to(c, vdir / (c.stem + ".o"), more), ext))
            so = vdir / "_core.so"
            # Stripped (-s): no symbol table or debug map naming this
            # machine's paths, so two builds elsewhere give the same bytes.
            link = [zig, "cc", "-target", target, "-shared", "-s", "-o", str(so),
                    *map(str, objs + core_objs), *options["extra_link_args"]]
            if platform == "darwin":
                # The interpreter's symbols, found at load; an install name
                # that is not this machine's path.
                link += ["-Wl,-undefined,dynamic_lookup", "-Wl,-install_name,_core.so"]
            else:
                link += ["-Wl,--build-id=none"]
            run(link)
            if "musl" in target:
                # zig names musl "libc.so"; musl's loader takes any libc.*
                # name for itself, but the musllinux policy (auditwheel)
                # allows only the name Alpine's libc has.
                run([os.environ.get("PATCHELF", "patchelf"), "--replace-needed", "libc.so",
                     "libc.musl-x86_64.so.1", str(so)])
            if suffix is None:
                ext_suffix = f".cpython-{abi[2:]}-darwin.so"
            elif suffix.endswith("-musl") and v in ("3.9", "3.10"):
                # CPython before 3.11 names musl "linux-gnu" too (bpo-43112).
                ext_suffix = f".cpython-{abi[2:]}-{suffix[:-len('-musl')]}-gnu.so"
            else:
                ext_suffix = f".cpython-{abi[2:]}-{suffix}.so"
            files = dict(pure)
            files[f"shakerand/_core{ext_suffix}"] = (so.read_bytes(), True)
            files.update(licences)
            files[f"shakerand-{version}.dist-info/METADATA"] = (metadata, False)
            wheel_tags = "".join(f"Tag: {python_tag}-{abi}-{t}\n" for t in tags)
            files[f"shakerand-{version}.dist-info/WHEEL"] = (
                ("Wheel-Version: 1.0\nGenerator: shakerand tools/dist/wheels.py\n"
                 f"Root-Is-Purelib: false\n{wheel_tags}").encode(), False)
            name = f"shakerand-{version}-{python_tag}-{abi}-{'.'.join(tags)}.whl"
            zip_wheel(out / name, files)
            made.append(name)
    pool.shutdown()
    print(f"wheels: {len(made)} wheels ({len(TARGETS)} targets, CPython {', '.join(pythons)})")


def main(argv):
    if argv[:1] == ["sdist"] and len(argv) == 3:
        repack_sdist(argv[1], argv[2])
    elif argv[:1] == ["wheels"] and len(argv) == 6:
        pathlib.Path(argv[3]).mkdir(parents=True, exist_ok=True)
        build_wheels(*argv[1:])
    elif argv[:1] == ["pyconfig"] and len(argv) == 3:
        sys.stdout.write(pyconfig_for(argv[1], pathlib.Path(argv[2]).read_text()))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
