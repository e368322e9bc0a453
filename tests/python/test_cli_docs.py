# SPDX-License-Identifier: MIT OR Apache-2.0
"""The CLI's documentation against the program: every command's --help and
the man page list the same long options, the completion scripts are what the
tables of options write (shakerand --generate-completion SHELL) and know
every command and option, the man page renders without warnings, and
cmake --install puts the man page and the completions where man and the
shells look."""
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT

MAN = os.path.join(ROOT, "cli", "shakerand.1")
COMPLETIONS = os.path.join(ROOT, "cli", "completions")


def help_text(cli, *args):
    r = subprocess.run([cli, *args, "--help"], capture_output=True, check=True)
    return r.stdout.decode()


def commands(cli):
    text = help_text(cli).split("Commands:\n")[1].split("\n\n")[0]
    return [line.split()[0] for line in text.splitlines()]


def help_options(cli, command):
    """The long options in the option list of a command's --help."""
    found = set()
    for line in help_text(cli, command).splitlines():
        m = re.match(r"\s+(?:-\w, )?--([\w-]+)", line)
        if m:
            found.add(m.group(1))
    return found


def man_sections():
    """Command -> the long options in the .TP tags of its .SS section."""
    sections, current, tag_next = {}, None, False
    with open(MAN) as f:
        for line in f:
            if line.startswith(".SS "):
                current = line[4:].strip()
                sections[current] = set()
            elif line.startswith(".SH "):
                current = None
            elif line.startswith(".TP"):
                tag_next = True
                continue
            elif tag_next and current is not None:
                # A name's own hyphens are "\-" too: --head\-count.
                sections[current].update(name.replace("\\-", "-") for name in
                                         re.findall(r"\\-\\-((?:\w|\\-)+)", line))
            tag_next = False
    return sections


def test_every_command_has_a_man_section_listing_exactly_its_options(cli):
    sections = man_sections()
    names = commands(cli)
    assert names == ["bytes", "int", "token", "password", "shuffle", "pick", "uuid", "sources"]
    for command in names:
        assert command in sections, command
        assert sections[command] == help_options(cli, command), command
    assert sections["Options of shakerand itself"] == {"help", "version"}
    assert set(sections) == set(names) | {"Options of shakerand itself"}


def test_man_page_synopsis_names_every_command(cli):
    text = open(MAN).read()
    synopsis = text.split(".SH SYNOPSIS")[1].split(".SH ")[0]
    for command in commands(cli):
        assert f".B shakerand {command}" in synopsis, command


def test_man_page_renders_without_warnings():
    if shutil.which("groff"):
        r = subprocess.run(["groff", "-ww", "-man", "-z", MAN], capture_output=True)
        assert r.returncode == 0 and r.stderr == b"", r.stderr
    elif shutil.which("mandoc"):
        r = subprocess.run(["mandoc", "-Tlint", "-Wwarning", MAN], capture_output=True)
        assert r.returncode == 0, r.stdout + r.stderr
    else:
        pytest.skip("neither groff nor mandoc is installed")


