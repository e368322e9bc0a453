# SPDX-License-Identifier: MIT OR Apache-2.0
"""What pip installed: the typing files, the licence metadata, the
examples' promises."""
import importlib.metadata
import pathlib

import shakerand


def test_typing_files_are_installed():
    package = pathlib.Path(shakerand.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "_core.pyi").is_file()


def test_metadata():
    meta = importlib.metadata.metadata("shakerand")
    assert meta["Version"] == shakerand.__version__
    licence = meta.get("License-Expression") or meta.get("License")
    assert licence == "MIT OR Apache-2.0"
    files = [str(f) for f in importlib.metadata.files("shakerand") or []]
    assert any(f.endswith("LICENSE-MIT") for f in files)
    assert any(f.endswith("LICENSE-APACHE") for f in files)
    assert not any("csrc" in f for f in files)  # the C sources stay in the sdist


def test_all_names_exist():
    for name in shakerand.__all__:
        assert hasattr(shakerand, name), name
