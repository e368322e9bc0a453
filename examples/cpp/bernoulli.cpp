// SPDX-License-Identifier: MIT OR Apache-2.0
// Biased coin flips with std::bernoulli_distribution.
#include <cstdio>
#include <random>

#include <shakerand.hpp>

int main()
{
    shakerand::system_rng rng;
    std::bernoulli_distribution coin(0.25);
    int heads = 0;
    for (int i = 0; i < 1000; i++)
        heads += coin(rng);
    std::printf("[BERNOULLI DISTRIBUTION] heads in 1,000 flips with p = 0.25: %d\n", heads);
}
