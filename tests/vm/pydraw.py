# SPDX-License-Identifier: MIT OR Apache-2.0
"""The Python front end in tests/vm's guest, run by agent.c: the shakerand
package (built against this interpreter, installed with numpy into a folder
of its own) says what it watches, then for each line N on standard input
writes N words of each channel in this order, one per line in 16 hex digits
(gdraw's protocol): shakerand.token_bytes(8), shakerand.random() (the
double's bits) and numpy's Generator(SystemBitGenerator()).integers over
64 bits."""

import struct
import sys

import numpy as np

import shakerand
from shakerand.numpy import SystemBitGenerator


def main():
    gen = np.random.Generator(SystemBitGenerator())
    out = sys.stdout
    out.write(f"watches_vm_generation={shakerand.watches_vm_generation()} "
              f"numpy={np.__version__} python={sys.version.split()[0]}\n")
    out.flush()
    for line in sys.stdin:
        n = int(line)
        words = [shakerand.token_bytes(8).hex() for _ in range(n)]
        words += ["%016x" % struct.unpack("<Q", struct.pack("<d", shakerand.random()))[0]
                  for _ in range(n)]
        words += ["%016x" % int(w) for w in gen.integers(0, 2**64, size=n, dtype=np.uint64,
                                                         endpoint=False)]
        out.write("".join(w + "\n" for w in words))
        out.flush()


if __name__ == "__main__":
    main()