def bash_complete(words):
    script = (f"source {COMPLETIONS}/shakerand.bash\n"
              "COMP_WORDS=(\"$@\"); COMP_CWORD=$(( $# - 1 )); _shakerand\n"
              "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    r = subprocess.run(["bash", "-c", script, "bash", *words], capture_output=True, check=True)
    return r.stdout.decode().split()


def test_bash_completion_loads_and_completes_every_command_and_option(cli):
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    r = subprocess.run(["bash", "-c", f"source {COMPLETIONS}/shakerand.bash && complete -p "
                                      "shakerand"], capture_output=True, check=True)
    assert b"-F _shakerand shakerand" in r.stdout
    assert set(bash_complete(["shakerand", ""])) == set(commands(cli)) | {"--help",
                                                                         "--version"}
    for command in commands(cli):
        offered = {o[2:] for o in bash_complete(["shakerand", command, "--"])}
        assert offered == help_options(cli, command), command
    assert bash_complete(["shakerand", "int", "--method", "rng"]) == ["rng-bc-1", "rng-bc-8"]
    assert "alnum-symbols" in bash_complete(["shakerand", "password", "--charset", ""])


SCRIPTS = {"bash": "shakerand.bash", "zsh": "_shakerand", "fish": "shakerand.fish"}


@pytest.mark.parametrize("shell", sorted(SCRIPTS))
def test_completion_scripts_are_what_the_tables_write(cli, shell):
    # The tables of commands and options (cli/cli.c, cli/cmd_*.c) drive the
    # parsing and --help; the scripts kept in cli/completions/ must be what
    # they write, so that none lags behind a change.
    r = subprocess.run([cli, "--generate-completion", shell], capture_output=True)
    assert r.returncode == 0 and r.stderr == b"", r
    with open(os.path.join(COMPLETIONS, SCRIPTS[shell]), "rb") as f:
        assert f.read() == r.stdout, (
            f"cli/completions/{SCRIPTS[shell]} is not what the tables write; write it again "
            f"with: build/shakerand --generate-completion {shell} > cli/completions/{SCRIPTS[shell]}")


@pytest.mark.parametrize("args", [[], ["tcsh"], ["bash", "zsh"]])
def test_generate_completion_takes_one_shell(cli, args):
    r = subprocess.run([cli, "--generate-completion", *args], capture_output=True)
    assert r.returncode == 2 and r.stdout == b"", r
    assert b"bash, zsh or fish" in r.stderr


@pytest.mark.parametrize("script", ["_shakerand", "shakerand.fish"])
def test_zsh_and_fish_completions_know_every_command_and_option(cli, script):
    text = open(os.path.join(COMPLETIONS, script)).read()
    for command in commands(cli):
        assert re.search(rf"\b{command}\b", text), command
        for option in help_options(cli, command):
            pattern = rf"--{option}\b" if script == "_shakerand" else rf"-l {option}\b"
            assert re.search(pattern, text), (command, option)


def test_zsh_completion_syntax():
    if shutil.which("zsh") is None:
        pytest.skip("no zsh")
    subprocess.run(["zsh", "-n", os.path.join(COMPLETIONS, "_shakerand")], check=True)


def test_fish_completion_syntax_and_commands(cli):
    if shutil.which("fish") is None:
        pytest.skip("no fish")
    path = os.path.join(COMPLETIONS, "shakerand.fish")
    subprocess.run(["fish", "--no-execute", path], check=True)
    r = subprocess.run(["fish", "-c", f"source {path}; complete -C 'shakerand '"],
                       capture_output=True, check=True)
    offered = {line.split("\t")[0] for line in r.stdout.decode().splitlines()}
    assert offered >= set(commands(cli))


def test_install_puts_the_man_page_and_completions_in_place(tmp_path):
    cache = os.path.join(BUILD, "CMakeCache.txt")
    if not os.path.exists(cache) or shutil.which("cmake") is None:
        pytest.skip("no CMake build directory")
    if re.search(r"^SHAKERAND_INSTALL:BOOL=OFF$", open(cache).read(), re.M):
        pytest.skip("configured with SHAKERAND_INSTALL=OFF")
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)], check=True,
                   capture_output=True)
    share = prefix / "share"
    for path in ["man/man1/shakerand.1", "bash-completion/completions/shakerand",
                 "zsh/site-functions/_shakerand", "fish/vendor_completions.d/shakerand.fish"]:
        assert (share / path).is_file(), path
    if shutil.which("man") is None:
        pytest.skip("man is not installed")
    r = subprocess.run(["man", "-M", str(share / "man"), "-P", "cat", "shakerand"],
                       capture_output=True, env=dict(os.environ, MANWIDTH="80"))
    assert r.returncode == 0, r.stderr
    assert b"shakerand" in r.stdout and b"EXIT STATUS" in r.stdout


def test_help_man_page_and_completions_name_exactly_the_cores_kinds(cli):
    # The table of kinds (the C core's, recorded in the vector file) is what
    # --help prints; the man page and the completions are written by hand
    # and must follow it.
    with open(os.path.join(ROOT, "vectors", "shakerand.json")) as f:
        kinds = [row["name"] for row in json.load(f)["kinds"]]
    line = next(t for t in help_text(cli, "bytes").splitlines() if "-e, --engine ENGINE" in t)
    assert re.findall(r"[a-z0-9]+", line.split("ENGINE", 1)[1].replace(" or ", " ")) == kinds
    with open(MAN) as f:
        man = f.read()
    entry = man.split("\\fB\\-\\-engine\\fR \\fIENGINE\\fR\n", 1)[1].split("\na\n", 1)[0]
    assert re.findall(r"^\.BR? ([a-z0-9]+)", entry, re.M) == kinds
    with open(os.path.join(COMPLETIONS, "shakerand.bash")) as f:
        assert re.search(r'compgen -W "%s"' % " ".join(kinds), f.read())
    with open(os.path.join(COMPLETIONS, "_shakerand")) as f:
        assert ":engine:(%s)'" % " ".join(kinds) in f.read()
    with open(os.path.join(COMPLETIONS, "shakerand.fish")) as f:
        assert "-l engine -x -a '%s'" % " ".join(kinds) in f.read()
