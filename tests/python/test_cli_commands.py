# SPDX-License-Identifier: MIT OR Apache-2.0
"""The everyday commands (issue 14): int in decimal and ranges, bytes as
text, token, password, shuffle, pick, uuid --upper; their output formats,
options and error paths (2 usage, 1 runtime, one line on stderr)."""
import base64
import math
import os
import re
import subprocess

import pytest

from conftest import WINDOWS_CLI
from test_cli import assert_error, run, run_with_faults, fault_shim  # noqa: F401

P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def lines(result):
    assert result.returncode == 0 and result.stderr == b"", result
    text = result.stdout.decode()
    assert text == "" or text.endswith("\n")
    return text.splitlines()


# ---- int --------------------------------------------------------------------

# Recorded from the CLI before decimal output (commit fdf8679), where
# 'int --below HEX --count 3 --seed 0102 --method M' printed these in hex:
# the samplers' output must not change with the parsing and printing.
BEFORE_DECIMAL = {
    "rng-bc-1": ["a767dfbbec7f0d632957e7d3054483b39b01e125b90154323465fa88f24dc313",
                 "8b67b997835e1bedbe831b9f935ab61d4ade3f41b17fc8490b5195c3aae919cc",
                 "dc05110340acc7178bc9420f19275527e2834d31115d5605b04babcda01c6872"],
    "rng-bc-8": ["a70b5195c3aae919cc676cca2496c6e6c9dc05110340acc7178bc9420f192755",
                 "2776f108e2cd7a2a003742e84ba7eee7b713335392531faa6d76e2fcdc58c568",
                 "bee79de7d38586a929c5ee0c6faa295d266536d8699352b9473fc6b2a33627dc"],
    "simple-discard": ["a767dfbbec7f0d632957e7d3054483b39b01e125b90154323465fa88f24dc313",
                       "b468b2835a1b27bb8b67b997835e1bedbe831b9f935ab61d4ade3f41b17fc849",
                       "b5195c3aae919cc676cca2496c6e6c9dc05110340acc7178bc9420f19275527"],
    "simple-modular": ["384003e846b4ae19ca331439a7f81b9fe8b275653953322a5d0f111c3c6baf03",
                       "9ce27b4decd6363f44341fb18220cccf91c085334a493ca21fd029154f4bde1d",
                       "e9de2149b3aa116e29d15ff2b86a7a06e3b249063f230cc784f93aefefc6306b"],
}


@pytest.mark.parametrize("method", sorted(BEFORE_DECIMAL))
def test_int_draws_what_it_drew_before_decimal_output(cli, method):
    expected = [int(x, 16) for x in BEFORE_DECIMAL[method]]
    common = ["-n", "3", "--seed", "0102", "--method", method]
    hex_bound = lines(run(cli, "int", "--below", f"0x{P256_N:X}", "--hex", *common))
    assert [int(x, 16) for x in hex_bound] == expected
    assert hex_bound == BEFORE_DECIMAL[method]
    assert [int(x) for x in lines(run(cli, "int", "--below", str(P256_N), *common))] == expected
    # The same range as LO HI, and with leading zeros.
    assert [int(x) for x in lines(run(cli, "int", "0", str(P256_N - 1), *common))] == expected
    assert [int(x) for x in lines(run(cli, "int", "--below", "0x000" + f"{P256_N:x}",
                                      *common))] == expected


def test_int_decimal_by_default(cli):
    out = lines(run(cli, "int", "--below", "100", "-n", "500"))
    assert len(out) == 500
    assert all(re.fullmatch(r"0|[1-9][0-9]?", x) for x in out)
    assert len(set(out)) > 50
    assert lines(run(cli, "int", "--below", "1", "--count", "3")) == ["0"] * 3
    assert lines(run(cli, "int", "7", "7", "-n", "2")) == ["7", "7"]
    assert lines(run(cli, "int", "1", "6", "-n", "0")) == []


def test_int_range_is_lo_plus_a_draw_below_the_width(cli):
    below = [int(x) for x in lines(run(cli, "int", "--below", "11", "-n", "200", "--seed", "ab"))]
    shifted = [int(x) for x in lines(run(cli, "int", "-5", "5", "-n", "200", "--seed", "ab"))]
    assert shifted == [x - 5 for x in below]
    assert set(shifted) == set(range(-5, 6))


def test_int_negative_bounds_and_operands_anywhere(cli):
    out = [int(x) for x in lines(run(cli, "int", "-n", "300", "-10", "-8"))]
    assert set(out) == {-10, -9, -8}
    out = lines(run(cli, "int", "-3", "-n", "50", "-1", "--hex"))
    assert set(out) <= {"-3", "-2", "-1"}
    # After "--" everything is an operand; "--count=N" and "-nN" take their value inline.
    assert len(lines(run(cli, "int", "--count=4", "--", "-2", "2"))) == 4
    assert len(lines(run(cli, "int", "-n4", "-2", "2"))) == 4
    assert len(lines(run(cli, "int", "--cou", "4", "-2", "2"))) == 4  # an abbreviation


