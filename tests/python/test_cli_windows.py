# SPDX-License-Identifier: MIT OR Apache-2.0
"""The Windows CLI (SHAKERAND_WINDOWS_CLI, run under Wine by
tests/windows/cli.sh) where Windows differs: standard streams without
newline translation, UTF-8 arguments and file names, the progress bar on a
console, a closed pipe. Its -o files' owner-only ACL is checked by the
shared tests through assert_owner_only (conftest.py)."""
import os
import pty
import re
import subprocess
import threading
import time

import pytest

from conftest import windows_only
from test_cli import assert_error, run

pytestmark = windows_only

# Input with every byte a text-mode stream would change: '\n' (to "\r\n" on
# writing), '\r' before '\n' (dropped on reading) and ^Z (end of input).
LINES = b"".join(b"line %d\r\n" % i + b"\x1a%d\n\n" % i + b"\r\r\n" for i in range(200))

SEEDED = [
    ["bytes", "-n", "1M", "--seed", "00"],
    ["bytes", "-n", "100K", "--seed", "01", "--hex"],
    ["bytes", "-n", "100K", "--seed", "02", "--base64"],
    ["int", "1", "1000", "-n", "2000", "--seed", "03"],
    ["password", "-n", "500", "--seed", "04", "--charset", "alnum-symbols"],
    ["uuid", "--help"],
    ["shuffle", "--seed", "05"],
    ["pick", "-n", "50", "--seed", "06"],
]


@pytest.mark.parametrize("args", SEEDED, ids=lambda a: " ".join(a[:3]))
def test_output_is_byte_for_byte_that_of_the_posix_cli(cli, posix_cli, args):
    expected = subprocess.run([posix_cli, *args], input=LINES, capture_output=True, check=True)
    got = run(cli, *args, input=LINES)
    assert got.returncode == 0 and got.stderr == b""
    assert len(got.stdout) == len(expected.stdout)
    assert got.stdout == expected.stdout


@pytest.mark.parametrize("args", [SEEDED[0], SEEDED[1], SEEDED[6]], ids=lambda a: a[0])
def test_output_file_is_byte_for_byte_that_of_the_posix_cli(cli, posix_cli, tmp_path, args):
    # shuffle writes through stdout moved onto the file, bytes to the file.
    expected = subprocess.run([posix_cli, *args], input=LINES, capture_output=True, check=True)
    out = tmp_path / "out"
    r = run(cli, *args, "-o", str(out), input=LINES)
    assert r.returncode == 0 and r.stdout == b"" and r.stderr == b""
    assert out.read_bytes() == expected.stdout


def test_errors_end_in_a_bare_newline(cli):
    r = run(cli, "bytes", "-n", "x")
    assert r.returncode == 2
    assert r.stderr == b"shakerand: bytes: invalid size 'x' (a whole number, optionally with K, " \
                       b"M, G or T)\n"


NAME = "clé-ключ-鍵-🔑"


def test_utf8_output_file_name(cli, posix_cli, tmp_path, assert_owner_only):
    path = tmp_path / f"{NAME}.bin"
    r = run(cli, "bytes", "-n", "1000", "--seed", "07", "-o", str(path))
    assert r.returncode == 0 and r.stderr == b""
    assert os.listdir(tmp_path) == [path.name]
    assert path.read_bytes() == run(posix_cli, "bytes", "-n", "1000", "--seed", "07").stdout
    assert_owner_only(path)


def test_utf8_word_list_name_and_words(cli, posix_cli, tmp_path):
    words = tmp_path / f"{NAME}.txt"
    words.write_text("naïve\nΣίσυφος\n日本語\nçà\nżółw\nemoji🙂\n", encoding="utf-8")
    args = ["password", "--words", "4", "--wordlist", str(words), "-n", "200", "--seed", "08",
            "--verbose"]
    r = run(cli, *args)
    assert r.returncode == 0
    assert r.stdout == run(posix_cli, *args).stdout
    assert "日本語" in r.stdout.decode("utf-8")
    assert r.stderr == b"shakerand: password: 10.3 bits of entropy each (4 words from a list of 6)\n"


def test_utf8_file_name_in_a_message(cli, tmp_path):
    absent = tmp_path / NAME
    assert_error(run(cli, "shuffle", str(absent)), 1,
                 f"shuffle: cannot open '{absent}': No such file or directory")


def test_wildcards_reach_the_program_unexpanded(cli, tmp_path):
    # MinGW's C runtime can expand wildcards in arguments as a Unix shell
    # would (_dowildcard); "*+" would then become the names below.
    (tmp_path / "x+").write_text("")
    (tmp_path / "yz+").write_text("")
    r = run(cli, "password", "--chars", "*+", "-l", "200", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == b""
    assert set(r.stdout.strip()) == set(b"*+")


def test_closed_pipe_ends_silently_with_sigpipe_status(cli):
    # 141 = 128 + SIGPIPE, as a POSIX shell reports it.
    p = subprocess.Popen([cli, "bytes", "-n", "1G"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    assert len(p.stdout.read(10)) == 10
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=60) == 141 and err == b""


def read_console(cli, *args):
    """Runs the CLI with its standard error on a pseudo-terminal, which
    Wine turns into a console, and returns what the console showed: Wine's
    console writes each character with cursor escapes of its own, read
    meanwhile (a full terminal would stop it) and removed here."""
    leader, follower = pty.openpty()
    shown = []

    def drain():
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        r = subprocess.run([cli, *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=follower, timeout=300)
        time.sleep(0.5)  # the console's last redraw
    finally:
        os.close(follower)
        reader.join(5)
        os.close(leader)
    text = b"".join(shown).decode("utf-8", "replace")
    text = re.sub(r"\x1b\[K\x1b\[(\d*)C", lambda m: " " * int(m.group(1) or 1), text)
    return r.returncode, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_progress_bar_on_a_console_only(cli, tmp_path):
    # Long enough to pass the bar's half-second delay with the AVX2 kernel.
    status, shown = read_console(cli, "bytes", "-n", "8G", "-o", "NUL")
    assert status == 0
    assert "ETA" in shown and "100%" in shown and "8.0 GiB / 8.0 GiB" in shown, shown[-400:]
    # Not on a file, nor on NUL, a character device that is no console.
    log = tmp_path / "log"
    with open(log, "wb") as f:
        r = subprocess.run([cli, "bytes", "-n", "8G", "-o", "NUL"], stderr=f)
    assert r.returncode == 0 and log.read_bytes() == b""
