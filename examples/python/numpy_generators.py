# SPDX-License-Identifier: MIT OR Apache-2.0
"""numpy's distributions on shakerand (pip install 'shakerand[numpy]')."""
import os

import numpy as np

from shakerand.numpy import BitGenerator, SystemBitGenerator

g = np.random.Generator(SystemBitGenerator())
print(g.normal(size=3), g.integers(0, 10**9, 3), g.permutation(5))

# Secure across fork: the child gets its own values (PCG64 would repeat).
g.random(10)  # values are now buffered in this process
read, write = os.pipe()
pid = os.fork()
if pid == 0:
    os.write(write, g.bytes(16))
    os._exit(0)
os.waitpid(pid, 0)
assert os.read(read, 16) != g.bytes(16)

# Reproducible: the raw words are the C engine's u64 sequence.
seeded = np.random.Generator(BitGenerator(b"experiment 7", kind="turboshake256"))
print(seeded.random(3))
