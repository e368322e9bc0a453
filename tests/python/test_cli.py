# SPDX-License-Identifier: MIT OR Apache-2.0
"""The shakerand command: output equal to the library's, and every error
path with its exit status (2 usage, 1 runtime) and one line on stderr."""
import os
import shutil
import subprocess
import time

import pytest

from conftest import KINDS, SEED_SIZES, WINDOWS_CLI, not_under_wine, posix_only

SEED = bytes(range(40))


def run(cli, *args, **kw):
    return subprocess.run([cli, *args], capture_output=True, **kw)


@pytest.fixture(scope="session")
def fault_shim(tmp_path_factory):
    """fault_shim.c built as an LD_PRELOAD library (skips without a C compiler)."""
    if WINDOWS_CLI is not None:
        pytest.skip("POSIX only: the fault shim is an LD_PRELOAD library")
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler for the fault shim")
    out = tmp_path_factory.mktemp("shim") / "fault_shim.so"
    source = os.path.join(os.path.dirname(__file__), "fault_shim.c")
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(out), source, "-ldl"], check=True)
    return str(out)


def run_with_faults(cli, shim, faults, *args, **kw):
    env = dict(os.environ, LD_PRELOAD=shim, SHAKERAND_TEST_FAULTS=faults)
    return run(cli, *args, env=env, **kw)


def assert_error(result, status, fragment):
    assert result.returncode == status, result
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("shakerand: ")
    assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("size,n", [("0", 0), ("1", 1), ("1088", 1088), ("3K", 3072),
                                    ("1M", 1 << 20)])
def test_seeded_output_equals_library(cli, lib, kind, size, n):
    seed = SEED[:SEED_SIZES[kind]] if SEED_SIZES[kind] else SEED
    r = run(cli, "bytes", "-n", size, "--engine", kind, "--seed", seed.hex())
    assert r.returncode == 0 and r.stderr == b""
    assert r.stdout == lib.engine(kind, seed).fill(n)


@pytest.mark.parametrize("length", [0, 1, 31, 33, 64])
def test_chacha8rand_seed_of_wrong_length_is_a_usage_error(cli, length):
    r = run(cli, "bytes", "-n", "16", "--engine", "chacha8rand", "--seed", "ab" * length)
    assert r.returncode == 2 and r.stdout == b""
    assert f"chacha8rand seed is exactly 32 bytes (64 hex digits), not {length}".encode() in r.stderr


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


def test_output_file_is_private(cli, tmp_path, assert_owner_only):
    # In a directory others may read: on Windows, nothing of its inheritable
    # ACL may reach FILE.
    tmp_path.chmod(0o755)
    new = tmp_path / "new.key"
    r = run(cli, "bytes", "-n", "32", "-o", str(new), preexec_fn=lambda: os.umask(0o022))
    assert r.returncode == 0 and r.stderr == b""
    assert_owner_only(new)
    assert len(new.read_bytes()) == 32
    existing = tmp_path / "existing.key"
    existing.write_bytes(b"x" * 100)
    existing.chmod(0o644)
    r = run(cli, "bytes", "-n", "32", "--seed", "00", "-o", str(existing))
    assert r.returncode == 0 and r.stderr == b""
    assert_owner_only(existing)
    assert existing.read_bytes() == run(cli, "bytes", "-n", "32", "--seed", "00").stdout


def test_output_file_whose_mode_cannot_be_changed_is_left_alone(cli, fault_shim, tmp_path):
    existing = tmp_path / "theirs"
    existing.write_bytes(b"keep")
    existing.chmod(0o644)
    r = run_with_faults(cli, fault_shim, "fchmod", "bytes", "-n", "32", "-o", str(existing))
    assert_error(r, 1, "cannot make")
    assert existing.read_bytes() == b"keep"


@not_under_wine("it shows a Unix symbolic link as its target, not as a reparse point")
def test_output_through_a_symbolic_link_is_refused(cli, tmp_path):
    target = tmp_path / "target"
    target.write_bytes(b"keep")
    target.chmod(0o666)
    link = tmp_path / "link"
    link.symlink_to(target)
    assert_error(run(cli, "bytes", "-n", "32", "-o", str(link)), 1, "symbolic link")
    assert target.read_bytes() == b"keep"
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "absent")
    assert_error(run(cli, "bytes", "-n", "32", "-o", str(dangling)), 1, "symbolic link")
    assert not (tmp_path / "absent").exists()


