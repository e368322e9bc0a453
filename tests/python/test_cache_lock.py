# SPDX-License-Identifier: MIT OR Apache-2.0
"""Two runs of a cached build step at once (two make dist): the second waits
on the cache's lock while the first builds, then reuses what it built, and
both succeed. The real scripts run (tools/python-ft.sh, tools/debian-root.sh)
with apt-get, dpkg-query, apt-cache and dpkg-deb replaced by stubs on PATH,
so nothing is downloaded and the "build" is a stub that waits until the
second run has either blocked on the lock (a `flock 9` child of its shell)
or got past it (the stub's download ran for it: the lock did not hold)."""
import os
import pathlib
import subprocess
import tarfile
import textwrap
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WAIT = 120  # seconds before a stuck run fails the test (the steps take < 1 s)


def script(path, text):
    path.write_text("#!/bin/sh\n" + textwrap.dedent(text))
    path.chmod(0o755)


def children(pid):
    """The command lines of a process's children."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
            cmdline = pathlib.Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(cmdline.split(b"\0")[:-1])
    return found


def wait_for(what, done, procs):
    deadline = time.monotonic() + WAIT
    while not done():
        for p in procs:
            if p.poll() is not None:
                out, err = p.communicate()
                pytest.fail(f"a run ended before {what}: rc {p.returncode}\n{out}\n{err}")
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} after {WAIT} s")
        time.sleep(0.02)


def race(cmd, env, stub):
    """Run A until its build step waits, start B, release A's build once B
    waits on the lock (or once B's download shows it did not), return both."""
    first = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for("build step in the first run", (stub / "building").exists, [first])
    second = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def second_waits_or_passed():
        return [b"flock", b"9"] in children(second.pid) or (stub / "go").exists()

    wait_for("wait on the lock or download in the second run", second_waits_or_passed, [first, second])
    (stub / "go").touch()
    results = []
    for p in (first, second):
        out, err = p.communicate(timeout=WAIT)
        results.append((p.returncode, out, err))
    return results


# The build step's stub: notes that it started, waits for "go", counts itself.
BUILD = """\
    echo "$$" >>"$STUB/builds"
    touch "$STUB/building"
    while [ ! -e "$STUB/go" ]; do sleep 0.02; done
"""


def test_python_ft_two_runs_at_once(tmp_path):
    stub = tmp_path / "stub"
    bin_ = stub / "bin"
    bin_.mkdir(parents=True)
    # An "upstream tarball" whose configure and Makefile stand for CPython's:
    # make is the build step, make install puts a python3.13t that says it
    # is free-threaded (exits 0 for the check's sys.exit(sys._is_gil_enabled())).
    tree = tmp_path / "Python-3.13.5"
    tree.mkdir()
    script(tree / "configure", """\
        for a; do case $a in --prefix=*) prefix=${a#--prefix=} ;; esac; done
        printf 'all:\\n\\tsh ./build\\ninstall:\\n\\tmkdir -p %s/bin && cp python3.13t %s/bin/\\n' \\
            "$prefix" "$prefix" >Makefile
    """)
    script(tree / "build", BUILD + 'printf "#!/bin/sh\\nexit 0\\n" >python3.13t && chmod +x python3.13t\n')
    orig = stub / "python3.13_3.13.5.orig.tar.xz"
    with tarfile.open(orig, "w:xz") as t:
        t.add(tree, arcname="Python-3.13.5")
    script(bin_ / "dpkg-query", 'echo "install ok installed"\n')
    # apt-get source: the download; a second one before "go" means the second
    # run got past where the lock is.
    script(bin_ / "apt-get", """\
        case " $* " in *" source "*) cp "$STUB/python3.13_3.13.5.orig.tar.xz" . ;; esac
        case " $* " in *" source "*) [ -e "$STUB/building" ] && touch "$STUB/go" ;; esac
        exit 0
    """)
    cache = tmp_path / "cache"
    env = dict(os.environ, PATH=f"{bin_}:{os.environ['PATH']}", STUB=str(stub),
               SHAKERAND_FT_PYTHON_DIR=str(cache), JOBS="1")
    (a_rc, a_out, a_err), (b_rc, b_out, b_err) = race([str(ROOT / "tools" / "python-ft.sh")], env, stub)
    python = f"{cache}/3.13t/bin/python3.13t\n"
    assert (a_rc, a_out) == (0, python), a_err
    assert (b_rc, b_out) == (0, python), b_err
    assert "waiting for another run" in b_err
    assert len((stub / "builds").read_text().split()) == 1, "the second run built again"


def test_debian_root_two_runs_at_once(tmp_path):
    stub = tmp_path / "stub"
    bin_ = stub / "bin"
    bin_.mkdir(parents=True)
    script(bin_ / "apt-cache", "exit 0\n")
    # apt-get download: one .deb per package named (the last arguments); a
    # download while the first run unpacks means the second got past the lock.
    script(bin_ / "apt-get", """\
        case " $* " in *" download "*)
            [ -e "$STUB/building" ] && touch "$STUB/go"
            for a; do case $a in -*|*=*|download) ;; *) : >"$a.deb" ;; esac; done ;;
        esac
        exit 0
    """)
    # dpkg-deb -x DEB ROOT: the build step, then a file per package.
    script(bin_ / "dpkg-deb",
           BUILD + 'mkdir -p "$3/usr/share/stub" && : >"$3/usr/share/stub/$(basename "$2")"\n')
    root = tmp_path / "roots" / "sid-amd64"
    env = dict(os.environ, PATH=f"{bin_}:{os.environ['PATH']}", STUB=str(stub))
    cmd = [str(ROOT / "tools" / "debian-root.sh"), "--only", "sid", "amd64", str(root), "python3.14-minimal"]
    (a_rc, _, a_err), (b_rc, _, b_err) = race(cmd, env, stub)
    assert a_rc == 0, a_err
    assert b_rc == 0, b_err
    assert len((stub / "builds").read_text().split()) == 1, "the second run made the root again"
    assert "waiting for another run" in b_err
    assert (root / ".made-from").read_text() == "1 sid amd64 python3.14-minimal\n"
    assert (root / "usr/share/stub/python3.14-minimal.deb").exists()