def test_int_big_decimal_and_negative_text(cli):
    lo, hi = -(10 ** 60), -(10 ** 60) + 10 ** 40
    out = [int(x) for x in lines(run(cli, "int", str(lo), str(hi), "-n", "200"))]
    assert all(lo <= x <= hi for x in out) and len(set(out)) == 200
    hexed = lines(run(cli, "int", str(lo), str(hi), "-n", "5", "--hex", "--seed", "01"))
    dec = lines(run(cli, "int", str(lo), str(hi), "-n", "5", "--seed", "01"))
    assert [int(x, 16) for x in hexed] == [int(x) for x in dec]
    assert all(x.startswith("-") and not x.startswith("-0") for x in hexed)
    # Around zero: "-0" is never printed.
    out = lines(run(cli, "int", "-1", "1", "-n", "300"))
    assert set(out) == {"-1", "0", "1"}


def test_int_decimal_conversion_of_every_size(cli):
    # Bounds 2^k and 10^k: the decimal text equals Python's for the value the
    # hex output names, across byte and 10^9-group boundaries.
    for k in (1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 255, 256, 1000):
        for bound in (2 ** k, 10 ** (k % 200 + 1)):
            hexed = lines(run(cli, "int", "--below", str(bound), "-n", "20", "--seed", "07",
                              "--hex"))
            dec = lines(run(cli, "int", "--below", hex(bound), "-n", "20", "--seed", "07"))
            assert dec == [str(int(x, 16)) for x in hexed]
            assert all(0 <= int(x) < bound for x in dec)
    top = lines(run(cli, "int", str(10 ** 30 - 1), str(10 ** 30 - 1)))
    assert top == ["9" * 30]


@pytest.mark.parametrize("args,fragment", [
    (["int", "5"], "missing HI"),
    (["int", "1", "2", "3"], "unexpected argument '3'"),
    (["int", "6", "1"], "LO is greater than HI"),
    (["int", "-1", "-2"], "LO is greater than HI"),
    (["int", "1", "6", "--below", "5"], "not both"),
    (["int", "1", "x"], "invalid number 'x'"),
    (["int", "0x", "5"], "invalid number '0x'"),
    (["int", "-", "5"], "invalid number '-'"),
    (["int", "1.5", "5"], "invalid number '1.5'"),
    (["int", "--", "1", "+5"], "invalid number '+5'"),
    (["int", "0xfg", "5"], "invalid number '0xfg'"),
    (["int", "1", "6", "--hex=1"], "takes no value"),
    (["int", "1", "6", "-x"], "unknown option '-x'"),
    (["int", "1", "6", "--seed"], "needs a value"),
])
def test_int_usage_errors(cli, args, fragment):
    assert_error(run(cli, *args), 2, fragment)


# ---- bytes --hex / --base64 -----------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3, 47, 48, 49, 96, 1000, 786432, 786433, 2000000])
def test_bytes_as_text_equals_the_raw_stream(cli, n):
    raw = run(cli, "bytes", "-n", str(n), "--seed", "00").stdout
    hexed = run(cli, "bytes", "-n", str(n), "--seed", "00", "--hex")
    assert hexed.returncode == 0 and hexed.stderr == b""
    assert hexed.stdout == raw.hex().encode() + b"\n"
    b64 = run(cli, "bytes", "-n", str(n), "--seed", "00", "--base64").stdout
    encoded = base64.b64encode(raw)
    expected = b"".join(encoded[i:i + 64] + b"\n" for i in range(0, len(encoded), 64))
    assert b64 == expected  # openssl rand -base64's layout
    assert base64.b64decode(b64.replace(b"\n", b"")) == raw


def test_bytes_as_text_to_a_file(cli, tmp_path, assert_owner_only):
    path = tmp_path / "key.hex"
    r = run(cli, "bytes", "-n", "32", "--hex", "-o", str(path), "--seed", "01")
    assert r.returncode == 0 and r.stdout == b"" and r.stderr == b""
    assert path.read_bytes() == run(cli, "bytes", "-n", "32", "--seed", "01", "--hex").stdout
    assert_owner_only(path)
    unseeded = run(cli, "bytes", "-n", "48", "--base64").stdout
    assert len(unseeded) == 65 and len(base64.b64decode(unseeded)) == 48


def test_bytes_hex_and_base64_exclude_each_other(cli):
    assert_error(run(cli, "bytes", "-n", "1", "--hex", "--base64"), 2, "exclude each other")
    assert run(cli, "bytes", "-n", "1", "--hex", "--hex").returncode == 0


# ---- bytes SIZE, the count as an operand (openssl rand -hex 32) -----------------------

@pytest.mark.parametrize("size,n", [("0", 0), ("1", 1), ("32", 32), ("1K", 1024), ("3k", 3072)])
def test_bytes_size_as_an_operand_is_the_size_option(cli, size, n):
    with_option = run(cli, "bytes", "-n", size, "--seed", "00")
    assert with_option.returncode == 0 and len(with_option.stdout) == n
    for args in ([size, "--seed", "00"], ["--seed", "00", size]):
        r = run(cli, "bytes", *args)
        assert r.returncode == 0 and r.stderr == b"", r
        assert r.stdout == with_option.stdout