@posix_only("/dev/stdout and /dev/fd/N")
def test_output_to_the_systems_links_to_a_descriptor(cli, tmp_path):
    # /dev/stdout and /dev/fd/N are links the system made: followed.
    r = run(cli, "bytes", "-n", "32", "-o", "/dev/stdout")
    assert r.returncode == 0 and len(r.stdout) == 32
    r = run(cli, "bytes", "-n", "32", "-o", "/dev/fd/1")
    assert r.returncode == 0 and len(r.stdout) == 32
    # Any other link under /dev is refused: /dev/shm is world-writable.
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        victim = tmp_path / "victim"
        victim.write_bytes(b"keep")
        link = f"/dev/shm/shakerand-test-{os.getpid()}"
        os.symlink(victim, link)
        try:
            assert_error(run(cli, "bytes", "-n", "16", "-o", link), 1, "symbolic link")
            assert victim.read_bytes() == b"keep"
        finally:
            os.unlink(link)


def test_output_file_of_another_user_or_with_other_links_is_refused(cli, tmp_path):
    linked = tmp_path / "linked"
    linked.write_bytes(b"keep")
    os.link(linked, tmp_path / "second-name")
    assert_error(run(cli, "bytes", "-n", "16", "-o", str(linked)), 1, "hard links")
    assert linked.read_bytes() == b"keep"
    if os.geteuid() != 0:
        pytest.skip("making a file of another user needs root")
    foreign = tmp_path / "foreign"
    foreign.write_bytes(b"keep")
    os.chown(foreign, 65534, 65534)
    foreign.chmod(0o644)
    # Root could chmod it, but the owner could still read the key.
    assert_error(run(cli, "bytes", "-n", "16", "-o", str(foreign)), 1, "another user")
    assert foreign.read_bytes() == b"keep"
    assert foreign.stat().st_uid == 65534 and (foreign.stat().st_mode & 0o777) == 0o644


def test_output_to_a_device_or_fifo_keeps_its_mode(cli, tmp_path):
    null_mode = os.stat("/dev/null").st_mode
    r = run(cli, "bytes", "-n", "1K", "-o", "/dev/null")
    assert r.returncode == 0 and r.stderr == b""
    assert os.stat("/dev/null").st_mode == null_mode
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    fifo.chmod(0o644)
    p = subprocess.Popen([cli, "bytes", "-n", "5000", "--seed", "00", "-o", str(fifo)],
                         stderr=subprocess.PIPE)
    with open(fifo, "rb") as reader:
        data = reader.read()
    assert p.wait(timeout=30) == 0 and p.stderr.read() == b""
    assert data == run(cli, "bytes", "-n", "5000", "--seed", "00").stdout
    assert fifo.stat().st_mode & 0o7777 == 0o644


@pytest.mark.parametrize("args,fragment", [
    ([], "missing command"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["--frob"], "unknown option '--frob'"),
    (["bytes"], "missing SIZE"),
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
    (["bytes", "-n", "1", "--help=yes"], "option '--help=yes' takes no value"),
    (["bytes", "--size=1", "-zx"], "unknown option '-z'"),
    (["bytes", "--size=1", "-xz"], "unknown option '-x'"),
    (["bytes", "-z", "--size=1"], "unknown option '-z'"),
    (["bytes", "--size=1", "-n"], "option '-n' needs a value"),
    (["bytes", "-n1", "--seed"], "option '--seed' needs a value"),
    (["bytes", "-n", "1", "extra"], "unexpected argument 'extra'"),
])
def test_usage_errors(cli, args, fragment):
    assert_error(run(cli, *args), 2, fragment)


@pytest.mark.parametrize("command", [["bytes", "-n", "1"], ["int", "--below", "9"], ["password"],
                                     ["shuffle"], ["pick"]])
@pytest.mark.parametrize("seed,fragment", [("xy", "is not hexadecimal"), ("xyz", "is not hexadecimal"),
                                           ("0g", "is not hexadecimal"), ("g", "is not hexadecimal"),
                                           ("abc0z", "is not hexadecimal"),
                                           ("abc", "has an odd number of hex digits"),
                                           ("0", "has an odd number of hex digits")])
