# SPDX-License-Identifier: MIT OR Apache-2.0
"""vectors/shakerand.json is exactly what its generator writes."""
import os
import subprocess
import sys

from conftest import ROOT


def test_checked_in_vectors_equal_generator_output(tmp_path):
    out = tmp_path / "shakerand.json"
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_vectors.py"), str(out)],
                   check=True)
    with open(os.path.join(ROOT, "vectors", "shakerand.json")) as f:
        checked_in = f.read()
    assert out.read_text() == checked_in, (
        "vectors/shakerand.json drifted from tools/gen_vectors.py: regenerate it "
        "only if the stream change is intended (it breaks stream stability)")