def test_bytes_size_operand_anywhere_as_openssl_users_write_it(cli):
    expected = run(cli, "bytes", "-n", "32", "--seed", "01", "--hex").stdout
    assert len(expected) == 65
    for args in (["32", "--hex"], ["--hex", "32"], ["--hex", "--seed", "01", "--", "32"],
                 ["--size=32", "--hex"]):
        r = run(cli, "bytes", *args, *([] if "--seed" in args else ["--seed", "01"]))
        assert r.returncode == 0 and r.stdout == expected, (args, r)
    b64 = run(cli, "bytes", "--base64", "48")
    assert b64.returncode == 0 and len(base64.b64decode(b64.stdout)) == 48


@pytest.mark.parametrize("args,fragment", [
    (["bytes"], "missing SIZE"),
    (["bytes", "--hex"], "missing SIZE"),
    (["bytes", "12X"], "invalid size '12X'"),
    (["bytes", "-5"], "invalid size '-5'"),
    (["bytes", "-1K", "--hex"], "invalid size '-1K'"),
    (["bytes", "1.5K"], "invalid size '1.5K'"),
    (["bytes", ""], "invalid size ''"),
    (["bytes", "32", "64"], "unexpected argument '64'"),
    (["bytes", "-n", "32", "64"], "unexpected argument '64'"),
    (["bytes", "32", "-n", "32"], "unexpected argument '32'"),
    (["bytes", "-hex", "32"], "did you mean '--hex'?"),
    (["bytes", "32", "-out", "f"], "did you mean '--output'?"),
])
def test_bytes_size_operand_errors(cli, tmp_path, args, fragment):
    assert_error(run(cli, *args, cwd=tmp_path), 2, fragment)
    assert list(tmp_path.iterdir()) == []


# ---- token ----------------------------------------------------------------------

def test_token_default_is_32_bytes_of_url_safe_base64(cli):
    out = lines(run(cli, "token", "-n", "200"))
    assert len(out) == 200 and len(set(out)) == 200
    for token in out:
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)
        assert len(base64.urlsafe_b64decode(token + "=")) == 32
    assert any("-" in t or "_" in t for t in out)  # the URL-safe alphabet is in use


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 16, 33])
def test_token_formats_and_sizes(cli, size):
    (b64,) = lines(run(cli, "token", "--bytes", str(size)))
    assert len(b64) == math.ceil(size * 4 / 3) and "=" not in b64
    assert len(base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4))) == size
    (hexed,) = lines(run(cli, "token", "-b", str(size), "--hex"))
    assert re.fullmatch(r"[0-9a-f]+", hexed) and len(bytes.fromhex(hexed)) == size
    (b32,) = lines(run(cli, "token", "--bytes", str(size), "--base32"))
    assert re.fullmatch(r"[A-Z2-7]+", b32) and len(b32) == math.ceil(size * 8 / 5)
    assert len(base64.b32decode(b32 + "=" * (-len(b32) % 8))) == size


@pytest.mark.parametrize("args,fragment", [
    (["token", "--bytes", "0"], "invalid size '0'"),
    (["token", "--bytes", "1048577"], "invalid size"),
    (["token", "--bytes", "1K"], "invalid size '1K'"),
    (["token", "-n", "x"], "invalid count 'x'"),
    (["token", "--hex", "--base32"], "exclude each other"),
    (["token", "extra"], "unexpected argument 'extra'"),
    (["token", "--base64"], "unknown option '--base64'"),
])
def test_token_usage_errors(cli, args, fragment):
    assert_error(run(cli, *args), 2, fragment)


# ---- password ---------------------------------------------------------------------

CHARSETS = {
    "alnum": r"[A-Za-z0-9]",
    "alnum-symbols": r"[!-~]",
    "lower": r"[a-z]",
    "digits": r"[0-9]",
    "hex": r"[0-9a-f]",
}
SIZES = {"alnum": 62, "alnum-symbols": 94, "lower": 26, "digits": 10, "hex": 16}


def test_password_default(cli):
    out = lines(run(cli, "password", "-n", "50"))
    assert len(out) == 50 and len(set(out)) == 50
    assert all(re.fullmatch(r"[A-Za-z0-9]{20}", p) for p in out)


@pytest.mark.parametrize("name", sorted(CHARSETS))
def test_password_charsets(cli, name):
    out = lines(run(cli, "password", "--charset", name, "-l", "50", "-n", "40"))
    assert all(re.fullmatch(CHARSETS[name] + "{50}", p) for p in out)
    assert len(set("".join(out))) == SIZES[name]  # 2000 draws reach every character
    r = run(cli, "password", "-c", name, "--length", "16", "--verbose")
    bits = 16 * math.log2(SIZES[name])
    assert r.stderr.decode() == (f"shakerand: password: {math.floor(bits * 10) / 10:.1f} bits "
                                 f"of entropy each (16 characters from a set of "
                                 f"{SIZES[name]})\n")