def test_a_seed_that_is_not_hex_is_called_so_before_its_length(cli, command, seed, fragment):
    # Every command's --seed goes through one parser (cli/encode.c); a seed
    # with a non-hex character is not hexadecimal whatever its length.
    r = run(cli, *command, "--seed", seed, input=b"a\n")
    assert_error(r, 2, f"{command[0]}: seed {fragment}")


@pytest.mark.parametrize("args,operand", [
    (["--version", "extra"], "extra"), (["-V", "x"], "x"), (["--version", "--help"], "--help"),
    (["--help", "extra"], "extra"), (["-h", "extra"], "extra"), (["help", "extra"], "extra"),
])
def test_an_argument_after_help_or_version_is_a_usage_error(cli, args, operand):
    assert_error(run(cli, *args), 2, f"unexpected argument '{operand}' after '{args[0]}' "
                                     "(see 'shakerand --help')")


@pytest.mark.parametrize("first", ["help", "--help", "-h"])
def test_help_followed_by_a_command_points_to_its_help(cli, first):
    assert_error(run(cli, first, "bytes"), 2, f"unexpected argument 'bytes' after '{first}' "
                                              "(for its help: 'shakerand bytes --help')")


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


@pytest.mark.parametrize("kind", sorted(KINDS))
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
    os_calls = ("ProcessPrng", "BCryptGenRandom") if WINDOWS_CLI else ("getrandom",)
    assert doc["sources"][0]["used"] and doc["sources"][0]["method"].startswith(os_calls)
    assert doc["reseed_failures"] == 0
    assert doc["system_engine"] == "chacha8rand"


@pytest.mark.parametrize("value,engine", [("turboshake256x8", "turboshake256x8"),
                                          ("chacha8rand", "chacha8rand"), ("", "chacha8rand")])
def test_system_engine_from_the_environment(cli, value, engine):
    import json
    r = subprocess.run([cli, "sources", "--json"], capture_output=True,
                       env=dict(os.environ, SHAKERAND_SYSTEM_ENGINE=value))
    assert r.returncode == 0 and r.stderr == b""
    assert json.loads(r.stdout)["system_engine"] == engine


@pytest.mark.parametrize("value", ["shake256", "ChaCha8Rand", "bogus"])
def test_unknown_system_engine_is_reported_and_ignored(cli, value):
    import json
    r = subprocess.run([cli, "sources", "--json"], capture_output=True,
                       env=dict(os.environ, SHAKERAND_SYSTEM_ENGINE=value))
    assert r.returncode == 0
    assert f"SHAKERAND_SYSTEM_ENGINE={value} is not chacha8rand or turboshake256x8".encode() in r.stderr
    assert json.loads(r.stdout)["system_engine"] == "chacha8rand"


def test_sources_table_and_errors(cli):
    r = run(cli, "sources")
    assert r.returncode == 0 and r.stdout.startswith(b"source")
    assert b"\nos " in r.stdout
    assert b"\nreseed failures in this process: 0\n" in r.stdout
    assert_error(run(cli, "sources", "--xml"), 2, "unknown option '--xml'")
    assert_error(run(cli, "sources", "extra"), 2, "unexpected argument 'extra'")
    assert_error(run(cli, "sources", "--json", "-jz"), 2, "unknown option '-z'")
    assert_error(run(cli, "sources", "--json=no"), 2, "option '--json=no' takes no value")


@posix_only("a pseudo-terminal read after the run (test_cli_windows.py reads the console's)")
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


@pytest.mark.parametrize("method", ["rng-bc-1", "rng-bc-8", "simple-discard", "simple-modular"])
def test_int_seeded_values_are_below_the_bound(cli, method):
    bound = 0xAADD9DB8DBE9C48B3FD4E6AE33C9FC07
    r = run(cli, "int", "--below", f"0x{bound:x}", "--count", "500", "--method", method,
            "--seed", "0102", "--hex")
    assert r.returncode == 0 and r.stderr == b""
    lines = r.stdout.decode().split("\n")
    assert lines[-1] == "" and len(lines) == 501
    for line in lines[:-1]:
        assert line == line.lower() and (line == "0" or not line.startswith("0"))
        assert 0 <= int(line, 16) < bound
    again = run(cli, "int", "--below", str(bound), "--count", "500", "--method", method,
                "--seed", "0102")
    assert [int(x) for x in again.stdout.split()] == [int(x, 16) for x in r.stdout.split()]


