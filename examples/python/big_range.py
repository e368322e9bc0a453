# SPDX-License-Identifier: MIT OR Apache-2.0
"""An unbiased integer below a 512-bit bound (a private scalar, say)."""
import shakerand

# Any int bound works; this one is a 512-bit number.
q = 2**512 - 569
k = shakerand.below(q)                     # uniform in [0, q), RNG-BC-1
value, bits = shakerand.below_counted(q, method="rng-bc-1")
print(hex(k))
print(f"RNG-BC-1 drew {bits} bits for a {q.bit_length()}-bit bound")
assert 0 <= value < q
