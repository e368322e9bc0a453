// SPDX-License-Identifier: MIT OR Apache-2.0
// Dice rolls with std::uniform_int_distribution.
#include <cstdio>
#include <random>

#include <shakerand.hpp>

int main()
{
    shakerand::engine<std::uint64_t> rng;
    std::uniform_int_distribution<int> die(1, 6);
    for (int i = 0; i < 8; i++)
        std::printf("[UNIFORM INT] roll: %d\n", die(rng));
}
