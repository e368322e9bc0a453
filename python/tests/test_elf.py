# SPDX-License-Identifier: MIT OR Apache-2.0
"""The extension is linked with immediate binding and read-only relocations
(setup.py says why: a lazily bound PLT call runs glibc's resolver, which
saves the XSAVE area on the stack outside what the library's stack wipe
covers). Read from the built extension's ELF headers by the parser below,
so no binutils are needed."""
import struct
import sys

import pytest

from shakerand import _core

pytestmark = pytest.mark.skipif(not sys.platform.startswith(("linux", "freebsd")),
                                reason="an ELF platform's extension")

PT_DYNAMIC, PT_GNU_RELRO = 2, 0x6474E552
DT_NULL, DT_BIND_NOW, DT_FLAGS, DT_FLAGS_1 = 0, 24, 30, 0x6FFFFFFB
DF_BIND_NOW, DF_1_NOW = 0x8, 0x1


def segments_and_dynamic(path):
    """(the program headers' types, the dynamic section's (tag, value) pairs)."""
    data = open(path, "rb").read()
    assert data[:4] == b"\x7fELF", "not an ELF file"
    wide = {1: False, 2: True}[data[4]]
    end = {1: "<", 2: ">"}[data[5]]
    if wide:
        phoff, = struct.unpack_from(end + "Q", data, 0x20)
        phentsize, phnum = struct.unpack_from(end + "HH", data, 0x36)
    else:
        phoff, = struct.unpack_from(end + "I", data, 0x1C)
        phentsize, phnum = struct.unpack_from(end + "HH", data, 0x2A)
    types, dynamic = [], []
    for i in range(phnum):
        at = phoff + i * phentsize
        if wide:
            p_type, _, p_offset, _, _, p_filesz = struct.unpack_from(end + "IIQQQQ", data, at)
        else:
            p_type, p_offset, _, _, p_filesz = struct.unpack_from(end + "IIIII", data, at)
        types.append(p_type)
        if p_type == PT_DYNAMIC:
            entry = end + ("qQ" if wide else "iI")
            size = struct.calcsize(entry)
            for off in range(p_offset, p_offset + p_filesz, size):
                tag, value = struct.unpack_from(entry, data, off)
                if tag == DT_NULL:
                    break
                dynamic.append((tag, value))
    return types, dynamic


def test_extension_is_bound_now_with_relro():
    types, dynamic = segments_and_dynamic(_core.__file__)
    assert dynamic, "no dynamic section"
    flags = flags_1 = 0
    for tag, value in dynamic:
        flags |= value if tag == DT_FLAGS else 0
        flags_1 |= value if tag == DT_FLAGS_1 else 0
    bind_now = (flags & DF_BIND_NOW or flags_1 & DF_1_NOW
                or any(t == DT_BIND_NOW for t, _ in dynamic))
    assert bind_now, "lazy binding: link with -Wl,-z,now"
    assert PT_GNU_RELRO in types, "no GNU_RELRO segment: link with -Wl,-z,relro"