def test_password_custom_characters(cli):
    r = run(cli, "password", "--chars", "abcabc1", "-l", "300", "-v")
    (pw,) = lines(subprocess.CompletedProcess(r.args, 0, r.stdout, b""))
    assert set(pw) == set("abc1")
    assert b"(300 characters from a set of 4)" in r.stderr and b" 600.0 bits" in r.stderr
    (pw,) = lines(run(cli, "password", "--chars", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", "-l", "40"))
    assert len(pw) == 40 and not any(c.isalnum() for c in pw)


@pytest.fixture
def wordlist(tmp_path):
    path = tmp_path / "words.txt"
    # Repeats, an empty line, CRLF line ends and no final newline.
    path.write_bytes(b"apple\nbanana\r\ncherry\n\napple\ndate\nelder berry\nfig")
    return path


def test_password_words(cli, wordlist):
    words = {"apple", "banana", "cherry", "date", "elder berry", "fig"}
    r = run(cli, "password", "--words", "5", "--wordlist", str(wordlist), "-n", "300",
            "--verbose")
    out = r.stdout.decode().splitlines()
    assert len(out) == 300
    seen = set()
    for pw in out:
        parts = pw.split("-")
        assert len(parts) == 5 and set(parts) <= words
        seen.update(parts)
    assert seen == words
    assert r.stderr.decode() == ("shakerand: password: 12.9 bits of entropy each "
                                 "(5 words from a list of 6)\n")  # 5 log2 6 = 12.92
    from_stdin = run(cli, "password", "-w", "3", "--wordlist", "-",
                     input=wordlist.read_bytes())
    (pw,) = lines(from_stdin)
    assert set(pw.split("-")) <= words


@pytest.mark.parametrize("args,fragment", [
    (["password", "--length", "0"], "invalid length '0'"),
    (["password", "--length", "ten"], "invalid length"),
    (["password", "-l", "1048577"], "invalid length"),
    (["password", "--charset", "greek"], "unknown charset 'greek'"),
    (["password", "--charset", "lower", "--chars", "ab"], "exclude each other"),
    (["password", "--chars", "a"], "at least 2 different"),
    (["password", "--chars", "aaa"], "at least 2 different"),
    (["password", "--chars", ""], "at least 2 different"),
    (["password", "--chars", "ab c"], "printable ASCII"),
    (["password", "--chars", "abé"], "printable ASCII"),
    (["password", "--words", "4"], "needs --wordlist"),
    (["password", "--wordlist", "/dev/null"], "needs --words"),
    (["password", "--words", "0", "--wordlist", "/dev/null"], "invalid number of words"),
    (["password", "--words", "4", "--wordlist", "/dev/null", "-l", "5"],
     "--length and --words exclude each other"),
    (["password", "--words", "4", "--wordlist", "/dev/null", "-c", "hex"],
     "--charset and --words exclude each other"),
    (["password", "-n", "-1"], "invalid count"),
    (["password", "--seed", "xyz0"], "not hexadecimal"),
    (["password", "extra"], "unexpected argument 'extra'"),
])
def test_password_usage_errors(cli, args, fragment):
    assert_error(run(cli, *args), 2, fragment)


# Reading a directory: POSIX opens it and read fails; Windows refuses to open it.
DIRECTORY_ERROR = "cannot open" if WINDOWS_CLI else "read error"


def test_password_word_list_runtime_errors(cli, tmp_path):
    assert_error(run(cli, "password", "-w", "4", "--wordlist", str(tmp_path / "absent")), 1,
                 "cannot open")
    short = tmp_path / "short"
    short.write_text("same\nsame\n\n")
    assert_error(run(cli, "password", "-w", "4", "--wordlist", str(short)), 1,
                 "fewer than 2 different words")
    assert_error(run(cli, "password", "-w", "4", "--wordlist", str(tmp_path)), 1,
                 DIRECTORY_ERROR)


def test_password_seed_is_reproducible(cli):
    a = run(cli, "password", "-n", "5", "--seed", "0a").stdout
    assert a == run(cli, "password", "-n", "5", "--seed", "0a").stdout
    assert a != run(cli, "password", "-n", "5", "--seed", "0b").stdout


# ---- shuffle and pick ---------------------------------------------------------------

def test_shuffle_is_a_permutation_of_the_lines(cli, tmp_path):
    text = "".join(f"line {i}\n" for i in range(1000))
    out = lines(run(cli, "shuffle", input=text.encode()))
    assert sorted(out) == sorted(text.splitlines()) and out != text.splitlines()
    path = tmp_path / "in.txt"
    path.write_text(text)
    assert sorted(lines(run(cli, "shuffle", str(path)))) == sorted(text.splitlines())
    assert sorted(lines(run(cli, "shuffle", "-", input=text.encode()))) == sorted(
        text.splitlines())


def test_shuffle_like_shuf_for_odd_input(cli):
    # A last line without a newline gets one; empty lines are lines; no input, no output.
    assert sorted(run(cli, "shuffle", input=b"a\nb\nc").stdout.split(b"\n")) == [
        b"", b"a", b"b", b"c"]
    assert sorted(lines(run(cli, "shuffle", input=b"\n\nx\n"))) == ["", "", "x"]
    assert run(cli, "shuffle", input=b"").stdout == b""
    assert run(cli, "shuffle", input=b"only").stdout == b"only\n"
    assert run(cli, "shuffle", input=b"\0a\nb\xff\n").returncode == 0


def test_shuffle_and_pick_seed_and_output_file(cli, tmp_path, assert_owner_only):
    text = "".join(f"{i}\n" for i in range(100)).encode()
    a = run(cli, "shuffle", "--seed", "01", input=text).stdout
    assert a == run(cli, "shuffle", "-s", "01", input=text).stdout
    assert a != run(cli, "shuffle", "--seed", "02", input=text).stdout
    path = tmp_path / "list"
    path.write_bytes(text)
    path.chmod(0o644)
    # In place, as shuf -o allows: all input is read before FILE is opened.
    r = run(cli, "shuffle", "--seed", "01", str(path), "-o", str(path))
    assert r.returncode == 0 and r.stdout == b"" and r.stderr == b""
    assert path.read_bytes() == a
    # Another FILE than the input is made owner-only, as for bytes -o.
    other = tmp_path / "other"
    other.write_bytes(b"old")
    other.chmod(0o644)
    assert run(cli, "shuffle", str(path), "-o", str(other)).returncode == 0
    assert_owner_only(other)
    picked = run(cli, "pick", "-n", "10", "--seed", "01", input=text).stdout
    assert picked == b"".join(a.splitlines(keepends=True)[:10])  # pick is a shortened shuffle
    r = run(cli, "pick", "-n", "3", "-o", str(tmp_path / "out"), input=text)
    assert r.returncode == 0 and len((tmp_path / "out").read_bytes().splitlines()) == 3


def test_pick(cli):
    text = "".join(f"{i}\n" for i in range(50)).encode()
    out = lines(run(cli, "pick", input=text))
    assert len(out) == 1 and 0 <= int(out[0]) < 50
    out = lines(run(cli, "pick", "-n", "20", input=text))
    assert len(out) == 20 and len(set(out)) == 20
    out = lines(run(cli, "pick", "--count", "500", input=text))  # more than there are
    assert sorted(out, key=int) == [str(i) for i in range(50)]
    assert run(cli, "pick", "-n", "0", input=text).stdout == b""
    assert run(cli, "pick", "-n", "3", input=b"").stdout == b""
    # Equal lines are different lines.
    assert lines(run(cli, "pick", "-n", "2", input=b"x\nx\n")) == ["x", "x"]


@pytest.mark.parametrize("args,fragment", [
    (["shuffle", "a", "b"], "unexpected argument 'b'"),
    (["shuffle", "--count", "3"], "unknown option '--count'"),
    (["shuffle", "--seed", "0"], "odd number of hex digits"),
    (["shuffle", "-o"], "needs a value"),
    (["pick", "-n", "x"], "invalid count 'x'"),
    (["pick", "-n", "-1"], "invalid count"),
    (["pick", "--bogus"], "unknown option '--bogus'"),
    (["pick", "a", "b"], "unexpected argument 'b'"),
])
def test_shuffle_and_pick_usage_errors(cli, args, fragment):
    assert_error(run(cli, *args, input=b"x\n"), 2, fragment)


@pytest.mark.parametrize("command", ["shuffle", "pick"])
def test_shuffle_and_pick_runtime_errors(cli, command, tmp_path):
    assert_error(run(cli, command, str(tmp_path / "absent")), 1, "cannot open")
    assert_error(run(cli, command, str(tmp_path)), 1, DIRECTORY_ERROR)
    if os.path.exists("/dev/full"):
        assert_error(run(cli, command, "-o", "/dev/full", input=b"a\nb\n"), 1,
                     "write error on /dev/full")
    if WINDOWS_CLI:
        return  # Wine 8 shows a Unix symbolic link as its target
    target = tmp_path / "target"
    target.write_text("keep")
    (tmp_path / "link").symlink_to(target)
    assert_error(run(cli, command, "-o", str(tmp_path / "link"), input=b"a\n"), 1,
                 "symbolic link")
    assert target.read_text() == "keep"


def test_shuffle_reading_nothing_writes_nothing(cli, tmp_path):
    out = tmp_path / "out"
    out.write_text("keep")
    assert_error(run(cli, "shuffle", str(tmp_path / "absent"), "-o", str(out)), 1,
                 "cannot open")
    assert out.read_text() == "keep"


# ---- shuffle and pick with shuf's options ----------------------------------------------

def test_shuffle_echo_takes_the_arguments_as_lines(cli):
    out = lines(run(cli, "shuffle", "-e", "a", "b c", "-", "--", "-x"))
    assert sorted(out) == sorted(["a", "b c", "-", "-x"])
    seeded = run(cli, "shuffle", "--seed", "03", "-e", "a", "b", "c", "d").stdout
    assert seeded == run(cli, "shuffle", "--seed", "03", input=b"a\nb\nc\nd\n").stdout
    assert run(cli, "shuffle", "-e").stdout == b""  # no arguments, no lines
    (one,) = lines(run(cli, "pick", "--echo", "heads", "tails"))
    assert one in ("heads", "tails")


SEQ = "".join(f"{i}\n" for i in range(1, 100001)).encode()


@pytest.mark.parametrize("args,count", [(["-i", "1-100"], None), (["--input-range=1-1000"], "250"),
                                        (["-i", "1-100000"], "10"), (["-i", "1-100000"], "20000")])
def test_shuffle_input_range_is_the_shuffle_of_its_numbers(cli, args, count):
    # The same draws as for the lines of seq: a dense table of positions for
    # a large share of the range, a sparse one for a few of a wide range.
    hi = int(args[-1].split("-")[-1])
    head = ["-n", count] if count else []
    r = run(cli, "shuffle", "--seed", "05", *args, *head)
    text = SEQ[:SEQ.index(b"\n%d\n" % hi) + len(b"\n%d\n" % hi)] if hi > 1 else b"1\n"
    assert r.returncode == 0 and r.stderr == b""
    assert r.stdout == run(cli, "shuffle", "--seed", "05", *head, input=text).stdout


def test_shuffle_input_range_edges(cli):
    assert lines(run(cli, "shuffle", "-i", "7-7")) == ["7"]
    assert run(cli, "shuffle", "-i", "5-4").stdout == b""  # empty, as shuf allows
    top = 2 ** 64 - 1
    out = [int(x) for x in lines(run(cli, "shuffle", "-i", f"0-{top - 1}", "-n", "5"))]
    assert len(set(out)) == 5 and all(0 <= x < top for x in out)
    out = [int(x) for x in lines(run(cli, "shuffle", "-i", f"{top - 2}-{top}"))]
    assert sorted(out) == [top - 2, top - 1, top]
    assert sorted(int(x) for x in lines(run(cli, "pick", "-i", "10-12", "-n", "9"))) == [10, 11, 12]


def test_shuffle_head_count_is_pick(cli):
    text = "".join(f"{i}\n" for i in range(100)).encode()
    a = run(cli, "shuffle", "-n", "7", "--seed", "09", input=text).stdout
    assert len(a.splitlines()) == 7 and len(set(a.splitlines())) == 7
    assert a == run(cli, "pick", "-n", "7", "--seed", "09", input=text).stdout
    assert a == run(cli, "shuffle", "--head-count=7", "--seed", "09", input=text).stdout
    assert run(cli, "shuffle", "-n", "0", input=text).stdout == b""
    assert len(lines(run(cli, "shuffle", "-n", "500", input=text))) == 100


def test_repeat_draws_with_repetition(cli):
    out = lines(run(cli, "shuffle", "-r", "-n", "1000", "-e", "a", "b"))
    assert len(out) == 1000 and set(out) == {"a", "b"}
    assert lines(run(cli, "pick", "-r", "-n", "5", "-e", "x")) == ["x"] * 5
    assert lines(run(cli, "pick", "--repeat", input=b"only\n")) == ["only"]
    out = [int(x) for x in lines(run(cli, "shuffle", "-r", "-n", "300", "-i", "1-3"))]
    assert len(out) == 300 and set(out) == {1, 2, 3}
    seeded = run(cli, "shuffle", "-r", "-n", "50", "-s", "0a", "-e", "p", "q", "r").stdout
    assert seeded == run(cli, "shuffle", "-r", "-n", "50", "-s", "0a", input=b"p\nq\nr\n").stdout
    assert run(cli, "shuffle", "-r", "-n", "0", "-e").stdout == b""


def test_repeat_without_a_count_runs_until_the_reader_goes(cli):
    p = subprocess.Popen([cli, "shuffle", "-r", "-e", "heads", "tails"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    head = p.stdout.read(60000)
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=30)
    assert err == b""
    assert set(head.split(b"\n")[:-1]) == {b"heads", b"tails"}


def test_zero_terminated_lines(cli):
    r = run(cli, "shuffle", "-z", input=b"a\0b\nc\0d")
    assert r.returncode == 0 and r.stdout.endswith(b"\0")
    assert sorted(r.stdout.split(b"\0")[:-1]) == [b"a", b"b\nc", b"d"]
    assert sorted(run(cli, "shuffle", "-z", "-e", "x", "y").stdout.split(b"\0")) == [b"", b"x", b"y"]
    assert run(cli, "pick", "--zero-terminated", "-i", "3-3").stdout == b"3\0"


@pytest.mark.parametrize("command", ["shuffle", "pick"])
def test_output_onto_the_input_keeps_its_mode(cli, tmp_path, command):
    # As shuf -o f f does: the file gets its own lines back, and its mode
    # stays, here 0644 (any other FILE is made 0600, as for bytes -o).
    if WINDOWS_CLI:
        pytest.skip("POSIX only: file modes")
    path = tmp_path / "list"
    text = "".join(f"{i}\n" for i in range(50)).encode()
    path.write_bytes(text)
    path.chmod(0o644)
    r = run(cli, command, "-n", "50", str(path), "-o", str(path))
    assert r.returncode == 0 and r.stdout == b"" and r.stderr == b""
    assert sorted(path.read_bytes().splitlines()) == sorted(text.splitlines())
    assert os.stat(path).st_mode & 0o777 == 0o644
    # The input on standard input, from FILE itself, likewise.
    with open(path, "rb") as f:
        r = subprocess.run([cli, command, "-n", "50", "-o", str(path)], stdin=f, capture_output=True)
    assert r.returncode == 0 and r.stderr == b""
    assert sorted(path.read_bytes().splitlines()) == sorted(text.splitlines())
    assert os.stat(path).st_mode & 0o777 == 0o644
    # A link to it at FILE is still refused, and a second name too.
    (tmp_path / "link").symlink_to(path)
    assert_error(run(cli, command, str(path), "-o", str(tmp_path / "link")), 1, "symbolic link")
    os.link(path, tmp_path / "second")
    assert_error(run(cli, command, str(path), "-o", str(path)), 1, "hard links")


@pytest.mark.parametrize("args,fragment", [
    (["shuffle", "-e", "-i", "1-3"], "--echo and --input-range exclude each other"),
    (["shuffle", "-i", "1-3", "extra"], "unexpected argument 'extra'"),
    (["shuffle", "-i", "x"], "invalid input range 'x'"),
    (["shuffle", "-i", "3"], "invalid input range '3'"),
    (["shuffle", "-i", "1-"], "invalid input range '1-'"),
    (["shuffle", "-i", "-1-5"], "invalid input range '-1-5'"),
    (["shuffle", "-i", "1-2-3"], "invalid input range '1-2-3'"),
    (["shuffle", "-i", "6-4"], "invalid input range '6-4'"),
    (["shuffle", "-i", "0-18446744073709551615"], "invalid input range"),
    (["shuffle", "-i", "0-18446744073709551616"], "invalid input range"),
    (["shuffle", "-i"], "needs a value"),
    (["shuffle", "-n", "x"], "invalid count 'x'"),
    (["shuffle", "-n", "-1"], "invalid count '-1'"),
    (["shuffle", "-r", "-e"], "no lines to repeat"),
    (["shuffle", "-r", "-i", "5-4"], "no lines to repeat"),
    (["pick", "-r", "-e"], "no lines to repeat"),
    (["shuffle", "-e", "a", "-rz", "-x"], "unknown option '-x'"),
    (["shuffle", "-zh"], "'-h' inside '-zh'"),
])
def test_shuf_option_usage_errors(cli, tmp_path, args, fragment):
    assert_error(run(cli, *args, input=b"x\n", cwd=tmp_path), 2, fragment)
    assert list(tmp_path.iterdir()) == []


def test_repeat_of_no_input_is_a_runtime_error(cli):
    assert_error(run(cli, "shuffle", "-r", input=b""), 1, "no lines to repeat")
    assert run(cli, "shuffle", "-r", "-n", "0", input=b"").returncode == 0


# ---- uuid --upper ------------------------------------------------------------------

def test_uuid_upper(cli):
    out = lines(run(cli, "uuid", "--upper", "-n", "100"))
    for u in out:
        assert re.fullmatch(r"[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}",
                            u)
    v7 = lines(run(cli, "uuid", "--upper", "--v7", "-n", "100"))
    assert v7 == sorted(v7) and all(u[14] == "7" and u == u.upper() for u in v7)
    assert_error(run(cli, "uuid", "--upper", "--binary"), 2, "--upper and --binary exclude each other")


# ---- uuid with uuidgen's options: -r, -t, --sha1 ------------------------------------

UUID4 = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"


def test_uuid_random_and_time_as_uuidgen_spells_them(cli):
    import uuid as pyuuid
    for args in (["-r"], ["--random"], ["-r", "-r"], []):
        out = lines(run(cli, "uuid", *args, "-n", "50"))
        assert len(out) == 50 and all(re.fullmatch(UUID4, u) for u in out), args
    for args in (["-t"], ["--time"], ["-t", "--v7"], ["--v7"]):
        out = lines(run(cli, "uuid", *args, "-n", "200"))
        assert out == sorted(out) and len(set(out)) == 200, args
        assert all(pyuuid.UUID(u).version == 7 for u in out), args
    assert all(c in "0123456789ABCDEF-" for c in lines(run(cli, "uuid", "-tn1", "--upper"))[0])


NAMESPACES = {"@dns": "NAMESPACE_DNS", "@url": "NAMESPACE_URL", "@oid": "NAMESPACE_OID",
              "@x500": "NAMESPACE_X500"}


@pytest.mark.parametrize("namespace", sorted(NAMESPACES))
def test_uuid_sha1_is_pythons_uuid5(cli, namespace):
    # SHA-1 over the namespace and the name, for names across the lengths
    # where its padding changes (55, 56, 64 bytes with the 16 of the
    # namespace), a long one, and UTF-8. (A Windows command line holds at
    # most 32767 characters: the long name is shorter there.)
    import uuid as pyuuid
    ns = getattr(pyuuid, NAMESPACES[namespace])
    long_name = "x" * (30000 if WINDOWS_CLI else 100000)
    names = ["", "a", "example.com", "ünïcødé ☃", long_name] + ["n" * k for k in range(30, 140)]
    for name in names:
        r = run(cli, "uuid", "--sha1", "--namespace", namespace, "--name", name)
        assert r.returncode == 0 and r.stderr == b"", (name, r)
        assert r.stdout.decode() == f"{pyuuid.uuid5(ns, name)}\n", name


def test_uuid_sha1_with_a_uuid_as_namespace_upper_and_binary(cli):
    import uuid as pyuuid
    ns = pyuuid.UUID("00112233-4455-6677-8899-AABBCCDDEEFF")
    expected = pyuuid.uuid5(ns, "name")
    for given in (str(ns), str(ns).upper()):
        (u,) = lines(run(cli, "uuid", "--sha1", f"--namespace={given}", "--name", "name"))
        assert u == str(expected)
    (u,) = lines(run(cli, "uuid", "--sha1", "--namespace", str(ns), "--name", "name", "--upper"))
    assert u == str(expected).upper()
    r = run(cli, "uuid", "--sha1", "--namespace", "@url", "--name", "https://example.com/",
            "--binary")
    assert r.stdout == pyuuid.uuid5(pyuuid.NAMESPACE_URL, "https://example.com/").bytes


@pytest.mark.parametrize("args,fragment", [
    (["uuid", "-r", "-t"], "--random and --time exclude each other"),
    (["uuid", "--v7", "-r"], "--random and --v7 exclude each other"),
    (["uuid", "-rt"], "--random and --time exclude each other"),
    (["uuid", "--sha1"], "--sha1 needs --namespace and --name"),
    (["uuid", "--sha1", "--name", "x"], "--sha1 needs --namespace and --name"),
    (["uuid", "--sha1", "--namespace", "@dns"], "--sha1 needs --namespace and --name"),
    (["uuid", "--name", "x"], "--namespace and --name are for --sha1"),
    (["uuid", "--namespace", "@dns", "--name", "x"], "--namespace and --name are for --sha1"),
    (["uuid", "--sha1", "-t", "--namespace", "@dns", "--name", "x"], "exclude each other"),
    (["uuid", "--sha1", "-n", "2", "--namespace", "@dns", "--name", "x"],
     "--count and --sha1 exclude each other"),
    (["uuid", "--sha1", "--namespace", "@DNS", "--name", "x"], "invalid namespace '@DNS'"),
    (["uuid", "--sha1", "--namespace", "dns", "--name", "x"], "invalid namespace 'dns'"),
    (["uuid", "--sha1", "--namespace", "00112233-4455-6677-8899-aabbccddeef", "--name", "x"],
     "invalid namespace"),
    (["uuid", "--sha1", "--namespace", "00112233445566778899aabbccddeeff", "--name", "x"],
     "invalid namespace"),
    (["uuid", "--sha1", "--namespace", "0011223g-4455-6677-8899-aabbccddeeff", "--name", "x"],
     "invalid namespace"),
    (["uuid", "--sha1", "--namespace"], "needs a value"),
    (["uuid", "-tx"], "unknown option '-x'"),
    (["uuid", "-th"], "'-h' inside '-th'"),
])
def test_uuid_option_usage_errors(cli, args, fragment):
    assert_error(run(cli, *args), 2, fragment)


# ---- every new command ---------------------------------------------------------------

NEW_COMMANDS = [["int", "1", "6", "-n", "100000"], ["token", "-n", "100000"],
                ["password", "-n", "100000"], ["bytes", "-n", "1M", "--hex"],
                ["bytes", "-n", "1M", "--base64"], ["uuid", "--upper", "-n", "100000"],
                ["token", "--help"], ["password", "--help"], ["shuffle", "--help"],
                ["pick", "--help"]]


@pytest.mark.parametrize("args", NEW_COMMANDS + [["shuffle"], ["pick", "-n", "5"]])
def test_write_errors_are_not_success(cli, args):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "wb") as full:
        r = subprocess.run([cli, *args], stdout=full, stderr=subprocess.PIPE,
                           input=b"a\n" * 100000)
    assert r.returncode == 1, args
    assert r.stderr.count(b"\n") == 1 and b"write error" in r.stderr


@pytest.mark.parametrize("command", ["token", "password", "shuffle", "pick"])
def test_help_of_the_new_commands(cli, command):
    r = run(cli, command, "--help")
    assert r.returncode == 0 and r.stderr == b""
    assert r.stdout.startswith(b"Usage: shakerand " + command.encode())
    assert_error(run(cli, command, "--help=x"), 2, "takes no value")


@pytest.mark.parametrize("args", [["int", "1", "6"], ["token"], ["password"],
                                  ["shuffle", "/dev/null"], ["pick", "/dev/null"]])
def test_no_memory_for_the_system_generator(cli, fault_shim, args):  # noqa: F811
    r = run_with_faults(cli, fault_shim, "mmap", *args)
    assert_error(r, 1, "out of memory")
