# SPDX-License-Identifier: MIT OR Apache-2.0
"""A seeded generator: the same values in Python, C, C++, Go and Java.

The CLI prints the same bytes: shakerand bytes -n 16 --hex --engine chacha8rand --seed <hex>
"""
import shakerand

seed = bytes(range(32))                    # chacha8rand takes exactly 32 bytes
r = shakerand.Random(seed, kind="chacha8rand")
print("bytes ", r.randbytes(16).hex())
print("word  ", r.getrandbits(64))         # the next 8 bytes, little-endian
print("float ", r.random())                # (word >> 11) * 2**-53, as the C sampler
print("die   ", r.randrange(1, 7))         # Lemire, as shakerand_uniform_u64

again = shakerand.Random(seed, kind="chacha8rand")
assert again.randbytes(16) == shakerand.Random(seed, "chacha8rand").randbytes(16)
state = r.getstate()
a = [r.random() for _ in range(3)]
r.setstate(state)
assert a == [r.random() for _ in range(3)]  # getstate/setstate replay