def test_int_small_bounds_odd_digits_and_zero_output(cli):
    r = run(cli, "int", "--below", "1", "--count", "3")
    assert r.stdout == b"0\n0\n0\n"
    r = run(cli, "int", "--below", "0xabc", "--count", "2000", "--seed", "", "--hex")
    values = [int(x, 16) for x in r.stdout.split()]
    assert len(values) == 2000 and max(values) < 0xABC and len(set(values)) > 1000
    r = run(cli, "int", "--below", "000000255")
    assert r.returncode == 0 and int(r.stdout) < 255


def test_int_stats(cli):
    import json
    r = run(cli, "int", "--below", "0x8" + "0" * 63, "--count", "20000", "--seed", "00",
            "--stats")
    stats = json.loads(r.stderr)
    assert stats["method"] == "rng-bc-1" and stats["count"] == 20000
    assert abs(stats["avg_bits"] - 259.0) < 0.2
    assert stats["max_bits"] >= 256


@pytest.mark.parametrize("args,fragment", [
    (["int"], "missing LO HI or --below B"),
    (["int", "--below", "0"], "greater than zero"),
    (["int", "--below", "000"], "greater than zero"),
    (["int", "--below", "0x0"], "greater than zero"),
    (["int", "--below", "-5"], "greater than zero"),
    (["int", "--below", ""], "invalid number ''"),
    (["int", "--below", "xyz"], "invalid number 'xyz'"),
    (["int", "--below", "ff"], "invalid number 'ff'"),
    (["int", "--below", "255", "--count", "ten"], "invalid count 'ten'"),
    (["int", "--below", "255", "--count", "-1"], "invalid count"),
    (["int", "--below", "255", "--method", "rng-bc-2"], "unknown method 'rng-bc-2'"),
    (["int", "--below", "255", "--seed", "0"], "odd number of hex digits"),
    (["int", "6"], "int: missing HI (for a number below 6, use --below 6)"),
    (["int", "0x1F"], "int: missing HI (for a number below 0x1F, use --below 0x1F)"),
    (["int", "-5"], "int: missing HI (see 'shakerand int --help')"),
    (["int", "0"], "int: missing HI (see 'shakerand int --help')"),
    (["int", "-0"], "int: missing HI (see 'shakerand int --help')"),
    (["int", "abc"], "int: invalid number 'abc' (decimal digits, or hex digits after 0x)"),
    (["int", "1.5"], "int: invalid number '1.5' (decimal digits, or hex digits after 0x)"),
    (["uuid", "-n", "x"], "invalid count 'x'"),
    (["uuid", "--v8"], "unknown option '--v8'"),
])
def test_int_and_uuid_usage_errors(cli, args, fragment):
    assert_error(run(cli, *args), 2, fragment)


def test_uuid_text_and_binary(cli):
    import re
    import uuid as pyuuid
    r = run(cli, "uuid", "-n", "1000")
    lines = r.stdout.decode().split()
    assert len(lines) == 1000 and len(set(lines)) == 1000
    for line in lines:
        assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
                            line)
        assert pyuuid.UUID(line).version == 4
    v7 = run(cli, "uuid", "-n", "1000", "--v7").stdout.decode().split()
    assert v7 == sorted(v7) and len(set(v7)) == 1000
    assert all(pyuuid.UUID(u).version == 7 for u in v7)
    b = run(cli, "uuid", "-n", "10", "--binary").stdout
    assert len(b) == 160
    assert all(pyuuid.UUID(bytes=b[i:i + 16]).version == 4 for i in range(0, 160, 16))


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["bytes", "--help"],
                                  ["int", "--help"], ["uuid", "--help"], ["sources", "--help"],
                                  ["sources"], ["sources", "--json"],
                                  ["uuid", "-n", "100000"], ["int", "--below", "255", "-n", "100000"]])
def test_write_errors_on_standard_output_are_not_success(cli, args):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "wb") as full:
        r = subprocess.run([cli, *args], stdout=full, stderr=subprocess.PIPE)
    assert r.returncode == 1, args
    assert b"write error" in r.stderr


