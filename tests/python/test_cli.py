"""The shakerand command: output equal to the library's, and every error
path with its exit status (2 usage, 1 runtime) and one line on stderr."""
import os
import subprocess
import time

import pytest

SEED = bytes(range(40))


def run(cli, *args, **kw):
    return subprocess.run([cli, *args], capture_output=True, **kw)


def assert_error(result, status, fragment):
    assert result.returncode == status, result
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("shakerand: ")
    assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("kind", ["turboshake256", "shake256", "turboshake256x8"])
@pytest.mark.parametrize("size,n", [("0", 0), ("1", 1), ("1088", 1088), ("3K", 3072),
                                    ("1M", 1 << 20)])
def test_seeded_output_equals_library(cli, lib, kind, size, n):
    r = run(cli, "bytes", "-n", size, "--engine", kind, "--seed", SEED.hex())
    assert r.returncode == 0 and r.stderr == b""
    assert r.stdout == lib.engine(kind, SEED).fill(n)


def test_default_engine_is_turboshake256(cli, lib):
    r = run(cli, "bytes", "-n", "100", "--seed", SEED.hex())
    assert r.stdout == lib.engine("turboshake256", SEED).fill(100)


def test_empty_seed(cli, ref):
    r = run(cli, "bytes", "-n", "2200", "--seed", "")
    assert r.returncode == 0
    assert r.stdout == ref.engine_stream("turboshake256", b"", 2200)


def test_upper_case_hex_seed(cli):
    a = run(cli, "bytes", "-n", "32", "--seed", "ABCDEF").stdout
    b = run(cli, "bytes", "-n", "32", "--seed", "abcdef").stdout
    assert a == b and len(a) == 32


def test_unseeded_output_differs_between_runs(cli):
    a = run(cli, "bytes", "-n", "64").stdout
    b = run(cli, "bytes", "-n", "64").stdout
    assert len(a) == 64 and len(b) == 64 and a != b


def test_output_file(cli, tmp_path):
    path = tmp_path / "out.bin"
    r = run(cli, "bytes", "-n", "5000", "--seed", "00", "-o", str(path))
    assert r.returncode == 0 and r.stdout == b"" and r.stderr == b""
    assert path.read_bytes() == run(cli, "bytes", "-n", "5000", "--seed", "00").stdout


@pytest.mark.parametrize("args,fragment", [
    ([], "missing command"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["--frob"], "unknown option '--frob'"),
    (["bytes"], "missing -n SIZE"),
    (["bytes", "-n"], "needs a value"),
    (["bytes", "-n", "-5"], "invalid size '-5'"),
    (["bytes", "-n", ""], "invalid size ''"),
    (["bytes", "-n", "12X"], "invalid size '12X'"),
    (["bytes", "-n", "1.5K"], "invalid size"),
    (["bytes", "-n", "99999999999999999999"], "invalid size"),
    (["bytes", "-n", "99999999999G"], "invalid size"),
    (["bytes", "-n", "1", "--engine", "chacha20"], "unknown engine 'chacha20'"),
    (["bytes", "-n", "1", "--seed", "abc"], "odd number of hex digits"),
    (["bytes", "-n", "1", "--seed", "zz"], "not hexadecimal"),
    (["bytes", "-n", "1", "--bogus"], "unknown option '--bogus'"),
    (["bytes", "-n", "1", "-q"], "unknown option '-q'"),
    (["bytes", "-n", "1", "--help=yes"], "takes no value"),
    (["bytes", "-n", "1", "extra"], "unexpected argument 'extra'"),
])
def test_usage_errors(cli, args, fragment):
    assert_error(run(cli, *args), 2, fragment)


def test_unwritable_output_file(cli, tmp_path):
    assert_error(run(cli, "bytes", "-n", "1", "-o", str(tmp_path / "no" / "such" / "dir")), 1,
                 "cannot open")


def test_write_error_is_not_success(cli):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    assert_error(run(cli, "bytes", "-n", "1M", "-o", "/dev/full"), 1, "No space left")
    with open("/dev/full", "wb") as full:
        r = subprocess.run([cli, "bytes", "-n", "1M"], stdout=full, stderr=subprocess.PIPE)
    assert r.returncode == 1 and b"write error" in r.stderr


def test_closed_pipe_ends_quietly(cli):
    start = time.monotonic()
    p = subprocess.Popen([cli, "bytes", "-n", "1G"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    head = p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=30)
    assert len(head) == 10
    assert err == b""
    assert time.monotonic() - start < 20, "did not stop when the reader went away"


def test_help_and_version(cli):
    for args in (["--help"], ["help"], ["bytes", "--help"]):
        r = run(cli, *args)
        assert r.returncode == 0 and r.stdout.startswith(b"Usage: shakerand") and r.stderr == b""
    r = run(cli, "--version")
    assert r.returncode == 0 and r.stdout.startswith(b"shakerand 0.")
    assert b"kernel" in r.stdout


@pytest.mark.parametrize("kind", ["turboshake256", "shake256", "turboshake256x8"])
def test_engine_without_seed_is_seeded_from_the_sources(cli, kind):
    a = run(cli, "bytes", "-n", "64", "--engine", kind).stdout
    b = run(cli, "bytes", "-n", "64", "--engine", kind).stdout
    assert len(a) == 64 and a != b


def test_sources_json(cli):
    import json
    r = run(cli, "sources", "--json")
    assert r.returncode == 0 and r.stderr == b""
    doc = json.loads(r.stdout)
    assert doc["kernel"]
    names = [s["name"] for s in doc["sources"]]
    assert names[0] == "os"
    for s in doc["sources"]:
        assert set(s) >= {"name", "present", "used", "reason"}
        assert (s["reason"] is None) == s["used"]
    assert doc["sources"][0]["used"] and doc["sources"][0]["method"] == "getrandom"


def test_sources_table_and_errors(cli):
    r = run(cli, "sources")
    assert r.returncode == 0 and r.stdout.startswith(b"source")
    assert b"\nos " in r.stdout
    assert_error(run(cli, "sources", "--xml"), 2, "unknown option '--xml'")
    assert_error(run(cli, "sources", "extra"), 2, "unexpected argument 'extra'")


def test_progress_bar_only_on_a_terminal(cli):
    import pty
    leader, follower = pty.openpty()
    try:
        r = subprocess.run([cli, "bytes", "-n", "6G", "-o", "/dev/null"], stderr=follower,
                           stdout=subprocess.DEVNULL, timeout=120)
        os.close(follower)
        follower = None
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)
    assert r.returncode == 0
    assert b"ETA" in shown and b"100%" in shown and b"GiB" in shown
    quiet = run(cli, "bytes", "-n", "6G", "-o", "/dev/null")
    assert quiet.returncode == 0 and quiet.stderr == b""
