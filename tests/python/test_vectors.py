# SPDX-License-Identifier: MIT OR Apache-2.0
"""vectors/shakerand.json is exactly what its generator writes, and its
string seeds are their UTF-8 bytes."""
import hashlib
import json
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


def test_string_seeds_are_their_utf8_bytes():
    # docs/engines.md, "Seeds": Python's own encoder against the file, and
    # the first bytes of shake256's stream against hashlib's SHAKE256 (its
    # first 136 bytes are the XOF's output).
    with open(os.path.join(ROOT, "vectors", "shakerand.json")) as f:
        cases = json.load(f)["string_seeds"]
    assert {c["engine"] for c in cases} == {"turboshake256", "shake256", "turboshake256x8",
                                           "chacha8rand"}
    for c in cases:
        text = c["seed_text"]
        assert any(ord(ch) > 0xffff for ch in text) and "é" in text, text
        assert bytes.fromhex(c["seed_hex"]) == text.encode("utf-8"), c["engine"]
        assert len(text.encode("utf-16-le")) // 2 != len(text.encode("utf-8")), text
        if c["engine"] == "shake256":
            assert hashlib.shake_256(text.encode("utf-8")).hexdigest(64) == c["first_64_hex"]
