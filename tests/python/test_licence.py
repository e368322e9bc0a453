# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every source file carries the licence's SPDX line (tools/spdx.py adds it)."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_source_file_has_the_spdx_line():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "spdx.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_both_licence_texts_are_there():
    assert "MIT License" in (ROOT / "LICENSE-MIT").read_text()
    assert "Apache License" in (ROOT / "LICENSE-APACHE").read_text()
    assert "Version 2.0, January 2004" in (ROOT / "LICENSE-APACHE").read_text()