@posix_only("signals")
def test_closed_pipe_ends_quietly_even_with_sigpipe_blocked_or_ignored(cli):
    import signal

    def block():
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGPIPE])
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    p = subprocess.Popen([cli, "bytes", "-n", "1G"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=block)
    p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=30)
    assert err == b""


SYSTEM_GENERATOR_COMMANDS = [["bytes", "-n", "16"], ["int", "--below", "255"], ["uuid"],
                             ["int", "1", "6"], ["token"], ["password"], ["shuffle", "/dev/null"],
                             ["pick", "/dev/null"]]


@pytest.mark.parametrize("args", SYSTEM_GENERATOR_COMMANDS)
def test_no_memory_for_the_system_generator_is_not_called_an_entropy_failure(cli, fault_shim,
                                                                             args):
    r = run_with_faults(cli, fault_shim, "mmap", *args)
    assert_error(r, 1, "out of memory")
    assert b"entropy" not in r.stderr


@pytest.mark.parametrize("args", SYSTEM_GENERATOR_COMMANDS + [["bytes", "-n", "16", "-e",
                                                               "shake256"]])
def test_no_entropy_is_reported_as_such(cli, fault_shim, args):
    r = run_with_faults(cli, fault_shim, "entropy", *args)
    assert_error(r, 1, "entropy")
    assert b"memory" not in r.stderr


def test_a_diagnostic_never_lands_in_the_output_file_when_stderr_is_closed(cli, fault_shim,
                                                                           tmp_path):
    # Every write(2) fails, so the CLI reports a write error on FILE; with
    # descriptor 2 closed at start, FILE would otherwise be descriptor 2.
    path = tmp_path / "out.bin"
    r = run_with_faults(cli, fault_shim, "write", "bytes", "-n", "16", "--seed", "00", "-o",
                        str(path), preexec_fn=lambda: os.close(2))
    assert r.returncode == 1
    assert path.read_bytes() == b""


def test_output_fifo_of_another_user_is_refused(cli, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("making a FIFO of another user needs root")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    os.chown(fifo, 65534, 65534)
    # Refused before it would block waiting for a reader.
    r = run(cli, "bytes", "-n", "16", "-o", str(fifo), timeout=10)
    assert_error(r, 1, "another user")


def test_wordlist_with_a_control_character_is_refused(cli, tmp_path):
    words = tmp_path / "words"
    words.write_bytes(b"alpha\nbe\x00ta\ngamma\n")
    r = run(cli, "password", "--words", "3", "--wordlist", str(words))
    assert_error(r, 1, "control character")


@pytest.mark.parametrize("words", ["1", "2"])
def test_wordlist_with_a_word_containing_the_separator_is_refused(cli, tmp_path, words):
    # Joined by '-', a-b + a and a + b-a print the same "a-b-a": 14 different
    # passwords where -v claimed 16 (4 bits). Refused for any number of words,
    # so that a list is good or not whatever --words says.
    path = tmp_path / "words"
    path.write_bytes(b"a\nb\n\na-b\nb-a\n")
    for source, stdin in ((str(path), None), ("-", path.read_bytes())):
        r = run(cli, "password", "--words", words, "--wordlist", source, "--verbose",
                input=stdin)
        assert_error(r, 1, "line 4 of the word list, 'a-b', contains the separator '-'")


def test_verbose_entropy_is_that_of_the_passwords_printed(cli, tmp_path):
    # Repeats, empty lines and a CRLF line end are dropped before counting:
    # 4 different words, so 2 words are 16 passwords, 4 bits, and all 16 occur.
    path = tmp_path / "words"
    path.write_bytes(b"a\nab\n\na\nb\r\nba\nab\n")
    r = run(cli, "password", "-w", "2", "--wordlist", str(path), "-n", "2000", "-v",
            "--seed", "05")
    assert r.returncode == 0
    assert r.stderr == b"shakerand: password: 4.0 bits of entropy each (2 words from a list of 4)\n"
    assert len(set(r.stdout.split())) == 16


def test_pick_accepts_any_count(cli):
    r = run(cli, "pick", "-n", "18446744073709551615", input=b"a\nb\nc\n")
    assert r.returncode == 0 and sorted(r.stdout.split()) == [b"a", b"b", b"c"]
