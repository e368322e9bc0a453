# SPDX-License-Identifier: MIT OR Apache-2.0
"""The system generator's shared view (include/shakerand.h) is held to the
core's own layout at compile time: a header whose fields differ from the
core's must not build, whatever the C compiler finds at run time."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT

HEADER = os.path.join(ROOT, "include", "shakerand.h")
INSIDE = re.compile(r"^(\s*)volatile int inside;", re.M)


def compile_view_checks(include_dir):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    return subprocess.run(
        [cc, "-std=c11", "-fsyntax-only", "-I", include_dir, "-I", os.path.join(ROOT, "src"),
         os.path.join(ROOT, "src", "system_view.c")], capture_output=True, text=True)


@pytest.mark.parametrize("width", ["long", "short", "char"])
def test_a_header_whose_inside_is_not_the_cores_width_does_not_build(tmp_path, width):
    with open(HEADER) as f:
        text = f.read()
    assert INSIDE.search(text), "the view's inside field moved: update this test"
    (tmp_path / "shakerand.h").write_text(INSIDE.sub(r"\1volatile %s inside;" % width, text))
    built = compile_view_checks(str(tmp_path))
    assert built.returncode != 0
    assert "inside is as wide as the core's marker" in built.stderr.replace("\\'", "'")


def test_the_header_as_it_is_builds():
    built = compile_view_checks(os.path.join(ROOT, "include"))
    assert built.returncode == 0, built.stderr
