#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
# The odds that js/wasm/shakerand_wasm.c's seed check refuses real random
# bytes: P(fewer than MIN_DISTINCT distinct values among N uniform bytes),
# exact. D distinct values among N draws from V: S(N, D) partitions of the
# draws (Stirling numbers of the second kind) times V!/(V-D)! values for
# them, over V^N.
from fractions import Fraction
from math import log2, perm

N, V, MIN_DISTINCT = 32, 256, 18

stirling = [[0] * (N + 1) for _ in range(N + 1)]
stirling[0][0] = 1
for n in range(1, N + 1):
    for d in range(1, n + 1):
        stirling[n][d] = d * stirling[n - 1][d] + stirling[n - 1][d - 1]

p = Fraction(sum(stirling[N][d] * perm(V, d) for d in range(MIN_DISTINCT)), V**N)
assert sum(stirling[N][d] * perm(V, d) for d in range(N + 1)) == V**N
print(f"P(fewer than {MIN_DISTINCT} distinct among {N} bytes) = {float(p):.4g} = 2^{log2(p):.2f}")
