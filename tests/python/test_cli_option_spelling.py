# SPDX-License-Identifier: MIT OR Apache-2.0
"""openssl's habit of single-dash words (openssl rand -hex 32): getopt reads
"-hex" as the cluster -h -e -x, so it used to print the usage text on
standard output with status 0, and KEY=$(shakerand bytes -n 32 -hex) stored
the help text as a key. Now only "-h" or "--help", exactly, prints help; a
single-dash word is a usage error (status 2, nothing on standard output)
naming the two-dash spelling."""
import re

import pytest

from test_cli import run

# Each command with arguments that are otherwise valid, and its input.
COMMANDS = {
    "bytes": ["-n", "32"],
    "int": ["1", "6"],
    "token": [],
    "password": [],
    "shuffle": [],
    "pick": [],
    "uuid": [],
    "sources": [],
}
INPUT = b"a\nb\nc\n"
# The long options of each command that openssl's words stand for.
HAS = {
    "hex": {"bytes", "int", "token"},
    "base64": {"bytes"},
    "output": {"bytes", "shuffle", "pick"},
}


def assert_usage_error(result, *fragments):
    assert result.stdout == b"", result.stdout[:200]
    assert result.returncode == 2, result
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("shakerand: "), lines
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def expected(command, word, option):
    """What the message says for "-word": the option it meant if the command
    has it, else that "-word" is unknown, pointing at the command's help."""
    if command in HAS.get(option, ()):
        return [f"unknown option '-{word}'; did you mean '--{option}'?"]
    return [f"unknown option '-{word}'", f"'shakerand {command} --help'"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("words,option", [
    (["-hex"], "hex"),
    (["-base64"], "base64"),
    (["-out", "x"], "output"),
])
def test_openssl_single_dash_words_are_usage_errors(cli, tmp_path, command, words, option):
    for args in ([*COMMANDS[command], *words], [*words, *COMMANDS[command]]):
        r = run(cli, command, *args, input=INPUT, cwd=tmp_path)
        assert_usage_error(r, *expected(command, words[0][1:], option))
    assert list(tmp_path.iterdir()) == []  # -out did not write to a file "ut"


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("word", ["-help", "-hel", "-he"])
def test_single_dash_help_is_a_usage_error(cli, command, word):
    r = run(cli, command, *COMMANDS[command], word, input=INPUT)
    assert_usage_error(r, f"unknown option '{word}'; did you mean ", "'--help'")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("cluster", ["-hx", "-xh", "-hh", "-hn1"])
def test_h_inside_a_cluster_never_prints_help(cli, command, cluster):
    r = run(cli, command, *COMMANDS[command], cluster, input=INPUT)
    assert_usage_error(r, "'-h' or '--help'" if cluster != "-xh" else "unknown option '-x'")


@pytest.mark.parametrize("command,cluster", [("sources", "-jh"), ("password", "-vh"),
                                             ("password", "-vhn2"), ("sources", "-jhj")])
def test_h_after_a_valid_flag_in_a_cluster_never_prints_help(cli, command, cluster):
    r = run(cli, command, cluster)
    assert_usage_error(r, f"'-h' inside '{cluster}'", "'-h' or '--help' on its own")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("abbreviation", ["--hel", "--he", "--h"])
def test_an_abbreviation_of_help_never_prints_help(cli, command, abbreviation):
    r = run(cli, command, *COMMANDS[command], abbreviation, input=INPUT)
    assert_usage_error(r, f"unknown option '{abbreviation}'; did you mean ", "'--help'")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_long_option_with_one_dash_names_the_two_dash_spelling(cli, tmp_path, command):
    for option in help_long_options(cli, command):
        # In tmp_path: getopt read "-output" as -o with the FILE "utput".
        r = run(cli, command, *COMMANDS[command], f"-{option}", input=INPUT, cwd=tmp_path)
        assert_usage_error(r, f"unknown option '-{option}'; did you mean '--{option}'?")
    assert list(tmp_path.iterdir()) == []


def help_long_options(cli, command):
    text = run(cli, command, "--help").stdout.decode()
    return re.findall(r"^\s+(?:-\w, )?--([\w-]+)", text, re.M)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_h_or_help_alone_prints_help(cli, command, flag):
    for args in ([flag], [*COMMANDS[command], flag], [flag, *COMMANDS[command]]):
        r = run(cli, command, *args)
        assert r.returncode == 0 and r.stderr == b"", r
        assert r.stdout.startswith(f"Usage: shakerand {command}".encode())


@pytest.mark.parametrize("word,option", [("-help", "help"), ("-version", "version"),
                                         ("-hex", None)])
def test_single_dash_words_before_a_command(cli, word, option):
    r = run(cli, word)
    if option is None:
        assert_usage_error(r, f"unknown option '{word}'", "'shakerand --help'")
    else:
        assert_usage_error(r, f"unknown option '{word}'; did you mean '--{option}'?")


def test_values_that_look_like_options_are_still_values(cli, tmp_path):
    # --chars takes the set literally: "-help" is five characters, not help.
    r = run(cli, "password", "--chars", "-help", "-l", "40", "--seed", "01")
    assert r.returncode == 0 and r.stderr == b""
    assert set(r.stdout.decode().strip()) <= set("-help")
    r = run(cli, "password", "--chars=-hex", "-l", "40")
    assert r.returncode == 0 and set(r.stdout.decode().strip()) <= set("-hex")
    # -o takes the next argument as its FILE, whatever it looks like.
    r = run(cli, "bytes", "-n", "4", "-o", "-hex", "--hex", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == b"" and r.stderr == b""
    assert len((tmp_path / "-hex").read_bytes()) == 9
    # A single letter with its value attached is still read as getopt reads it.
    assert len(run(cli, "bytes", "-n32", "--hex").stdout) == 65
    assert len(run(cli, "token", "-b16", "--hex").stdout) == 33


def test_a_cluster_gives_as_many_options_as_letters(cli):
    # One argument, many options: the parser holds each (the fuzzer found
    # a table sized by the arguments, not the options, overflowing).
    r = run(cli, "password", "-vvvvvvvvvvvvvvvvvvvvvvvv", "-vvvn3", "-vvl8", "--seed", "00")
    assert r.returncode == 0 and len(r.stdout.split()) == 3, r
