// SPDX-License-Identifier: MIT OR Apache-2.0
// Heads in 1,000 fair flips with std::binomial_distribution.
#include <cstdio>
#include <random>

#include <shakerand.hpp>

int main()
{
    shakerand::engine<std::uint16_t, shakerand::kind::shake256> rng;
    std::binomial_distribution<int> flips(1000, 0.5);
    for (int i = 0; i < 5; i++)
        std::printf("[BINOMIAL DISTRIBUTION] Number of heads in 1,000 flips: %d\n", flips(rng));
}
