# SPDX-License-Identifier: MIT OR Apache-2.0
"""make test-dist's check of an installed shakerand wheel, run by the
interpreter it was installed for (natively or under qemu-user).

    python smoke.py SEED_TEXT WANT_HEX TAG

Prints the seeded chacha8rand stream's first 16 bytes, which must be
WANT_HEX (the oracle's), after checking that the wheel pip chose is TAG's,
that numpy's Generator runs on both bit generators (the seeded one giving
the engine's words, the system one values in [0, 1)), that the functions
draw from the system generator, and that a free-threaded CPython stays
without its GIL.
"""
import importlib.metadata
import sys
import sysconfig

import numpy as np

import shakerand
from shakerand.numpy import BitGenerator, SystemBitGenerator

seed, want, tag = sys.argv[1].encode(), sys.argv[2], sys.argv[3]
if sysconfig.get_config_var("Py_GIL_DISABLED") and sys._is_gil_enabled():
    sys.exit("importing shakerand turned a free-threaded CPython's GIL on")
wheel = importlib.metadata.distribution("shakerand").read_text("WHEEL")
if f"Tag: {tag}\n" not in wheel:
    sys.exit(f"the installed wheel is not {tag}:\n{wheel}")
got = shakerand.Random(seed, "chacha8rand").randbytes(16)
if got.hex() != want:
    sys.exit(f"seeded chacha8rand gave {got.hex()}, the oracle {want}")
# Full-range 64-bit integers are the bit generator's words as numpy takes
# them from the capsule's next_uint64.
g = np.random.Generator(BitGenerator(seed, "chacha8rand"))
words = g.integers(0, 2**64, size=2, dtype=np.uint64)
if [int(w) for w in words] != [int.from_bytes(got[i:i + 8], "little") for i in (0, 8)]:
    sys.exit(f"numpy BitGenerator's words {words} are not the engine's")
values = np.random.Generator(SystemBitGenerator()).random(1000)
if not (values.min() >= 0 and values.max() < 1 and len(set(values.tolist())) == 1000):
    sys.exit("SystemBitGenerator's doubles are not 1000 distinct values in [0, 1)")
if shakerand.token_bytes(16) == shakerand.token_bytes(16):
    sys.exit("token_bytes repeated")
print(got.hex(), f"numpy {np.__version__}, kernel {shakerand.kernel()}")
